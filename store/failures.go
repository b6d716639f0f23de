package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/drafts"
)

// RecordBuildFailure keeps why the ticket's last build failed, replacing an earlier
// failure. SaveIteration deletes it when a build succeeds.
func (s *Store) RecordBuildFailure(ctx context.Context, ticketID string, revision int, reason string) error {
	_, err := s.db.Exec(ctx, `
		INSERT INTO build_failures (ticket_id, revision, reason) VALUES ($1, $2, $3)
		ON CONFLICT (ticket_id) DO UPDATE SET revision = EXCLUDED.revision, reason = EXCLUDED.reason, failed_at = now()`,
		ticketID, revision, reason)
	if err != nil {
		return fmt.Errorf("record failed build of ticket %s: %w", ticketID, err)
	}
	return nil
}

// withBuildFailure marks r failed when the ticket's last build failed after r was saved.
// With no saved draft at all (r nil), a failure alone is what the ticket shows: a record
// with the revision, the failed status and the reason, and no reply.
func (s *Store) withBuildFailure(ctx context.Context, ticketID string, r *drafts.Saved) (*drafts.Saved, error) {
	var revision int
	var reason string
	err := s.db.QueryRow(ctx, `SELECT revision, reason FROM build_failures WHERE ticket_id = $1`, ticketID).Scan(&revision, &reason)
	if errors.Is(err, pgx.ErrNoRows) {
		if r == nil {
			return nil, fmt.Errorf("draft for ticket %s: %w", ticketID, ErrNotFound)
		}
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load failed build of ticket %s: %w", ticketID, err)
	}
	if r == nil {
		r = &drafts.Saved{TicketID: ticketID, Revision: revision, Claims: []drafts.ClaimCheck{}, StaleReasons: []drafts.StaleReason{}}
	}
	r.Status, r.BuildError = drafts.StatusFailed, reason
	return r, nil
}
