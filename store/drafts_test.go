package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/policy"
)

// Saving an iteration again (an activity retry, or a build replayed after its worker died
// between Save and the end of its workflow task) rewrites that iteration: one row per
// (ticket, iteration), the last save's content, each struck sentence logged once.
func TestSaveIterationIsIdempotent(t *testing.T) {
	s := testdb.Tx(t)
	ctx := context.Background()
	r := drafts.Saved{TicketID: "T-SAVE", Iteration: 1, Revision: 1, Status: drafts.StatusReady, EligibleAt: time.Now().UTC(),
		Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, Reply: "first",
		Sentences: []guard.SentenceResult{{Text: "We refund within 60 days.", Reason: "no eligible source states 60 days"}},
		CreatedAt: time.Now().UTC()}
	require.NoError(t, s.SaveIteration(ctx, &r, "refunds"))
	r.Reply = "second"
	require.NoError(t, s.SaveIteration(ctx, &r, "refunds"))

	var rows, rejections int
	require.NoError(t, s.DB().QueryRow(ctx, `SELECT (SELECT count(*) FROM drafts WHERE ticket_id = 'T-SAVE'),
		(SELECT count(*) FROM rejections WHERE ticket_id = 'T-SAVE')`).Scan(&rows, &rejections))
	assert.Equal(t, 1, rows)
	assert.Equal(t, 1, rejections)
	latest, err := s.LatestIteration(ctx, "T-SAVE")
	require.NoError(t, err)
	assert.Equal(t, "second", latest.Reply)
}

// The send hook reads the newest iteration's summary: its bindings and how many
// sentences were struck. A draft saved with no sentences at all (JSON null) reads as
// none struck, not as an error that would turn every check on it into "unchecked".
func TestLatestSummaryCountsStruckSentences(t *testing.T) {
	s := testdb.Tx(t)
	ctx := context.Background()
	r := drafts.Saved{TicketID: "T-SUM", Iteration: 1, Revision: 1, Status: drafts.StatusReady, EligibleAt: time.Now().UTC(),
		Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, Reply: "Hello.", CreatedAt: time.Now().UTC()}
	require.NoError(t, s.SaveIteration(ctx, &r, "refunds"))
	sum, err := s.LatestSummary(ctx, "T-SUM")
	require.NoError(t, err)
	assert.Equal(t, 0, sum.Struck)

	r.Iteration = 2
	r.Sentences = []guard.SentenceResult{{Text: "Hello.", Kept: true}, {Text: "We refund within 60 days.", Reason: "no eligible source states 60 days"}}
	require.NoError(t, s.SaveIteration(ctx, &r, "refunds"))
	sum, err = s.LatestSummary(ctx, "T-SUM")
	require.NoError(t, err)
	assert.Equal(t, 2, sum.Iteration)
	assert.Equal(t, 1, sum.Struck)
}
