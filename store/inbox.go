package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/ticket"
)

// SaveMessage stores an inbound message as delivered. A message ID seen before keeps its
// first copy: the help desk may deliver a webhook twice, and the second delivery is a
// duplicate, not an edit. The label block of evaluation sets is not stored.
func (s *Store) SaveMessage(ctx context.Context, m *inbox.Message) error {
	stored := *m
	stored.Expect = nil
	data, err := json.Marshal(&stored)
	if err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `INSERT INTO inbox_messages (message_id, thread_id, received_at, message)
		VALUES ($1, $2, $3, $4) ON CONFLICT (message_id) DO NOTHING`, m.MessageID, m.ThreadID, m.ReceivedAt, data)
	if err != nil {
		return fmt.Errorf("save message %s: %w", m.MessageID, err)
	}
	return nil
}

// Message loads an inbound message by its ID.
func (s *Store) Message(ctx context.Context, messageID string) (*inbox.Message, error) {
	var data []byte
	err := s.db.QueryRow(ctx, `SELECT message FROM inbox_messages WHERE message_id = $1`, messageID).Scan(&data)
	if err := loadError("message "+messageID, err); err != nil {
		return nil, err
	}
	var m inbox.Message
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("message %s: stored JSON: %w", messageID, err)
	}
	return &m, nil
}

// AppendToThread makes a surviving message the next revision of its thread's ticket and
// returns that revision. Messages of one thread are appended one at a time (an advisory
// lock on the ticket ID), and a message appended before returns its revision again, so a
// retried step never adds a second one.
func (s *Store) AppendToThread(ctx context.Context, m *inbox.Message) (*ticket.Ticket, error) {
	var out *ticket.Ticket
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('ticket:' || $1))`, m.ThreadID); err != nil {
			return err
		}
		var revision int
		err := tx.QueryRow(ctx, `SELECT revision FROM inbox_revisions WHERE message_id = $1`, m.MessageID).Scan(&revision)
		if err == nil {
			out, err = scanTicket(tx.QueryRow(ctx, `SELECT `+ticketColumns+` FROM ticket_revisions WHERE ticket_id = $1 AND revision = $2`, m.ThreadID, revision), m.ThreadID)
			return err
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		prev, err := scanTicket(tx.QueryRow(ctx, `SELECT `+ticketColumns+` FROM ticket_revisions WHERE ticket_id = $1 ORDER BY revision DESC LIMIT 1`, m.ThreadID), m.ThreadID)
		if errors.Is(err, ErrNotFound) {
			prev, err = nil, nil
		}
		if err != nil {
			return err
		}
		out = inbox.Revision(prev, m)
		msgs, err := json.Marshal(out.Messages)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO ticket_revisions (`+ticketColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
			out.TicketID, out.Revision, out.UpdatedAt, out.Account.ID, out.Account.Plan, out.Account.Region,
			out.Account.Eligibility().Locale, out.Channel, out.Subject, msgs, out.Account.Name); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO inbox_revisions (message_id, ticket_id, revision) VALUES ($1, $2, $3)`, m.MessageID, out.TicketID, out.Revision)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("append message %s to ticket %s: %w", m.MessageID, m.ThreadID, err)
	}
	return out, nil
}

// RecordFunnel writes a message's step decisions in one statement.
func (s *Store) RecordFunnel(ctx context.Context, events []inbox.Event) error {
	if len(events) == 0 {
		return nil
	}
	// One INSERT over arrays: a single round trip, where COPY takes three for a handful
	// of rows; the funnel writes its events at the end of every message's workflow.
	var ids, threads, steps, outcomes, reasons, buckets []string
	var at []time.Time
	for _, e := range events {
		ids, threads, steps = append(ids, e.MessageID), append(threads, e.ThreadID), append(steps, e.Step)
		outcomes, reasons, buckets = append(outcomes, e.Outcome), append(reasons, e.Reason), append(buckets, e.Bucket)
		at = append(at, e.At)
	}
	_, err := s.db.Exec(ctx, `INSERT INTO funnel_events (message_id, thread_id, stage, outcome, reason, bucket, at)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])`,
		ids, threads, steps, outcomes, reasons, buckets, at)
	if err != nil {
		return fmt.Errorf("record funnel events of message %s: %w", events[0].MessageID, err)
	}
	return nil
}

// HaltedSkips is how many times the kill switch skipped a message: each such run leaves
// the message unseen, so its redelivery is processed (workflows.IntakeRunID).
func (s *Store) HaltedSkips(ctx context.Context, messageID string) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT count(*) FROM funnel_events WHERE message_id = $1 AND stage = 'kill_switch' AND outcome = 'skip'`, messageID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("kill switch skips of message %s: %w", messageID, err)
	}
	return n, nil
}

// FunnelEvents returns a message's recorded step decisions in order.
func (s *Store) FunnelEvents(ctx context.Context, messageID string) ([]inbox.Event, error) {
	rows, err := s.db.Query(ctx, `SELECT message_id, thread_id, stage, outcome, reason, bucket, at
		FROM funnel_events WHERE message_id = $1 ORDER BY id`, messageID)
	if err != nil {
		return nil, fmt.Errorf("funnel events of message %s: %w", messageID, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (inbox.Event, error) {
		var e inbox.Event
		err := r.Scan(&e.MessageID, &e.ThreadID, &e.Step, &e.Outcome, &e.Reason, &e.Bucket, &e.At)
		return e, err
	})
}

// Halted reports whether the kill switch is on.
func (s *Store) Halted(ctx context.Context) (bool, error) {
	var halted bool
	if err := s.db.QueryRow(ctx, `SELECT halted FROM kill_switch`).Scan(&halted); err != nil {
		return false, fmt.Errorf("read the kill switch: %w", err)
	}
	return halted, nil
}

// SetHalted turns the kill switch on or off; by names who did it, for the record.
func (s *Store) SetHalted(ctx context.Context, halted bool, by string) error {
	if _, err := s.db.Exec(ctx, `UPDATE kill_switch SET halted = $1, changed_by = $2, changed_at = now()`, halted, by); err != nil {
		return fmt.Errorf("set the kill switch: %w", err)
	}
	return nil
}
