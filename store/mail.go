package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/inbox"
)

// ThreadOf returns the thread of the most recent stored message among ids (the message
// IDs a mail answers), or "" when none is stored.
func (s *Store) ThreadOf(ctx context.Context, ids []string) (string, error) {
	if len(ids) == 0 {
		return "", nil
	}
	var thread string
	err := s.db.QueryRow(ctx, `SELECT thread_id FROM inbox_messages WHERE message_id = ANY($1)
		ORDER BY received_at DESC LIMIT 1`, ids).Scan(&thread)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("find the thread of a reply: %w", err)
	}
	return thread, nil
}

// ThreadFacts is what the store knows of a thread for a raw mail, which carries no help
// desk's view of it: how many other messages of the thread are stored, and whether the
// help desk reported sending a reply on the thread's ticket.
func (s *Store) ThreadFacts(ctx context.Context, threadID, messageID string) (inbox.Thread, error) {
	var t inbox.Thread
	err := s.db.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM inbox_messages WHERE thread_id = $1 AND message_id <> $2),
			EXISTS (SELECT 1 FROM sent_replies WHERE ticket_id = $1)`, threadID, messageID).
		Scan(&t.EarlierMessages, &t.AgentReplied)
	if err != nil {
		return t, fmt.Errorf("thread %s: %w", threadID, err)
	}
	return t, nil
}

// MailboxUID names one message of an IMAP mailbox: a UID means something only within
// the mailbox's UIDVALIDITY.
type MailboxUID struct {
	Mailbox  string
	Validity uint32
	UID      uint32
}

// MailboxProgress returns the UIDs of a mailbox claimed but not yet delivered (in UID
// order), and the highest UID claimed, 0 for none. Both read indexes, not the mailbox's
// whole history.
func (s *Store) MailboxProgress(ctx context.Context, mailbox string, validity uint32) (pending []uint32, last uint32, err error) {
	var max int64
	if err := s.db.QueryRow(ctx, `SELECT coalesce(max(uid), 0) FROM imap_messages WHERE mailbox = $1 AND uid_validity = $2`,
		mailbox, int64(validity)).Scan(&max); err != nil {
		return nil, 0, fmt.Errorf("progress of mailbox %s: %w", mailbox, err)
	}
	rows, err := s.db.Query(ctx, `SELECT uid FROM imap_messages WHERE mailbox = $1 AND uid_validity = $2 AND delivered_at IS NULL
		ORDER BY uid`, mailbox, int64(validity))
	if err != nil {
		return nil, 0, fmt.Errorf("progress of mailbox %s: %w", mailbox, err)
	}
	uids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, 0, fmt.Errorf("progress of mailbox %s: %w", mailbox, err)
	}
	for _, u := range uids {
		pending = append(pending, uint32(u))
	}
	return pending, uint32(max), nil
}

// ClaimUID records that a mailbox message is being taken into the funnel, as messageID or
// refused with a reason. fresh is false when it was claimed before (a restarted poller):
// the first claim stands.
func (s *Store) ClaimUID(ctx context.Context, u MailboxUID, messageID, refused string) (fresh bool, err error) {
	tag, err := s.db.Exec(ctx, `INSERT INTO imap_messages (mailbox, uid_validity, uid, message_id, refused)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, u.Mailbox, int64(u.Validity), int64(u.UID), messageID, refused)
	if err != nil {
		return false, fmt.Errorf("claim UID %d of mailbox %s: %w", u.UID, u.Mailbox, err)
	}
	return tag.RowsAffected() == 1, nil
}

// DeliveredUID marks a claimed mailbox message as through the funnel.
func (s *Store) DeliveredUID(ctx context.Context, u MailboxUID) error {
	if _, err := s.db.Exec(ctx, `UPDATE imap_messages SET delivered_at = now()
		WHERE mailbox = $1 AND uid_validity = $2 AND uid = $3`, u.Mailbox, int64(u.Validity), int64(u.UID)); err != nil {
		return fmt.Errorf("mark UID %d of mailbox %s delivered: %w", u.UID, u.Mailbox, err)
	}
	return nil
}
