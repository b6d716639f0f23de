package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
)

// Kinds of agent text.
const (
	TextEdit      = "edit"
	TextSendCheck = "send_check"
)

// ErrTextMismatch is a text whose stored words no longer hash to the reference a workflow
// carries: changed in the database, or purged by retention.
var ErrTextMismatch = errors.New("stored text does not match its SHA-256")

// SaveAgentText keeps an agent's text (kind TextEdit or TextSendCheck) and answers the
// reference that updates and activities carry instead of it.
func (s *Store) SaveAgentText(ctx context.Context, ticketID, kind, text string) (drafts.TextRef, error) {
	ref := drafts.TextRef{SHA256: drafts.TextSHA256(text)}
	if err := s.db.QueryRow(ctx, insertAgentTextSQL, ticketID, kind, text, ref.SHA256).Scan(&ref.ID); err != nil {
		return ref, fmt.Errorf("keep %s text of ticket %s: %w", kind, ticketID, err)
	}
	return ref, nil
}

// insertAgentTextSQL keeps one text: ticket, kind, text, its SHA-256; it returns the ID.
const insertAgentTextSQL = `INSERT INTO agent_texts (ticket_id, kind, text, sha256) VALUES ($1,$2,$3,$4) RETURNING id`

// AgentText reads the text ref names, for ticketID, and verifies its hash: ErrNotFound if
// the ticket has no such text, ErrTextMismatch if the words are not the ones referenced.
func (s *Store) AgentText(ctx context.Context, ticketID string, ref drafts.TextRef) (string, error) {
	var text *string
	err := s.db.QueryRow(ctx, `SELECT text FROM agent_texts WHERE id = $1 AND ticket_id = $2`, ref.ID, ticketID).Scan(&text)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("text %d of ticket %s: %w", ref.ID, ticketID, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("read text %d of ticket %s: %w", ref.ID, ticketID, err)
	}
	if text == nil || drafts.TextSHA256(*text) != ref.SHA256 {
		return "", fmt.Errorf("text %d of ticket %s: %w", ref.ID, ticketID, ErrTextMismatch)
	}
	return *text, nil
}

// SetTextChecks keeps the guard's verdict on an edit with its text: it quotes the
// agent's sentences, so it stays out of the workflow's history too.
func (s *Store) SetTextChecks(ctx context.Context, id int64, res *guard.Result) error {
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("checks of text %d: %w", id, err)
	}
	if _, err := s.db.Exec(ctx, `UPDATE agent_texts SET checks = $2 WHERE id = $1`, id, b); err != nil {
		return fmt.Errorf("keep checks of text %d: %w", id, err)
	}
	return nil
}

// TextChecks reads the guard's verdict kept by SetTextChecks; ErrNotFound if there is none.
func (s *Store) TextChecks(ctx context.Context, ticketID string, id int64) (*guard.Result, error) {
	var raw []byte
	err := s.db.QueryRow(ctx, `SELECT checks FROM agent_texts WHERE id = $1 AND ticket_id = $2`, id, ticketID).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && raw == nil) {
		return nil, fmt.Errorf("checks of text %d of ticket %s: %w", id, ticketID, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read checks of text %d of ticket %s: %w", id, ticketID, err)
	}
	var res guard.Result
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("checks of text %d of ticket %s: stored JSON: %w", id, ticketID, err)
	}
	return &res, nil
}

// DeleteAgentText removes a text whose update never reached a draft (no such draft, or the
// workflow refused it), so a refused request leaves no row behind.
func (s *Store) DeleteAgentText(ctx context.Context, id int64) error {
	if _, err := s.db.Exec(ctx, `DELETE FROM agent_texts WHERE id = $1`, id); err != nil {
		return fmt.Errorf("delete text %d: %w", id, err)
	}
	return nil
}
