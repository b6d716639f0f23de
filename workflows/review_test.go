package workflows_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/workflows"
)

// The review queue, path by path, with mocked activities and skipped time. Each mocked
// build takes a minute (Generate), so a draft opened at 1 s is queued at about 1 min with a
// 10-minute window.

var alice = workflows.ReviewDecision{By: "alice"}

func TestReviewFinishedDraftIsQueuedAndMarked(t *testing.T) {
	f := newFlow(t, true)
	var opened workflows.DraftView
	f.at(time.Second, workflows.UpdateOpen, &opened, nil, workflows.OpenRequest{Revision: 1})
	f.at(5*time.Minute, workflows.UpdateDiscard, nil, nil)
	f.runInput(&workflows.DraftInput{TicketID: "T-1", Revision: 1, IdleTimeout: time.Hour, Bucket: "refunds", ForcedReview: "support only in cc"})

	require.NotNil(t, opened.Review)
	assert.Equal(t, review.Waiting, opened.Review.State)
	assert.Equal(t, "refunds", opened.Review.Bucket)
	assert.Equal(t, "support only in cc", opened.Review.ForcedReview)
	assert.False(t, opened.Review.LowConfidence, "confidence 0.9")
	assert.Equal(t, 10*time.Minute, opened.Review.ReviewUntil.Sub(opened.Review.QueuedAt))
	assert.Equal(t, review.Closed, f.lastReview().State, "a discarded draft leaves the queue")
}

// With NotifySlack each queued iteration is posted to the reviewers once; without it (runs
// started before it existed too) nothing is.
func TestReviewQueuedDraftIsPostedToSlackWhenAsked(t *testing.T) {
	for _, notify := range []bool{true, false} {
		t.Run(map[bool]string{true: "notify", false: "silent"}[notify], func(t *testing.T) {
			f := newFlow(t, true)
			f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
			f.at(5*time.Minute, workflows.UpdateDiscard, nil, nil)
			f.runInput(&workflows.DraftInput{TicketID: "T-1", Revision: 1, IdleTimeout: time.Hour, Bucket: "refunds",
				ForcedReview: "support only in cc", NotifySlack: notify})
			if !notify {
				assert.Empty(t, f.notified)
				return
			}
			assert.Equal(t, []activities.NotifyInput{{TicketID: "T-1", Iteration: 1, Bucket: "refunds", ForcedReview: "support only in cc"}}, f.notified)
		})
	}
}

// Approved during the window, the draft reaches the help desk when the window ends, not before.
func TestReviewApprovedDraftIsHandedOffWhenTheWindowEnds(t *testing.T) {
	f := newFlow(t, true)
	var approved workflows.DraftView
	var entry review.Entry
	f.at(time.Second, workflows.UpdateOpen, &approved, nil, workflows.OpenRequest{Revision: 1})
	f.at(3*time.Minute, workflows.UpdateApprove, &entry, nil, alice)
	f.at(30*time.Minute, workflows.UpdateDiscard, nil, nil)
	f.run(time.Hour)

	assert.Equal(t, review.Approved, entry.State, "still in its window")
	assert.Equal(t, "alice", entry.DecidedBy)
	var states []string
	for _, e := range f.reviews {
		states = append(states, e.State)
	}
	assert.Equal(t, []string{review.Waiting, review.Approved, review.HandedOff, review.Closed}, states)
	require.Len(t, f.handOffs, 1, "delivered once, when the window ended")
	assert.Equal(t, activities.HandOffInput{TicketID: "T-1", Iteration: 1, ApprovedBy: "alice", ApprovedAt: *entry.DecidedAt}, f.handOffs[0])
}

// The help desk answering 500 is retried by the activity's policy until it takes the draft.
func TestReviewHandOffIsRetriedUntilTheHelpDeskTakesIt(t *testing.T) {
	f := newFlow(t, true)
	f.handOff = func(attempt int) (*activities.HandOffResult, error) {
		if attempt < 3 {
			return nil, errors.New("post draft reply: HTTP 500")
		}
		return &activities.HandOffResult{Delivered: true}, nil
	}
	f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
	f.at(3*time.Minute, workflows.UpdateApprove, nil, nil, alice)
	f.at(30*time.Minute, workflows.UpdateDiscard, nil, nil)
	f.run(time.Hour)
	assert.Len(t, f.handOffs, 3)
	assert.Equal(t, []string{review.Waiting, review.Approved, review.HandedOff, review.Closed}, f.states())
}

