package store

import (
	"context"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/ticket"
)

// VersionRow is one stored version as `supportdraft policy list` shows it. It is not
// policy.Version: it holds the chunk count rather than the chunks (and no body), and
// whether the version is eligible for the asked instant, plan and region.
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

// NamedPlansAndRegions returns the plans and regions that published versions name, "*"
// aside, sorted: what a tool compares an account with, so that a typo ("eu-west" for
// "eu") is told apart from an account no policy was written for.
func (s *Store) NamedPlansAndRegions(ctx context.Context) (plans, regions []string, err error) {
	err = s.db.QueryRow(ctx, `
		SELECT ARRAY(SELECT DISTINCT p FROM versions, unnest(plans) p WHERE status <> 'draft' AND p <> '*' ORDER BY p),
		       ARRAY(SELECT DISTINCT r FROM versions, unnest(regions) r WHERE status <> 'draft' AND r <> '*' ORDER BY r)`).
		Scan(&plans, &regions)
	return plans, regions, err
}

// SendTimeState is what a draft bound to the versions bound is compared with at `at`
// (drafts.Staleness): the ticket's latest revision (as LatestTicket read it), its account,
// and the version of each document eligible now for that account. The workflow's own
// check (activities.CheckFresh) reads it here; the send hook reads the eligible versions
// with the rest of what it starts from (StartSendCheck).
func (s *Store) SendTimeState(ctx context.Context, latest *ticket.Ticket, bound []drafts.BoundVersion, at time.Time) (drafts.SendTimeState, error) {
	eligible, err := s.EligibleVersions(ctx, at, latest.Account.Plan, latest.Account.Region)
	if err != nil {
		return drafts.SendTimeState{}, err
	}
	return SendTimeStateOf(latest, bound, eligible), nil
}

// SendTimeStateOf is SendTimeState from the versions eligible for latest's account.
func SendTimeStateOf(latest *ticket.Ticket, bound []drafts.BoundVersion, eligible []EligibleVersion) drafts.SendTimeState {
	now := drafts.SendTimeState{Revision: latest.Revision, RevisionAt: latest.UpdatedAt, Plan: latest.Account.Plan,
		Region: latest.Account.Region, Versions: map[string]drafts.CurrentVersion{}}
	for _, v := range eligible {
		if slices.ContainsFunc(bound, func(b drafts.BoundVersion) bool { return b.DocID == v.DocID }) {
			now.Versions[v.DocID] = drafts.CurrentVersion{Version: v.Version, ApprovedAt: v.ApprovedAt}
		}
	}
	return now
}
