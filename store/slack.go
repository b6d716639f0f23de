package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// FirstSlackRequest records a verified Slack request's signature and reports whether it
// is the first time it is seen: false is a replay. Signatures older than ten minutes are
// forgotten, twice Slack's five-minute window.
func (s *Store) FirstSlackRequest(ctx context.Context, signature string) (bool, error) {
	if _, err := s.db.Exec(ctx, `DELETE FROM slack_requests WHERE seen_at < now() - interval '10 minutes'`); err != nil {
		return false, fmt.Errorf("forget old Slack requests: %w", err)
	}
	tag, err := s.db.Exec(ctx, `INSERT INTO slack_requests (signature) VALUES ($1) ON CONFLICT DO NOTHING`, signature)
	if err != nil {
		return false, fmt.Errorf("record a Slack request: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// QueuedIteration is the iteration of a ticket's draft in the review queue, 0 when the
// ticket has no queue entry.
func (s *Store) QueuedIteration(ctx context.Context, ticketID string) (int, error) {
	var it int
	err := s.db.QueryRow(ctx, `SELECT iteration FROM review_queue WHERE ticket_id = $1`, ticketID).Scan(&it)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("review queue entry of ticket %s: %w", ticketID, err)
	}
	return it, nil
}
