package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/store"
)

// The send hook's one round trip reads the newest draft and the latest revision of its
// ticket and keeps the text under its hash. A ticket the database does not know reads as
// not found twice, its text still kept (the hook drops it when it refuses).
func TestStartSendCheckReadsDraftAndTicketAndKeepsTheText(t *testing.T) {
	s := testdb.Tx(t)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	saveProThenBusiness(t, s, "T-START", now)
	for it := 1; it <= 2; it++ {
		d := readyDraft("T-START", "Hello.", now)
		d.Iteration = it
		require.NoError(t, s.SaveIteration(ctx, d, "refunds"))
	}

	st := s.StartSendCheck(ctx, "T-START", "Hi, your refund is on its way.", time.Now())
	require.NoError(t, st.DraftErr)
	require.NoError(t, st.TicketErr)
	require.NoError(t, st.TextErr)
	assert.Equal(t, 2, st.Draft.Iteration)
	assert.Equal(t, 1, st.Draft.Revision)
	assert.Equal(t, 2, st.Ticket.Revision)
	assert.Equal(t, "business", st.Ticket.Account.Plan)
	text, err := s.AgentText(ctx, "T-START", *st.Text)
	require.NoError(t, err)
	assert.Equal(t, "Hi, your refund is on its way.", text)

	st = s.StartSendCheck(ctx, "T-NOBODY", "Hello.", time.Now())
	assert.ErrorIs(t, st.DraftErr, store.ErrNotFound)
	assert.ErrorIs(t, st.TicketErr, store.ErrNotFound)
	require.NoError(t, st.TextErr)
	assert.NotZero(t, st.Text.ID)
}

// A batch that cannot run at all leaves no part looking read: each carries the failure.
func TestStartSendCheckThatCannotRunFailsEveryPart(t *testing.T) {
	s := testdb.Tx(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st := s.StartSendCheck(ctx, "T-START", "Hello.", time.Now())
	for _, err := range []error{st.DraftErr, st.TicketErr, st.EligibleErr, st.TextErr} {
		assert.ErrorIs(t, err, context.Canceled)
	}
	assert.Nil(t, st.Draft)
	assert.Nil(t, st.Ticket)
	assert.Nil(t, st.Text)
}

// The batch reads the versions eligible at the check's instant for the account of the
// ticket's latest revision, not of the revision the draft was built for: a customer who
// moved from Pro to Business is judged by Business's policies, and a version superseded
// before that instant is not among them.
func TestStartSendCheckReadsWhatIsEligibleForTheLatestAccount(t *testing.T) {
	t.Parallel()
	s, _ := testdb.New(t)
	ctx := context.Background()
	mustImport(t, s,
		file{doc: "billing/pro-only", version: 1, from: "2025-01-01T00:00:00Z", plans: "[pro]"},
		file{doc: "billing/business-only", version: 1, from: "2025-01-01T00:00:00Z", plans: "[business]"},
		file{doc: "billing/everyone", version: 1, from: "2025-01-01T00:00:00Z"})
	mustImport(t, s, file{doc: "billing/everyone", version: 2, from: "2026-01-01T00:00:00Z"})
	now := time.Now().UTC().Truncate(time.Second)
	saveProThenBusiness(t, s, "T-ELIGIBLE", now)

	refs := func(versions []store.EligibleVersion) []string {
		var out []string
		for _, v := range versions {
			out = append(out, fmt.Sprintf("%s@%d", v.DocID, v.Version))
		}
		return out
	}

	st := s.StartSendCheck(ctx, "T-ELIGIBLE", "Hello.", now)
	require.NoError(t, st.EligibleErr)
	assert.ElementsMatch(t, []string{"billing/business-only@1", "billing/everyone@2"}, refs(st.Eligible))
	want, err := s.EligibleVersions(ctx, now, "business", "eu")
	require.NoError(t, err)
	assert.Equal(t, want, st.Eligible, "the batch and EligibleVersions disagree")

	// In 2025 the first version of billing/everyone was the one in force.
	st = s.StartSendCheck(ctx, "T-ELIGIBLE", "Hello.", time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC))
	require.NoError(t, st.EligibleErr)
	assert.ElementsMatch(t, []string{"billing/business-only@1", "billing/everyone@1"}, refs(st.Eligible))
}
