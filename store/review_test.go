package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/review"
)

// The queue lists what still needs a person: drafts waiting or approved, and approved ones
// the help desk did not take (with why); delivered and recorded-only hand-offs have left it.
func TestReviewQueueKeepsFailedHandOffsWithTheirReason(t *testing.T) {
	s := testdb.Tx(t)
	ctx := context.Background()
	now := time.Now().UTC()
	for _, tc := range []struct{ ticket, state, handOffError string }{
		{"T-WAIT", review.Waiting, ""},
		{"T-FAIL", review.HandOffFailed, "the help desk refused the draft reply: HTTP 422"},
		{"T-DONE", review.HandedOff, ""},
		{"T-REC", review.Recorded, ""},
	} {
		require.NoError(t, s.SaveIteration(ctx, readyDraft(tc.ticket, "Refunds within 14 days.", now), "refunds"))
		require.NoError(t, s.SaveReview(ctx, &review.Entry{TicketID: tc.ticket, Iteration: 1, State: tc.state, Confidence: 0.9,
			QueuedAt: now, ReviewUntil: now.Add(-time.Minute), HandOffError: tc.handOffError}))
	}
	items, err := s.ReviewQueue(ctx)
	require.NoError(t, err)
	got := map[string]review.Item{}
	for _, it := range items {
		got[it.TicketID] = it
	}
	assert.Len(t, got, 2)
	assert.Contains(t, got, "T-WAIT")
	require.Contains(t, got, "T-FAIL")
	assert.Equal(t, review.HandOffFailed, got["T-FAIL"].State)
	assert.Equal(t, "the help desk refused the draft reply: HTTP 422", got["T-FAIL"].HandOffError)
}
