package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
)

func inboundMessage(id, thread, body string) *inbox.Message {
	return &inbox.Message{MessageID: id, ThreadID: thread, ReceivedAt: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC),
		From: inbox.Address{Email: "ana@customer.example"}, To: []string{"billing@company.example"}, Subject: "Refund", Body: body,
		Account: &ticket.Account{ID: "A-1", Plan: "pro", Region: "eu"}, Expect: &inbox.Expect{Decision: inbox.DecisionDraft}}
}

func TestMessagesKeepTheirFirstCopyWithoutLabels(t *testing.T) {
	t.Parallel()
	s := testdb.Tx(t)
	ctx := context.Background()
	require.NoError(t, s.SaveMessage(ctx, inboundMessage("<1@x>", "th-1", "first copy")))
	require.NoError(t, s.SaveMessage(ctx, inboundMessage("<1@x>", "th-1", "redelivered, changed")))
	m, err := s.Message(ctx, "<1@x>")
	require.NoError(t, err)
	assert.Equal(t, "first copy", m.Body)
	assert.Nil(t, m.Expect, "labels are not stored")
	_, err = s.Message(ctx, "<missing@x>")
	assert.ErrorContains(t, err, "<missing@x>")
}

// Messages of one thread become revisions 1, 2, 3 even when appended at once, and a
// message appended again (a retried activity) returns its revision instead of adding one.
func TestAppendToThreadNumbersRevisionsOnceEach(t *testing.T) {
	t.Parallel()
	s, _ := testdb.New(t)
	ctx := context.Background()
	msgs := []*inbox.Message{inboundMessage("<a@x>", "th-9", "one"), inboundMessage("<b@x>", "th-9", "two"), inboundMessage("<c@x>", "th-9", "three")}
	for _, m := range msgs {
		require.NoError(t, s.SaveMessage(ctx, m))
	}
	var wg sync.WaitGroup
	for _, m := range msgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.AppendToThread(ctx, m)
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	again, err := s.AppendToThread(ctx, msgs[1])
	require.NoError(t, err)
	latest, err := s.LatestTicket(ctx, "th-9")
	require.NoError(t, err)
	assert.Equal(t, 3, latest.Revision, "three messages, three revisions")
	assert.Len(t, latest.Messages, 3, "the latest revision carries the whole thread")
	first, err := s.Ticket(ctx, "th-9", 1)
	require.NoError(t, err)
	assert.Len(t, first.Messages, 1)
	assert.Equal(t, len(again.Messages), again.Revision, "a repeated append answers with the revision the message became")
}

func TestKillSwitchAndFunnelEvents(t *testing.T) {
	t.Parallel()
	s := testdb.Tx(t)
	ctx := context.Background()
	halted, err := s.Halted(ctx)
	require.NoError(t, err)
	assert.False(t, halted, "drafting runs by default")
	require.NoError(t, s.SetHalted(ctx, true, "ana"))
	halted, err = s.Halted(ctx)
	require.NoError(t, err)
	assert.True(t, halted)

	at := time.Now().UTC()
	require.NoError(t, s.RecordFunnel(ctx, []inbox.Event{
		{MessageID: "<1@x>", ThreadID: "th-1", Step: inbox.StepKillSwitch, Outcome: inbox.OutcomeSkip, Reason: "halted", At: at},
	}))
	events, err := s.FunnelEvents(ctx, "<1@x>")
	require.NoError(t, err)
	require.Len(t, events, 1)
	assert.Equal(t, inbox.StepKillSwitch, events[0].Step)
	assert.Error(t, s.RecordFunnel(ctx, []inbox.Event{{MessageID: "<2@x>", Step: "made-up", Outcome: inbox.OutcomeSkip, Reason: "x", At: at}}),
		"the schema refuses a step that does not exist")
}

func TestFunnelStageCounts(t *testing.T) {
	t.Parallel()
	s := testdb.Tx(t)
	ctx := context.Background()
	at := time.Now().UTC()
	ev := func(id, step, outcome string) inbox.Event {
		return inbox.Event{MessageID: id, ThreadID: "th-" + id, Step: step, Outcome: outcome, Reason: "r", At: at}
	}
	require.NoError(t, s.RecordFunnel(ctx, []inbox.Event{
		ev("<1@x>", inbox.StepFilters, inbox.OutcomeSkip),
		ev("<2@x>", inbox.StepFilters, inbox.OutcomePass), ev("<2@x>", inbox.StepFilters, inbox.OutcomeSkip),
		ev("<3@x>", inbox.StepFilters, inbox.OutcomePass),
	}))
	counts, err := s.FunnelStageCounts(ctx, at.Add(-time.Minute))
	require.NoError(t, err)
	assert.Equal(t, []store.StageOutcome{{Stage: "filters", Outcome: "", Count: 3}, {Stage: "filters", Outcome: "pass", Count: 2},
		{Stage: "filters", Outcome: "skip", Count: 2}}, counts, "a stage counts each message once, and once per outcome")
	later, err := s.FunnelStageCounts(ctx, at.Add(time.Minute))
	require.NoError(t, err)
	assert.Empty(t, later, "events before the window are left out")
}

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
