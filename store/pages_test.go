package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/store"
)

// A decision's reason is read back with the ticket's queue entry, the newest note of its
// current iteration only; the decided list holds everything a person or the window
// decided, newest first, and nothing still waiting.
func TestReviewNotesAndDecided(t *testing.T) {
	s := testdb.Tx(t)
	ctx := context.Background()
	now := time.Now().UTC()
	for i, e := range []review.Entry{
		{TicketID: "N-WAIT", Iteration: 1, State: review.Waiting},
		{TicketID: "N-KILL", Iteration: 2, State: review.Killed, DecidedBy: "Ana"},
		{TicketID: "N-PULL", Iteration: 1, State: review.Pulled, DecidedBy: "Ben"},
	} {
		at := now.Add(time.Duration(i) * time.Minute)
		e.QueuedAt, e.ReviewUntil = at, at.Add(time.Hour)
		if e.State != review.Waiting {
			e.DecidedAt = &at
		}
		require.NoError(t, s.SaveReview(ctx, &e))
	}
	require.NoError(t, s.AddReviewNote(ctx, "N-KILL", 1, store.ReviewNote{Action: "pull", By: "Ana", Reason: "an older iteration"}))
	require.NoError(t, s.AddReviewNote(ctx, "N-KILL", 2, store.ReviewNote{Action: "kill", By: "Ana", Reason: "refund outside policy"}))

	killed, err := s.ReviewOf(ctx, "N-KILL")
	require.NoError(t, err)
	assert.Equal(t, review.Killed, killed.State)
	assert.Equal(t, "refund outside policy", killed.Reason)
	_, err = s.ReviewOf(ctx, "N-NONE")
	assert.ErrorIs(t, err, store.ErrNotFound)

	decided, err := s.Decided(ctx, 10)
	require.NoError(t, err)
	var tickets []string
	for _, d := range decided {
		tickets = append(tickets, d.TicketID)
	}
	assert.Equal(t, []string{"N-PULL", "N-KILL"}, tickets[:2], "newest decision first")
	assert.NotContains(t, tickets, "N-WAIT")
	assert.Error(t, s.AddReviewNote(ctx, "N-KILL", 2, store.ReviewNote{Action: "send", By: "Ana", Reason: "x"}), "only review decisions")
}

// Overrides are the send-checks an agent answered with a reason, counted and listed
// newest first; the kill switch's state says who changed it.
func TestOverridesAndKillSwitchState(t *testing.T) {
	s := testdb.Tx(t)
	ctx := context.Background()
	since := time.Now().Add(-time.Minute)
	unbacked := []drafts.Unbacked{{Sentence: "Full refund within 60 days.", Reason: "no eligible source states 60 days"}}
	require.NoError(t, s.RecordSendCheck(ctx, "O-1", drafts.SendCheck{Verdict: drafts.VerdictUnsupported, Unsupported: unbacked, Iteration: 1}))
	require.NoError(t, s.RecordSendCheck(ctx, "O-1", drafts.SendCheck{Verdict: drafts.VerdictOK, Unsupported: unbacked, OverrideReason: "lead approved", Iteration: 1}))
	list, total, err := s.Overrides(ctx, since, 10)
	require.NoError(t, err)
	assert.Equal(t, 1, total, "a verdict without a reason is no override")
	require.Len(t, list, 1)
	assert.Equal(t, "lead approved", list[0].Reason)
	assert.Equal(t, 1, list[0].Sentences)

	require.NoError(t, s.SetHalted(ctx, true, "Ana"))
	k, err := s.KillSwitchState(ctx)
	require.NoError(t, err)
	assert.True(t, k.Halted)
	assert.Equal(t, "Ana", k.ChangedBy)
}
