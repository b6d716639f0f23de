package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
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
// ErrNotFound when none is. The pre-send check compares a draft's bound versions with it.
func (s *Store) CurrentVersion(ctx context.Context, docID string, at time.Time, plan, region string) (VersionRow, error) {
	rows, err := s.db.Query(ctx, `
		SELECT v.doc_id, v.version, v.status, v.source, v.locale, v.area, v.title,
		       v.effective_from, v.effective_to, v.approved_at, v.plans, v.regions, 0, true
		FROM versions v
		WHERE v.doc_id = $1 AND v.status <> 'draft' AND v.eligible_window @> $2::timestamptz
		  AND ('*' = ANY (v.plans) OR $3 = ANY (v.plans))
		  AND ('*' = ANY (v.regions) OR $4 = ANY (v.regions))`, docID, at, plan, region)
	if err != nil {
		return VersionRow{}, err
	}
	row, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByPos[VersionRow])
	if errors.Is(err, pgx.ErrNoRows) {
		return VersionRow{}, fmt.Errorf("version of %s eligible at %s: %w", docID, at.UTC().Format(time.RFC3339), ErrNotFound)
	}
	return row, err
}
