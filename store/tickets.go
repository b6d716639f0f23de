package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/ticket"
)

// SaveTicket stores one ticket revision (see InsertTicket): a no-op for a repeat of the
// same content, ErrRevisionConflict for the same revision with different content.
func (s *Store) SaveTicket(ctx context.Context, t *ticket.Ticket) error {
	_, err := s.InsertTicket(ctx, t)
	return err
}

const ticketColumns = `ticket_id, revision, updated_at, account_id, plan, region, locale, channel, subject, messages, account_name`

// Ticket loads one revision of a ticket.
func (s *Store) Ticket(ctx context.Context, ticketID string, revision int) (*ticket.Ticket, error) {
	row := s.db.QueryRow(ctx, `SELECT `+ticketColumns+` FROM ticket_revisions WHERE ticket_id = $1 AND revision = $2`, ticketID, revision)
	return scanTicket(row, ticketID)
}

// latestTicketSQL reads the highest revision of a ticket: the state of the ticket now.
const latestTicketSQL = `SELECT ` + ticketColumns + ` FROM ticket_revisions WHERE ticket_id = $1 ORDER BY revision DESC LIMIT 1`

// LatestTicket loads the highest revision of a ticket: the state of the ticket now.
func (s *Store) LatestTicket(ctx context.Context, ticketID string) (*ticket.Ticket, error) {
	return scanTicket(s.db.QueryRow(ctx, latestTicketSQL, ticketID), ticketID)
}

func scanTicket(row pgx.Row, ticketID string) (*ticket.Ticket, error) {
	t := &ticket.Ticket{}
	var msgs []byte
	err := row.Scan(&t.TicketID, &t.Revision, &t.UpdatedAt, &t.Account.ID, &t.Account.Plan, &t.Account.Region,
		&t.Account.Locale, &t.Channel, &t.Subject, &msgs, &t.Account.Name)
	if err := loadError("ticket "+ticketID, err); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(msgs, &t.Messages); err != nil {
		return nil, fmt.Errorf("ticket %s: stored messages: %w", ticketID, err)
	}
	return t, nil
}
