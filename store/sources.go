package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
)

// EligibleChunks returns every chunk of the versions eligible at `at` for plan and region
// (approved, in force at that instant, scoped to the plan and region or to all of them;
// drafts excluded; docs/architecture.md, "Eligibility"): what outbound text may rest on. The
// send-check and the edit check run the guard against all of them, so an agent may quote
// any current policy, not only what the draft cited.
func (s *Store) EligibleChunks(ctx context.Context, at time.Time, plan, region string) ([]policy.Evidence, error) {
	rows, err := s.db.Query(ctx, `
		SELECT c.id, v.doc_id, v.version, v.title, v.source, v.area, c.text, 0::float8
		FROM versions v JOIN chunks c ON c.version_id = v.id
		WHERE v.status <> 'draft' AND v.eligible_window @> $1::timestamptz
		  AND v.plans && ARRAY['*', $2]::text[] AND v.regions && ARRAY['*', $3]::text[]
		ORDER BY c.id COLLATE "C"`, at, plan, region)
	if err != nil {
		return nil, fmt.Errorf("eligible chunks for %s/%s at %s: %w", plan, region, at.Format(time.RFC3339), err)
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
