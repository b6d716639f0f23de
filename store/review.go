package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/review"
)

// SaveReview writes a ticket's queue entry: a newly queued iteration replaces the row, a
// decision updates it. Writing the same entry again (an activity retry) changes nothing.
func (s *Store) SaveReview(ctx context.Context, e *review.Entry) error {
	_, err := s.db.Exec(ctx, `
		INSERT INTO review_queue (ticket_id, iteration, state, bucket, confidence, low_confidence, forced_review,
		  queued_at, review_until, decided_by, decided_at, handoff_error, override_reason)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)
		ON CONFLICT (ticket_id) DO UPDATE SET iteration = EXCLUDED.iteration, state = EXCLUDED.state,
		  bucket = EXCLUDED.bucket, confidence = EXCLUDED.confidence, low_confidence = EXCLUDED.low_confidence,
		  forced_review = EXCLUDED.forced_review, queued_at = EXCLUDED.queued_at, review_until = EXCLUDED.review_until,
		  decided_by = EXCLUDED.decided_by, decided_at = EXCLUDED.decided_at, handoff_error = EXCLUDED.handoff_error,
		  override_reason = EXCLUDED.override_reason, updated_at = now()`,
		e.TicketID, e.Iteration, e.State, e.Bucket, e.Confidence, e.LowConfidence, e.ForcedReview,
		e.QueuedAt, e.ReviewUntil, e.DecidedBy, e.DecidedAt, e.HandOffError, e.OverrideReason)
	if err != nil {
		return fmt.Errorf("save review entry for ticket %s #%d: %w", e.TicketID, e.Iteration, err)
	}
	return nil
}

// ReviewQueue lists the drafts waiting for a person, oldest first: those in their window,
// those past it still waiting for approval, approved ones the help desk did not take (a
// person passes those on) and approved ones held because they went stale, with the
// draft's reply and status.
func (s *Store) ReviewQueue(ctx context.Context) ([]review.Item, error) {
	rows, err := s.db.Query(ctx, `
		SELECT q.ticket_id, q.iteration, q.state, q.bucket, q.confidence, q.low_confidence, q.forced_review,
		       q.queued_at, q.review_until, q.decided_by, q.decided_at, q.handoff_error, q.review_until > now(), d.reply, coalesce(f.reason, ''), CASE WHEN f.ticket_id IS NULL THEN d.status ELSE 'failed' END,
		       q.agent_id
		FROM review_queue q JOIN drafts d ON d.ticket_id = q.ticket_id AND d.iteration = q.iteration
		     LEFT JOIN build_failures f ON f.ticket_id = q.ticket_id
		WHERE q.state IN ('waiting', 'approved', 'handoff_failed', 'held')
		ORDER BY q.queued_at, q.ticket_id`)
	if err != nil {
		return nil, fmt.Errorf("read the review queue: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (review.Item, error) {
		var it review.Item
		err := r.Scan(&it.TicketID, &it.Iteration, &it.State, &it.Bucket, &it.Confidence, &it.LowConfidence,
			&it.ForcedReview, &it.QueuedAt, &it.ReviewUntil, &it.DecidedBy, &it.DecidedAt, &it.HandOffError, &it.WindowOpen, &it.Reply, &it.BuildError, &it.Status, &it.AgentID)
		return it, err
	})
}

// RecordSent keeps what the help desk reported sending (a hash, never the text).
func (s *Store) RecordSent(ctx context.Context, r *review.SentReply) error {
	_, err := s.db.Exec(ctx, `INSERT INTO sent_replies (ticket_id, iteration, text_sha256, edited, verdict, sent_at, agent, override_reason)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`, r.TicketID, r.Iteration, r.TextSHA256, r.Edited, r.Verdict, r.SentAt, r.Agent, r.OverrideReason)
	if err != nil {
		return fmt.Errorf("record the sent reply of ticket %s: %w", r.TicketID, err)
	}
	return nil
}
