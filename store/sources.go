package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
)

// EligibleVersion is a version eligible for an account at an instant (approved, in force
// at that instant, scoped to the account's plan and region or to all of them; drafts
// excluded; docs/contracts.md, "Eligibility"). Its chunks are what outbound text may
// rest on, and it is what a draft's bindings are compared with at send time.
type EligibleVersion struct {
	ID         int64
	DocID      string
	Version    int
	ApprovedAt *time.Time
}

// eligibleVersionsSQL selects the versions eligible at $1 for the account (plan, region)
// of %s, in increasing ID order: a stored version never changes (an edit is a new
// version), so the ID list names the eligible chunks exactly, and the send-check and the
// edit check keep what the guard read of them under it (package sources).
const eligibleVersionsSQL = `
	SELECT v.id, v.doc_id, v.version, v.approved_at
	FROM %s a
	JOIN versions v ON v.status <> 'draft' AND v.eligible_window @> $1::timestamptz
	 AND v.plans && ARRAY['*', a.plan] AND v.regions && ARRAY['*', a.region]
	ORDER BY v.id`

// EligibleVersions lists the versions eligible at `at` for plan and region.
func (s *Store) EligibleVersions(ctx context.Context, at time.Time, plan, region string) ([]EligibleVersion, error) {
	rows, err := s.db.Query(ctx, fmt.Sprintf(eligibleVersionsSQL, `(SELECT $2::text AS plan, $3::text AS region)`), at, plan, region)
	if err != nil {
		return nil, fmt.Errorf("versions eligible for %s/%s at %s: %w", plan, region, at.Format(time.RFC3339), err)
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[EligibleVersion])
}

// VersionChunks returns every chunk of the versions ids, ordered by chunk ID: with the IDs
// of EligibleVersions, every chunk outbound text may rest on.
func (s *Store) VersionChunks(ctx context.Context, ids []int64) ([]policy.Evidence, error) {
	rows, err := s.db.Query(ctx, `
		SELECT c.id, v.doc_id, v.version, v.title, v.source, v.area, c.text, 0::float8, c.fixed, c.audience, c.subheadings
		FROM versions v JOIN chunks c ON c.version_id = v.id
		WHERE v.id = ANY ($1)
		ORDER BY c.id COLLATE "C"`, ids)
	if err != nil {
		return nil, fmt.Errorf("chunks of %d versions: %w", len(ids), err)
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[policy.Evidence])
}

// LogRejections adds struck sentences of one draft iteration to the rejection log, under
// area. Sentences struck for a placeholder are the agent's unfinished template, not a
// policy gap, and are left out.
func (s *Store) LogRejections(ctx context.Context, ticketID string, iteration int, area string, sentences []guard.SentenceResult) error {
	for _, sr := range sentences {
		if sr.Kept || len(sr.Placeholders) > 0 {
			continue
		}
		if err := s.LogRejection(ctx, ticketID, iteration, area, sr.Text, sr.Reason); err != nil {
			return err
		}
	}
	return nil
}

// LogRejection adds one line to the rejection log; the same sentence of the same
// iteration is logged once.
func (s *Store) LogRejection(ctx context.Context, ticketID string, iteration int, area, sentence, reason string) error {
	_, err := s.db.Exec(ctx, `INSERT INTO rejections (ticket_id, iteration, sentence, reason, area)
		VALUES ($1,$2,$3,$4,$5) ON CONFLICT DO NOTHING`, ticketID, iteration, sentence, reason, area)
	if err != nil {
		return fmt.Errorf("log rejection for %s #%d: %w", ticketID, iteration, err)
	}
	return nil
}

// DraftArea is the policy area a draft iteration is filed under ("" if unknown).
func (s *Store) DraftArea(ctx context.Context, ticketID string, iteration int) (string, error) {
	var area string
	err := s.db.QueryRow(ctx, `SELECT coalesce((SELECT area FROM drafts WHERE ticket_id = $1 AND iteration = $2), '')`,
		ticketID, iteration).Scan(&area)
	if err != nil {
		return "", fmt.Errorf("area of draft %s #%d: %w", ticketID, iteration, err)
	}
	return area, nil
}
