package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/ticket"
)

// VersionRow is one stored version as `policy list` shows it.
type VersionRow struct {
	DocID         string     `json:"doc_id"`
	Version       int        `json:"version"`
	Status        string     `json:"status"`
	Source        string     `json:"source"`
	Locale        string     `json:"locale"`
	Area          string     `json:"area"`
	Title         string     `json:"title"`
	EffectiveFrom *time.Time `json:"effective_from"`
	EffectiveTo   *time.Time `json:"effective_to"`
	ApprovedAt    *time.Time `json:"approved_at"`
	Plans         []string   `json:"plans"`
	Regions       []string   `json:"regions"`
	Chunks        int        `json:"chunks"`
	Eligible      bool       `json:"eligible"` // at the asked instant, for the asked plan and region (any scope if not asked)
}

// ListVersions returns every stored version, with whether it is eligible at `at` for plan
// and region ("" matches any).
func (s *Store) ListVersions(ctx context.Context, at time.Time, plan, region string) ([]VersionRow, error) {
	rows, err := s.db.Query(ctx, `
		SELECT v.doc_id, v.version, v.status, v.source, v.locale, v.area, v.title,
		       v.effective_from, v.effective_to, v.approved_at, v.plans, v.regions,
		       (SELECT count(*) FROM chunks c WHERE c.version_id = v.id)::int,
		       coalesce(v.status <> 'draft' AND v.eligible_window @> $1::timestamptz
		         AND ($2 = '' OR '*' = ANY (v.plans) OR $2 = ANY (v.plans))
		         AND ($3 = '' OR '*' = ANY (v.regions) OR $3 = ANY (v.regions)), false)
		FROM versions v ORDER BY v.doc_id, v.version`, at, plan, region)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[VersionRow])
}

// CurrentVersion returns the version of docID eligible at `at` for plan and region, or
// ErrNotFound when none is.
func (s *Store) CurrentVersion(ctx context.Context, docID string, at time.Time, plan, region string) (VersionRow, error) {
	rows, err := s.CurrentVersions(ctx, []string{docID}, at, plan, region)
	switch {
	case err != nil:
		return VersionRow{}, err
	case len(rows) == 0:
		return VersionRow{}, fmt.Errorf("version of %s eligible at %s: %w", docID, at.UTC().Format(time.RFC3339), ErrNotFound)
	}
	return rows[0], nil
}

// CurrentVersions returns the version of each of docIDs eligible at `at` for plan and
// region, in one query: at most one each (the schema allows no more), none for a document
// that has no eligible version.
func (s *Store) CurrentVersions(ctx context.Context, docIDs []string, at time.Time, plan, region string) ([]VersionRow, error) {
	rows, err := s.db.Query(ctx, `
		SELECT v.doc_id, v.version, v.status, v.source, v.locale, v.area, v.title,
		       v.effective_from, v.effective_to, v.approved_at, v.plans, v.regions, 0, true
		FROM versions v
		WHERE v.doc_id = ANY ($1) AND v.status <> 'draft' AND v.eligible_window @> $2::timestamptz
		  AND ('*' = ANY (v.plans) OR $3 = ANY (v.plans))
		  AND ('*' = ANY (v.regions) OR $4 = ANY (v.regions))
		ORDER BY v.doc_id`, docIDs, at, plan, region)
	if err != nil {
		return nil, fmt.Errorf("versions eligible at %s for %s/%s: %w", at.UTC().Format(time.RFC3339), plan, region, err)
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[VersionRow])
}

// SendTimeState is what a draft bound to the versions bound is compared with at `at`
// (drafts.Staleness): the ticket's latest revision (as LatestTicket read it), its account,
// and the version of each document eligible now for that account. The send hook and the
// workflow's own check (activities.CheckFresh) both read it here.
func (s *Store) SendTimeState(ctx context.Context, latest *ticket.Ticket, bound []drafts.BoundVersion, at time.Time) (drafts.SendTimeState, error) {
	now := drafts.SendTimeState{Revision: latest.Revision, RevisionAt: latest.UpdatedAt, Plan: latest.Account.Plan,
		Region: latest.Account.Region, Versions: map[string]drafts.CurrentVersion{}}
	docIDs := make([]string, len(bound))
	for i, b := range bound {
		docIDs[i] = b.DocID
	}
	rows, err := s.CurrentVersions(ctx, docIDs, at, latest.Account.Plan, latest.Account.Region)
	if err != nil {
		return now, err
	}
	for _, r := range rows {
		now.Versions[r.DocID] = drafts.CurrentVersion{Version: r.Version, ApprovedAt: r.ApprovedAt}
	}
	return now, nil
}