// With no help desk configured the approval is recorded, visibly not delivered; a help
// desk that refuses the draft leaves it in the queue as handoff_failed, with the reason.
func TestReviewHandOffRecordedOrFailed(t *testing.T) {
	for _, tc := range []struct {
		name      string
		result    *activities.HandOffResult
		err       error
		wantState string
		wantError string
	}{
		{name: "no help desk", result: &activities.HandOffResult{}, wantState: review.Recorded},
		{name: "refused", err: temporal.NewNonRetryableApplicationError("the help desk refused the draft reply: HTTP 422", "HelpDeskRefused", nil),
			wantState: review.HandOffFailed, wantError: "the help desk refused the draft reply: HTTP 422"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFlow(t, true)
			f.handOff = func(int) (*activities.HandOffResult, error) { return tc.result, tc.err }
			f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
			f.at(3*time.Minute, workflows.UpdateApprove, nil, nil, alice)
			f.at(30*time.Minute, workflows.UpdateDiscard, nil, nil)
			f.run(time.Hour)
			assert.Len(t, f.handOffs, 1, "a refusal is not retried")
			require.Len(t, f.reviews, 4)
			assert.Equal(t, tc.wantState, f.reviews[2].State)
			assert.Equal(t, tc.wantError, f.reviews[2].HandOffError)
		})
	}
}

// A hand-off the kill switch holds past its retries does not end failed: the draft returns
// to the queue, waiting, with the reason; a reviewer's new approval (the switch lifted)
// hands it off.
func TestReviewHandOffHeldByTheKillSwitchReturnsToTheQueue(t *testing.T) {
	f := newFlow(t, true)
	halted := true
	f.handOff = func(int) (*activities.HandOffResult, error) {
		if halted {
			return nil, temporal.NewApplicationError("drafting is halted by the kill switch", activities.ErrHalted)
		}
		return &activities.HandOffResult{Delivered: true}, nil
	}
	var again review.Entry
	f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
	f.at(3*time.Minute, workflows.UpdateApprove, nil, nil, alice)
	f.env.RegisterDelayedCallback(func() { halted = false }, 40*time.Minute)
	f.at(45*time.Minute, workflows.UpdateApprove, &again, nil, alice)
	f.at(50*time.Minute, workflows.UpdateDiscard, nil, nil)
	f.runInput(&workflows.DraftInput{TicketID: "T-1", Revision: 1, IdleTimeout: 2 * time.Hour, HandOffAttempts: 3})

	assert.Equal(t, []string{review.Waiting, review.Approved, review.Waiting, review.Approved, review.HandedOff, review.Closed}, f.states())
	held := f.reviews[2]
	assert.Contains(t, held.HandOffError, "kill switch")
	assert.Empty(t, held.DecidedBy, "the approval is void: nothing was delivered")
	assert.Empty(t, again.HandOffError, "a new approval clears the reason")
	assert.Len(t, f.handOffs, 4, "three attempts while halted, one after")
}

// A draft nobody approved stays in the queue past its window; approval then hands it off at once.
func TestReviewWindowExpiryLeavesTheDraftWaitingForApproval(t *testing.T) {
	f := newFlow(t, true)
	var late review.Entry
	var pullErr error
	f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
	f.at(20*time.Minute, workflows.UpdatePull, nil, &pullErr, alice)
	f.at(25*time.Minute, workflows.UpdateApprove, &late, nil, alice)
	f.at(30*time.Minute, workflows.UpdateDiscard, nil, nil)
	f.run(time.Hour)

	var appErr *temporal.ApplicationError
	require.ErrorAs(t, pullErr, &appErr, "no pull after the window")
	assert.Equal(t, workflows.ErrRejected, appErr.Type())
	assert.Equal(t, review.Approved, late.State, "the answer is the approval; the hand-off follows at once")
	require.Len(t, f.handOffs, 1)
	assert.Equal(t, []string{review.Waiting, review.Approved, review.HandedOff, review.Closed}, f.states())
}

