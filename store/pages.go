package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/review"
)

// KillSwitch is the kill switch's state with who changed it last and when.
type KillSwitch struct {
	Halted    bool
	ChangedBy string
	ChangedAt time.Time
}

// KillSwitchState reads the kill switch with its last change, for the pages' banners.
func (s *Store) KillSwitchState(ctx context.Context) (KillSwitch, error) {
	var k KillSwitch
	err := s.db.QueryRow(ctx, `SELECT halted, changed_by, changed_at FROM kill_switch`).Scan(&k.Halted, &k.ChangedBy, &k.ChangedAt)
	if err != nil {
		return k, fmt.Errorf("read the kill switch: %w", err)
	}
	return k, nil
}

// ReviewNote is a reviewer's reason for a decision on one iteration, or an assignment of
// its review.
type ReviewNote struct {
	Iteration int
	Action    string // approve | pull | kill | assign
	By        string
	Reason    string
	Assignee  string // assign: who it went to, "" for nobody
	At        time.Time
}

// AddReviewNote keeps the reason a reviewer gave with a decision the workflow took.
func (s *Store) AddReviewNote(ctx context.Context, ticketID string, iteration int, n ReviewNote) error {
	_, err := s.db.Exec(ctx, `INSERT INTO review_notes (ticket_id, iteration, action, decided_by, reason) VALUES ($1,$2,$3,$4,$5)`,
		ticketID, iteration, n.Action, n.By, n.Reason)
	if err != nil {
		return fmt.Errorf("keep the review note of ticket %s #%d: %w", ticketID, iteration, err)
	}
	return nil
}

// ReviewNotes lists the notes on a ticket's reviews, oldest first: the reasons given with
// decisions and who assigned the review to whom.
func (s *Store) ReviewNotes(ctx context.Context, ticketID string) ([]ReviewNote, error) {
	rows, err := s.db.Query(ctx, `SELECT iteration, action, decided_by, reason, assignee, at FROM review_notes
		WHERE ticket_id = $1 ORDER BY at, id`, ticketID)
	if err != nil {
		return nil, fmt.Errorf("read the review notes of ticket %s: %w", ticketID, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[ReviewNote])
	if err != nil {
		return nil, fmt.Errorf("read the review notes of ticket %s: %w", ticketID, err)
	}
	return out, nil
}

// AssignReview gives the review of a queued ticket to assignee, or to nobody when
// assignee is "", and notes who did it (review_notes, action 'assign'), in one
// transaction. ErrNotFound when the ticket is not waiting for review.
func (s *Store) AssignReview(ctx context.Context, ticketID, assignee, by string) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		var iteration int
		err := tx.QueryRow(ctx, `SELECT iteration FROM review_queue WHERE ticket_id = $1 AND state IN ('waiting', 'approved', 'held')
			FOR UPDATE`, ticketID).Scan(&iteration)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("ticket %s is not waiting for review: %w", ticketID, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("assign the review of ticket %s: %w", ticketID, err)
		}
		if assignee == "" {
			_, err = tx.Exec(ctx, `DELETE FROM review_assignments WHERE ticket_id = $1`, ticketID)
		} else {
			_, err = tx.Exec(ctx, `INSERT INTO review_assignments (ticket_id, assignee, assigned_by) VALUES ($1, $2, $3)
				ON CONFLICT (ticket_id) DO UPDATE SET assignee = excluded.assignee, assigned_by = excluded.assigned_by, at = now()`,
				ticketID, assignee, by)
		}
		if err != nil {
			return fmt.Errorf("assign the review of ticket %s: %w", ticketID, err)
		}
		_, err = tx.Exec(ctx, `INSERT INTO review_notes (ticket_id, iteration, action, decided_by, reason, assignee)
			VALUES ($1, $2, 'assign', $3, '', $4)`, ticketID, iteration, by, assignee)
		if err != nil {
			return fmt.Errorf("note the assignment of ticket %s: %w", ticketID, err)
		}
		return nil
	})
}

// ReviewDecision is a ticket's queue entry with the reason given with its latest
// decision ("" when none was given).
type ReviewDecision struct {
	review.Entry
	Reason string
}

