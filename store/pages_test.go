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

// The review dashboard's queue filters by bucket, by the draft's area and by who the
// review is assigned to (a reviewer, or nobody); an assignment is shown on the row, noted
// with who made it, moves or is taken off, is refused for a ticket not waiting, and never
// becomes the reason shown for a decision.
func TestReviewQueueFiltersAndAssignments(t *testing.T) {
	s := testdb.Tx(t)
	ctx := context.Background()
	now := time.Now().UTC()
	for i, q := range []struct{ id, bucket, area, state string }{
		{"F-REFUND", "refunds", "refunds", review.Waiting},
		{"F-INVOICE", "invoices", "invoicing", review.Waiting},
		{"F-REFUND2", "refunds", "invoicing", review.Waiting},
		{"F-KILLED", "refunds", "refunds", review.Killed},
	} {
		require.NoError(t, s.SaveIteration(ctx, readyDraft(q.id, "Hello.", now), q.area))
		at := now.Add(time.Duration(i) * time.Minute)
		require.NoError(t, s.SaveReview(ctx, &review.Entry{TicketID: q.id, Iteration: 1, State: q.state, Bucket: q.bucket,
			QueuedAt: at, ReviewUntil: at.Add(time.Hour)}))
	}
	page := func(f store.ReviewFilter) []string {
		t.Helper()
		rows, total, err := s.ReviewPage(ctx, 10, "", f)
		require.NoError(t, err)
		ids := []string{}
		for _, r := range rows {
			ids = append(ids, r.TicketID)
		}
		assert.Equal(t, len(ids), total)
		return ids
	}
	assert.Equal(t, []string{"F-REFUND", "F-INVOICE", "F-REFUND2"}, page(store.ReviewFilter{}), "waiting ones, oldest first")
	assert.Equal(t, []string{"F-REFUND", "F-REFUND2"}, page(store.ReviewFilter{Bucket: "refunds"}))
	assert.Equal(t, []string{"F-INVOICE", "F-REFUND2"}, page(store.ReviewFilter{Area: "invoicing"}))
	assert.Equal(t, []string{"F-REFUND2"}, page(store.ReviewFilter{Bucket: "refunds", Area: "invoicing"}))

	require.NoError(t, s.AssignReview(ctx, "F-REFUND2", "Ana", "Ben"))
	require.NoError(t, s.AssignReview(ctx, "F-INVOICE", "Ben", "Ben"))
	assert.Equal(t, []string{"F-REFUND2"}, page(store.ReviewFilter{Assignee: "Ana"}))
	assert.Equal(t, []string{"F-REFUND"}, page(store.ReviewFilter{Unassigned: true}))
	rows, _, err := s.ReviewPage(ctx, 10, "F-REFUND2", store.ReviewFilter{})
	require.NoError(t, err)
	assert.Equal(t, "F-REFUND2", rows[0].TicketID, "the opened ticket first")
	assert.Equal(t, "Ana", rows[0].Assignee, "who has it, on the row")
	assert.Equal(t, "invoicing", rows[0].Area)

	require.NoError(t, s.AssignReview(ctx, "F-REFUND2", "Ben", "Ana"))
	require.NoError(t, s.AssignReview(ctx, "F-INVOICE", "", "Ben"))
	assert.Empty(t, page(store.ReviewFilter{Assignee: "Ana"}), "moved to Ben")
	assert.Equal(t, []string{"F-REFUND2"}, page(store.ReviewFilter{Assignee: "Ben"}))
	assert.Equal(t, []string{"F-REFUND", "F-INVOICE"}, page(store.ReviewFilter{Unassigned: true}), "taken off everyone")
	assert.ErrorIs(t, s.AssignReview(ctx, "F-KILLED", "Ana", "Ben"), store.ErrNotFound, "a decided review is not assigned")
	assert.ErrorIs(t, s.AssignReview(ctx, "F-NONE", "Ana", "Ben"), store.ErrNotFound)

	facets, err := s.ReviewFacets(ctx)
	require.NoError(t, err)
	assert.Equal(t, store.QueueFacets{Buckets: []string{"invoices", "refunds"}, Areas: []string{"invoicing", "refunds"}, Assignees: []string{"Ben"}}, facets)

	notes, err := s.ReviewNotes(ctx, "F-REFUND2")
	require.NoError(t, err)
	require.Len(t, notes, 2)
	assert.Equal(t, []string{"assign Ben→Ana", "assign Ana→Ben"}, []string{
		notes[0].Action + " " + notes[0].By + "→" + notes[0].Assignee, notes[1].Action + " " + notes[1].By + "→" + notes[1].Assignee})
	require.NoError(t, s.AddReviewNote(ctx, "F-INVOICE", 1, store.ReviewNote{Action: "pull", By: "Ben", Reason: "say when the refund arrives"}))
	require.NoError(t, s.AssignReview(ctx, "F-INVOICE", "Ana", "Ben"))
	rv, err := s.ReviewOf(ctx, "F-INVOICE")
	require.NoError(t, err)
	assert.Equal(t, "say when the refund arrives", rv.Reason, "an assignment is no decision's reason")
}

// The admin page's citations count a version's citing drafts by their latest state and
// list only the open ones (ready or out of date), newest first: a killed or sent draft is
// counted, never offered as one to act on.
func TestCitationsByState(t *testing.T) {
	s, _ := testdb.New(t)
	ctx := context.Background()
	mustImport(t, s, file{doc: "cite/doc", version: 1, from: "2026-01-01T00:00:00Z", approved: "2026-01-01T00:00:00Z"})
	now := time.Now().UTC()
	for i, d := range []struct{ id, status string }{
		{"C-READY", drafts.StatusReady}, {"C-KILLED", drafts.StatusKilled}, {"C-SENT", drafts.StatusSent},
		{"C-SENT2", drafts.StatusSent}, {"C-STALE", drafts.StatusStale},
	} {
		r := readyDraft(d.id, "Hello.", now)
		r.Status, r.CreatedAt, r.Bound = d.status, now.Add(time.Duration(i)*time.Second), []drafts.BoundVersion{{DocID: "cite/doc", Version: 1}}
		require.NoError(t, s.SaveIteration(ctx, r, "refunds"))
	}
	all, err := s.Citations(ctx)
	require.NoError(t, err)
	var got *store.VersionCitations
	for i := range all {
		if all[i].DocID == "cite/doc" {
			got = &all[i]
		}
	}
	require.NotNil(t, got)
	assert.Equal(t, 5, got.Drafts)
	assert.Equal(t, 2, got.Open)
	assert.Equal(t, []store.LabelCount{{Label: "sent", Count: 2}, {Label: "killed", Count: 1}, {Label: "ready", Count: 1}, {Label: "stale", Count: 1}}, got.ByState)
	var open []string
	for _, e := range got.Examples {
		open = append(open, e.TicketID)
	}
	assert.ElementsMatch(t, []string{"C-READY", "C-STALE"}, open, "only the open ones are listed")
}

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
