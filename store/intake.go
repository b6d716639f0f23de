package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/ticket"
)

// ErrRevisionConflict is a ticket revision already stored with different content: the
// help desk reused a revision number, and the draft must not be bound to either version.
var ErrRevisionConflict = errors.New("revision already stored with different content")

// ErrOtherAgent is an ID taken by another agent's row: ticket and document IDs are unique
// per deployment, and row-level security hides the row that holds it.
var ErrOtherAgent = errors.New("belongs to another agent; IDs are unique per deployment")

// InsertTicket stores one ticket revision and reports whether this call inserted it. The
// same revision with the same content again is a no-op (inserted false): the help desk
// may deliver a webhook twice. The same revision with different content is
// ErrRevisionConflict.
func (s *Store) InsertTicket(ctx context.Context, t *ticket.Ticket) (inserted bool, err error) {
	msgs, err := json.Marshal(t.Messages)
	if err != nil {
		return false, err
	}
	sum := contentHash(t)
	tag, err := s.db.Exec(ctx, `
		INSERT INTO ticket_revisions (`+ticketColumns+`, content_sha256)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) ON CONFLICT (ticket_id, revision) DO NOTHING`,
		t.TicketID, t.Revision, t.UpdatedAt, t.Account.ID, t.Account.Plan, t.Account.Region,
		t.Account.Eligibility().Locale, t.Channel, t.Subject, msgs, t.Account.Name, sum)
	if err != nil {
		return false, fmt.Errorf("save ticket %s revision %d: %w", t.TicketID, t.Revision, err)
	}
	if tag.RowsAffected() == 1 {
		return true, nil
	}
	// Rows stored before the hash existed have none: the first retry records it.
	var stored []byte
	err = s.db.QueryRow(ctx, `
		UPDATE ticket_revisions SET content_sha256 = coalesce(content_sha256, $3)
		WHERE ticket_id = $1 AND revision = $2 RETURNING content_sha256`, t.TicketID, t.Revision, sum).Scan(&stored)
	if errors.Is(err, pgx.ErrNoRows) {
		// The insert found the key taken, and row-level security hides the row.
		return false, fmt.Errorf("ticket %s: %w", t.TicketID, ErrOtherAgent)
	}
	if err != nil {
		return false, fmt.Errorf("check ticket %s revision %d: %w", t.TicketID, t.Revision, err)
	}
	if !bytes.Equal(stored, sum) {
		return false, fmt.Errorf("ticket %s revision %d: %w", t.TicketID, t.Revision, ErrRevisionConflict)
	}
	return false, nil
}

// contentHash is the SHA-256 of the revision as stored. Struct fields marshal in a fixed
// order, so equal tickets hash equally.
func contentHash(t *ticket.Ticket) []byte {
	c := *t
	c.Account.Locale = t.Account.Eligibility().Locale
	b, _ := json.Marshal(c)
	sum := sha256.Sum256(b)
	return sum[:]
}

// DeleteTicketRevision removes a revision this request inserted when the workflow that
// should read it could not be reached, so a failed start leaves no orphan row.
func (s *Store) DeleteTicketRevision(ctx context.Context, ticketID string, revision int) error {
	_, err := s.db.Exec(ctx, `DELETE FROM ticket_revisions WHERE ticket_id = $1 AND revision = $2
		AND NOT EXISTS (SELECT 1 FROM drafts WHERE ticket_id = $1 AND revision = $2)`, ticketID, revision)
	if err != nil {
		return fmt.Errorf("undo ticket %s revision %d: %w", ticketID, revision, err)
	}
	return nil
}

// LatestRevision is the highest stored revision of a ticket, 0 if none.
func (s *Store) LatestRevision(ctx context.Context, ticketID string) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT coalesce(max(revision), 0) FROM ticket_revisions WHERE ticket_id = $1`, ticketID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("latest revision of ticket %s: %w", ticketID, err)
	}
	return n, nil
}

// TicketExists reports whether any revision of the ticket is stored.
func (s *Store) TicketExists(ctx context.Context, ticketID string) (bool, error) {
	n, err := s.LatestRevision(ctx, ticketID)
	return n > 0, err
}

// RecordSendCheckAt keeps a send-check verdict given at an earlier instant: the API's
// spool replays the verdicts it could not record while Postgres was down.
func (s *Store) RecordSendCheckAt(ctx context.Context, ticketID string, c drafts.SendCheck, at time.Time) error {
	b, _ := json.Marshal(nonNil(c.Reasons))
	unsupported, _ := json.Marshal(nonNil(c.Unsupported))
	gate, _ := json.Marshal(nonNil(c.Review))
	var textID *int64
	if c.TextID != 0 {
		textID = &c.TextID
	}
	_, err := s.db.Exec(ctx, `INSERT INTO send_checks (ticket_id, iteration, verdict, reasons, at, cause, unsupported, override_reason, text_id, review)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`, ticketID, c.Iteration, c.Verdict, b, at, c.Cause, unsupported, c.OverrideReason, textID, gate)
	if err != nil {
		return fmt.Errorf("record send-check of ticket %s: %w", ticketID, err)
	}
	return nil
}

// Ping checks that Postgres answers; /readyz uses it.
func (s *Store) Ping(ctx context.Context) error {
	if s.pool == nil {
		return errOnTx
	}
	return s.pool.Ping(ctx)
}
