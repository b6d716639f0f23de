package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
)

func TestTickets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	at := time.Date(2026, 4, 2, 10, 5, 0, 0, time.UTC)

	t.Run("saving a revision twice is a no-op; other content under its number is refused", func(t *testing.T) {
		t.Parallel()
		s := testdb.Tx(t)
		first := testenv.Ticket("T-1", 1, "pro", "eu", at, "Can I get a refund on my annual plan?")
		require.NoError(t, s.SaveTicket(ctx, first))
		require.NoError(t, s.SaveTicket(ctx, testenv.Ticket("T-1", 1, "pro", "eu", at, "Can I get a refund on my annual plan?")),
			"the webhook delivered again")
		again := testenv.Ticket("T-1", 1, "business", "us", at.Add(time.Hour), "Something else entirely")
		require.ErrorIs(t, s.SaveTicket(ctx, again), store.ErrRevisionConflict)

		var n int
		require.NoError(t, s.DB().QueryRow(ctx, `SELECT count(*) FROM ticket_revisions WHERE ticket_id = 'T-1'`).Scan(&n))
		assert.Equal(t, 1, n)
		got, err := s.Ticket(ctx, "T-1", 1)
		require.NoError(t, err)
		assertSameTicket(t, first, got)
	})

	t.Run("LatestTicket returns the highest revision, whatever the arrival order", func(t *testing.T) {
		t.Parallel()
		s := testdb.Tx(t)
		for _, rev := range []int{2, 10, 1, 3} {
			tk := testenv.Ticket("T-2", rev, "pro", "eu", at.Add(time.Duration(rev)*time.Minute), "revision body")
			tk.Subject = fmt.Sprintf("revision %d", rev)
			require.NoError(t, s.SaveTicket(ctx, tk))
		}
		// Another ticket with a higher revision must not leak in.
		require.NoError(t, s.SaveTicket(ctx, testenv.Ticket("T-3", 99, "free", "us", at, "other ticket")))

		latest, err := s.LatestTicket(ctx, "T-2")
		require.NoError(t, err)
		assert.Equal(t, "T-2", latest.TicketID)
		assert.Equal(t, 10, latest.Revision)
		assert.True(t, latest.UpdatedAt.Equal(at.Add(10*time.Minute)))

		third, err := s.Ticket(ctx, "T-2", 3)
		require.NoError(t, err)
		assert.Equal(t, 3, third.Revision)
		assert.Equal(t, "revision 3", third.Subject)
	})

	t.Run("a round trip keeps every field", func(t *testing.T) {
		t.Parallel()
		s := testdb.Tx(t)
		tk := &ticket.Ticket{TicketID: "T-4", Revision: 2, UpdatedAt: at, Channel: "chat", Subject: "Refund",
			Account: ticket.Account{ID: "A-9", Plan: "business", Region: "uk", Locale: "de"},
			Messages: []ticket.Message{
				{Author: "customer", At: at.Add(-time.Hour), Body: "Ich möchte eine Rückerstattung."},
				{Author: "agent", At: at, Body: "We are looking into it."},
			}}
		require.NoError(t, s.SaveTicket(ctx, tk))
		got, err := s.Ticket(ctx, "T-4", 2)
		require.NoError(t, err)
		assertSameTicket(t, tk, got)

		// No locale from the help desk means the default, en, not an empty string.
		tk.Revision, tk.Account.Locale = 3, ""
		require.NoError(t, s.SaveTicket(ctx, tk))
		got, err = s.LatestTicket(ctx, "T-4")
		require.NoError(t, err)
		assert.Equal(t, "en", got.Account.Locale)
	})

	t.Run("missing tickets and revisions are ErrNotFound", func(t *testing.T) {
		t.Parallel()
		s := testdb.Tx(t)
		require.NoError(t, s.SaveTicket(ctx, testenv.Ticket("T-5", 1, "pro", "eu", at, "hello")))
		for _, c := range []struct {
			name, id string
			load     func() (*ticket.Ticket, error)
		}{
			{"unknown ticket", "T-404", func() (*ticket.Ticket, error) { return s.Ticket(ctx, "T-404", 1) }},
			{"unknown revision", "T-5", func() (*ticket.Ticket, error) { return s.Ticket(ctx, "T-5", 2) }},
			{"latest of unknown ticket", "T-405", func() (*ticket.Ticket, error) { return s.LatestTicket(ctx, "T-405") }},
		} {
			got, err := c.load()
			assert.Nil(t, got, c.name)
			assert.ErrorIs(t, err, store.ErrNotFound, c.name)
			if err != nil {
				assert.Contains(t, err.Error(), c.id, "%s: the error names the ticket", c.name)
			}
		}
	})
}

func assertSameTicket(t *testing.T, want, got *ticket.Ticket) {
	t.Helper()
	require.NotNil(t, got)
	assert.Equal(t, want.TicketID, got.TicketID)
	assert.Equal(t, want.Revision, got.Revision)
	assert.True(t, want.UpdatedAt.Equal(got.UpdatedAt), "updated_at %s, want %s", got.UpdatedAt, want.UpdatedAt)
	assert.Equal(t, want.Account, got.Account)
	assert.Equal(t, want.Channel, got.Channel)
	assert.Equal(t, want.Subject, got.Subject)
	require.Len(t, got.Messages, len(want.Messages))
	for i := range want.Messages {
		assert.Equal(t, want.Messages[i].Author, got.Messages[i].Author)
		assert.Equal(t, want.Messages[i].Body, got.Messages[i].Body)
		assert.True(t, want.Messages[i].At.Equal(got.Messages[i].At))
	}
}