func TestReviewPullBackTakesTheDraftOutOfTheQueue(t *testing.T) {
	f := newFlow(t, true)
	var pulled review.Entry
	var approveErr error
	f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
	f.at(3*time.Minute, workflows.UpdatePull, &pulled, nil, alice)
	f.at(4*time.Minute, workflows.UpdateApprove, nil, &approveErr, alice)
	f.at(30*time.Minute, workflows.UpdateDiscard, nil, nil)
	res := f.run(time.Hour)

	assert.Equal(t, review.Pulled, pulled.State)
	require.Error(t, approveErr, "a pulled draft is the agent's: no approval")
	assert.Empty(t, f.handOffs, "the window's end hands nothing off")
	assert.Equal(t, drafts.StatusDiscarded, res.Status)
}

func TestReviewKillEndsTheWorkflow(t *testing.T) {
	f := newFlow(t, true)
	var killed workflows.DraftState
	f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
	f.at(3*time.Minute, workflows.UpdateKill, &killed, nil, alice)
	res := f.run(time.Hour)

	assert.Equal(t, drafts.StatusKilled, res.Status)
	assert.Equal(t, drafts.StatusKilled, killed.Status)
	assert.Equal(t, review.Killed, f.lastReview().State)
	assert.Equal(t, []string{drafts.StatusKilled}, f.statuses)
}

// The sent event ends the run with the hash of what was sent, never the text: the same
// reply but for whitespace is not an edit, another one is, with the verdict of its check.
func TestReviewSentCompletesWithTheHashNotTheText(t *testing.T) {
	for _, tc := range []struct {
		name    string
		sent    workflows.SentRequest
		edited  bool
		verdict string
	}{
		{"the draft as written", workflows.SentRequest{TextSHA256: review.TextHash("Refunds  within 14 days.\n")}, false, drafts.VerdictOK},
		{"an edited reply", workflows.SentRequest{TextSHA256: review.TextHash("Refunds within 30 days."), Blocked: true}, true, drafts.VerdictBlocked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFlow(t, true)
			var got workflows.SentResult
			at := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
			tc.sent.SentAt, tc.sent.Agent = at, "bob"
			f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
			f.at(3*time.Minute, workflows.UpdateSent, &got, nil, tc.sent)
			res := f.run(time.Hour)

			assert.Equal(t, drafts.StatusSent, res.Status)
			assert.Equal(t, tc.edited, got.Edited)
			assert.Equal(t, tc.verdict, got.Verdict)
			require.Len(t, f.sent, 1)
			assert.Equal(t, "bob", f.sent[0].Agent)
			assert.Equal(t, at, f.sent[0].SentAt)
			assert.Equal(t, review.Sent, f.lastReview().State)
		})
	}
}

func TestReviewLowConfidenceDraftIsMarked(t *testing.T) {
	f := newFlow(t, true)
	f.confidence = 0.3 // two unsupported claims cap a draft here
	var opened workflows.DraftView
	f.at(time.Second, workflows.UpdateOpen, &opened, nil, workflows.OpenRequest{Revision: 1})
	f.at(5*time.Minute, workflows.UpdateDiscard, nil, nil)
	f.run(time.Hour)
	require.NotNil(t, opened.Review)
	assert.True(t, opened.Review.LowConfidence)
}

// An agent's own review threshold decides the mark: the same 0.9 draft is ready under the
// default (drafts.ReviewThreshold) and low confidence under an agent's 0.95.
func TestReviewThresholdIsTheAgents(t *testing.T) {
	for _, tc := range []struct {
		threshold float64
		low       bool
	}{{0, false}, {0.95, true}} {
		t.Run(fmt.Sprint(tc.threshold), func(t *testing.T) {
			f := newFlow(t, true)
			f.confidence = 0.9
			var opened workflows.DraftView
			f.at(time.Second, workflows.UpdateOpen, &opened, nil, workflows.OpenRequest{Revision: 1})
			f.at(5*time.Minute, workflows.UpdateDiscard, nil, nil)
			f.runInput(&workflows.DraftInput{TicketID: "T-1", Revision: 1, IdleTimeout: time.Hour, ReviewThreshold: tc.threshold})
			require.NotNil(t, opened.Review)
			assert.Equal(t, tc.low, opened.Review.LowConfidence, "threshold %g", tc.threshold)
		})
	}
}
