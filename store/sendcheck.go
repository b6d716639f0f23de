package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/ticket"
)

// SendCheckStart is what the send hook starts from (StartSendCheck). Each part carries its
// own error, because each failure means something else to the hook: a ticket with no
// draft (ErrNotFound) is refused, a read that failed leaves the send unchecked, and a text
// that could not be kept is only logged.
type SendCheckStart struct {
	Draft     *drafts.Summary // the ticket's newest saved iteration
	DraftErr  error
	Ticket    *ticket.Ticket // its latest revision
	TicketErr error
	// Eligible is every version eligible at the check's instant for the account of Ticket:
	// what the text may rest on, and what the draft's bindings are compared with.
	Eligible    []EligibleVersion
	EligibleErr error
	Text        *drafts.TextRef // the text the hook was given, kept as TextSendCheck
	TextErr     error
	// Review is the ticket's review queue entry: whether the review gate holds the draft.
	// ErrNotFound when the draft was never queued.
	Review    *review.Entry
	ReviewErr error
}

// reviewGateSQL reads what the review gate needs from a ticket's queue entry.
const reviewGateSQL = `SELECT ticket_id, iteration, state, confidence, low_confidence, forced_review, decided_by, override_reason
	FROM review_queue WHERE ticket_id = $1`

// errNotRun marks a part of a batch whose statement never answered.
var errNotRun = errors.New("not run")

// eligibleForTicketSQL is eligibleVersionsSQL for the account of ticket $2's latest revision.
var eligibleForTicketSQL = fmt.Sprintf(eligibleVersionsSQL,
	`(SELECT plan, region FROM ticket_revisions WHERE ticket_id = $2 ORDER BY revision DESC LIMIT 1)`)

// StartSendCheck reads a ticket's newest draft, its latest revision, the versions
// eligible at `at` for its account and its review queue entry, and keeps the text its send hook was given, in one
// pipelined batch: one round trip where they took four, on the path an agent waits on
// before a reply goes out. A batch runs as one implicit transaction (one snapshot for the
// reads); the insert goes last, so a failed insert cannot take the reads with it.
func (s *Store) StartSendCheck(ctx context.Context, ticketID, text string, at time.Time) SendCheckStart {
	st := SendCheckStart{DraftErr: errNotRun, TicketErr: errNotRun, EligibleErr: errNotRun, TextErr: errNotRun, ReviewErr: errNotRun}
	b := &pgx.Batch{}
	b.Queue(latestSummarySQL, ticketID).QueryRow(func(row pgx.Row) error {
		st.Draft, st.DraftErr = scanSummary(row, ticketID)
		return nil
	})
	b.Queue(latestTicketSQL, ticketID).QueryRow(func(row pgx.Row) error {
		st.Ticket, st.TicketErr = scanTicket(row, ticketID)
		return nil
	})
	b.Queue(eligibleForTicketSQL, at, ticketID).Query(func(rows pgx.Rows) error {
		st.Eligible, st.EligibleErr = pgx.CollectRows(rows, pgx.RowToStructByPos[EligibleVersion])
		return nil
	})
	b.Queue(reviewGateSQL, ticketID).QueryRow(func(row pgx.Row) error {
		var e review.Entry
		st.ReviewErr = row.Scan(&e.TicketID, &e.Iteration, &e.State, &e.Confidence, &e.LowConfidence, &e.ForcedReview, &e.DecidedBy, &e.OverrideReason)
		switch {
		case errors.Is(st.ReviewErr, pgx.ErrNoRows):
			st.ReviewErr = fmt.Errorf("review entry of ticket %s: %w", ticketID, ErrNotFound)
		case st.ReviewErr != nil:
			st.ReviewErr = fmt.Errorf("read the review entry of ticket %s: %w", ticketID, st.ReviewErr)
		default:
			st.Review = &e
		}
		return nil
	})
	ref := drafts.TextRef{SHA256: drafts.TextSHA256(text)}
	b.Queue(insertAgentTextSQL, ticketID, TextSendCheck, text, ref.SHA256).QueryRow(func(row pgx.Row) error {
		st.TextErr = row.Scan(&ref.ID)
		if st.TextErr == nil {
			st.Text = &ref
		} else {
			st.TextErr = fmt.Errorf("keep %s text of ticket %s: %w", TextSendCheck, ticketID, st.TextErr)
		}
		return nil
	})
	// A batch that failed as a whole (no connection, a cancelled context) runs no callback
	// after the failure: those parts take its error.
	batchErr := cmp.Or(s.db.SendBatch(ctx, b).Close(), errNotRun)
	for _, err := range []*error{&st.DraftErr, &st.TicketErr, &st.EligibleErr, &st.TextErr, &st.ReviewErr} {
		if *err == errNotRun {
			*err = fmt.Errorf("send-check of ticket %s: %w", ticketID, batchErr)
		}
	}
	return st
}