// ReviewOf returns the ticket's queue entry and the reason of its last decision;
// ErrNotFound when the ticket was never queued.
func (s *Store) ReviewOf(ctx context.Context, ticketID string) (*ReviewDecision, error) {
	rows, err := s.db.Query(ctx, decidedSelect+` WHERE q.ticket_id = $1`, ticketID)
	if err != nil {
		return nil, fmt.Errorf("read the review entry of ticket %s: %w", ticketID, err)
	}
	d, err := pgx.CollectExactlyOneRow(rows, scanDecision)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read the review entry of ticket %s: %w", ticketID, err)
	}
	return &d, nil
}

// Decided lists the newest limit queue entries a person or the window has decided
// (everything but waiting), newest decision first, each with its reason.
func (s *Store) Decided(ctx context.Context, limit int) ([]ReviewDecision, error) {
	rows, err := s.db.Query(ctx, decidedSelect+` WHERE q.state <> 'waiting'
		ORDER BY coalesce(q.decided_at, q.updated_at) DESC, q.ticket_id LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("read decided reviews: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanDecision)
	if err != nil {
		return nil, fmt.Errorf("read decided reviews: %w", err)
	}
	return out, nil
}

// decidedSelect reads a queue entry with the reason of the newest decision's note on its
// iteration (an assignment is no decision).
const decidedSelect = `
	SELECT q.ticket_id, q.iteration, q.state, q.bucket, q.confidence, q.low_confidence, q.forced_review,
	       q.queued_at, q.review_until, q.decided_by, q.decided_at, q.handoff_error, coalesce(n.reason, '')
	FROM review_queue q
	LEFT JOIN LATERAL (SELECT reason FROM review_notes r WHERE r.ticket_id = q.ticket_id AND r.iteration = q.iteration
	                   AND r.action <> 'assign' ORDER BY r.at DESC, r.id DESC LIMIT 1) n ON true`

func scanDecision(r pgx.CollectableRow) (ReviewDecision, error) {
	var d ReviewDecision
	err := r.Scan(&d.TicketID, &d.Iteration, &d.State, &d.Bucket, &d.Confidence, &d.LowConfidence, &d.ForcedReview,
		&d.QueuedAt, &d.ReviewUntil, &d.DecidedBy, &d.DecidedAt, &d.HandOffError, &d.Reason)
	return d, err
}

// Override is a send-check an agent answered with an override reason: the text committed
// to something no eligible policy backed, and the agent chose to send it anyway.
type Override struct {
	TicketID  string
	Iteration int
	Reason    string
	Sentences int // how many sentences were unsupported
	At        time.Time
}

// Overrides counts the overrides since an instant and lists the newest limit of them.
func (s *Store) Overrides(ctx context.Context, since time.Time, limit int) ([]Override, int, error) {
	rows, err := s.db.Query(ctx, `SELECT ticket_id, iteration, override_reason, coalesce(jsonb_array_length(unsupported), 0), at,
		       count(*) OVER ()::int
		FROM send_checks WHERE override_reason <> '' AND at >= $1 ORDER BY at DESC, id DESC LIMIT $2`, since, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("read overrides: %w", err)
	}
	total := 0
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Override, error) {
		var o Override
		return o, r.Scan(&o.TicketID, &o.Iteration, &o.Reason, &o.Sentences, &o.At, &total)
	})
	if err != nil {
		return nil, 0, fmt.Errorf("read overrides: %w", err)
	}
	return out, total, nil
}

// FunnelStageCounts counts the messages the intake funnel saw since an instant, per
// stage and outcome, and per stage whatever the outcome (Outcome ""): a message may
// record more than one outcome at a stage, so a stage's messages are counted once.
func (s *Store) FunnelStageCounts(ctx context.Context, since time.Time) ([]StageOutcome, error) {
	rows, err := s.db.Query(ctx, `SELECT stage, coalesce(outcome, ''), count(DISTINCT message_id)::int FROM funnel_events
		WHERE at >= $1 GROUP BY GROUPING SETS ((stage, outcome), (stage)) ORDER BY 1, 2`, since)
	if err != nil {
		return nil, fmt.Errorf("read funnel counts: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[StageOutcome])
}

// StageOutcome is how many messages one funnel stage saw with one outcome ("" for all).
type StageOutcome struct {
	Stage   string
	Outcome string
	Count   int
}
