package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/store"
)

// A raw mail's thread: the stored thread of a message it references, the other messages
// of the thread counted, and whether the help desk reported a reply on its ticket.
func TestThreadOfAndThreadFacts(t *testing.T) {
	t.Parallel()
	s := testdb.Tx(t)
	ctx := context.Background()
	require.NoError(t, s.SaveMessage(ctx, inboundMessage("<r1@x>", "mail-th", "first")))
	require.NoError(t, s.SaveMessage(ctx, inboundMessage("<r2@x>", "mail-th", "second")))

	thread, err := s.ThreadOf(ctx, []string{"<agent@company>", "<r2@x>"})
	require.NoError(t, err)
	assert.Equal(t, "mail-th", thread)
	thread, err = s.ThreadOf(ctx, []string{"<unknown@x>"})
	require.NoError(t, err)
	assert.Empty(t, thread)

	facts, err := s.ThreadFacts(ctx, "mail-th", "<r3@x>")
	require.NoError(t, err)
	assert.Equal(t, 2, facts.EarlierMessages)
	assert.False(t, facts.AgentReplied)
	facts, err = s.ThreadFacts(ctx, "mail-th", "<r2@x>")
	require.NoError(t, err)
	assert.Equal(t, 1, facts.EarlierMessages, "the message itself is not earlier")

	require.NoError(t, s.RecordSent(ctx, &review.SentReply{TicketID: "mail-th", Iteration: 1, TextSHA256: "h", Verdict: "ok", SentAt: time.Now()}))
	facts, err = s.ThreadFacts(ctx, "mail-th", "<r3@x>")
	require.NoError(t, err)
	assert.True(t, facts.AgentReplied, "the help desk reported a reply on the thread's ticket")
}

// A UID is claimed once; the pending claims and the highest UID are per UIDVALIDITY.
func TestMailboxClaims(t *testing.T) {
	t.Parallel()
	s := testdb.Tx(t)
	ctx := context.Background()
	u := func(validity, uid uint32) store.MailboxUID {
		return store.MailboxUID{Mailbox: "billing@imap:993/INBOX", Validity: validity, UID: uid}
	}
	for _, uid := range []uint32{1, 2, 5} {
		fresh, err := s.ClaimUID(ctx, u(7, uid), "<m@x>", "")
		require.NoError(t, err)
		require.True(t, fresh)
	}
	fresh, err := s.ClaimUID(ctx, u(7, 2), "<other@x>", "")
	require.NoError(t, err)
	assert.False(t, fresh, "the first claim stands")
	require.NoError(t, s.DeliveredUID(ctx, u(7, 1)))

	pending, last, err := s.MailboxProgress(ctx, "billing@imap:993/INBOX", 7)
	require.NoError(t, err)
	assert.Equal(t, []uint32{2, 5}, pending)
	assert.Equal(t, uint32(5), last)
	pending, last, err = s.MailboxProgress(ctx, "billing@imap:993/INBOX", 8)
	require.NoError(t, err)
	assert.Empty(t, pending)
	assert.Zero(t, last, "a new UIDVALIDITY starts afresh")
}
