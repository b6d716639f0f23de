package workflows_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/worker"
	"github.com/supportdraft/supportdraft/workflows"
)

// flow runs the draft workflow with every activity mocked: the workflow's own logic (the
// lock, the idle timer, what each message answers and records), with no store, model or
// server. Each mocked build makes one iteration whose reply names it.
type flow struct {
	t          *testing.T
	env        *testsuite.TestWorkflowEnvironment
	acts       *activities.Activities
	builds     int                       // LoadContext calls
	inFlight   int                       // builds between LoadContext and Save
	maxBuild   int                       // the most builds ever in flight at once
	statuses   []string                  // MarkStatus calls, in order
	failing    int                       // Retrieve fails this many more times
	generate   error                     // Generate fails with it while set
	failures   []activities.FailureInput // RecordBuildFailure calls, in order
	markedAt   time.Time                 // workflow time of the last MarkStatus
	confidence float64                   // what Score answers
	reviews    []review.Entry
	sent       []review.SentReply
	handOffs   []activities.HandOffInput // HandOff attempts, in order
	handOff    func(attempt int) (*activities.HandOffResult, error)
	notified   []activities.NotifyInput // NotifyReviewers calls, in order

	savedBefore int                    // iterations saved by earlier runs: Save numbers after them
	buildKeys   []string               // Save calls' build keys, in order
	areas       []string               // Save calls' areas, in order
	edits       []activities.EditInput // SaveEdit calls, in order
}

// states are the queue entry's states as written, in order.
func (f *flow) states() []string {
	var out []string
	for _, e := range f.reviews {
		out = append(out, e.State)
	}
	return out
}

// lastReview is the queue entry as last written, and when.
func (f *flow) lastReview() review.Entry {
	require.NotEmpty(f.t, f.reviews, "no review entry written")
	return f.reviews[len(f.reviews)-1]
}

func newFlow(t *testing.T, localModels bool) *flow {
	t.Parallel()
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(testenv.QuietLogger())
	f := &flow{t: t, env: suite.NewTestWorkflowEnvironment(), acts: &activities.Activities{}, confidence: 0.9}
	f.env.RegisterWorkflowWithOptions(worker.DraftWorkflow(localModels))
	f.env.RegisterActivity(f.acts)
	evidence := []policy.Evidence{{ChunkID: "billing/refunds@1#window", DocID: "billing/refunds", Version: 1, Area: "refunds", Text: "Refunds within 14 days."}}
	f.env.OnActivity(f.acts.LoadContext, mock.Anything, mock.Anything, mock.Anything).Return(
		func(_ context.Context, ref activities.TicketRef, _ bool) (*activities.TicketFacts, error) {
			f.builds++
			f.inFlight++
			f.maxBuild = max(f.maxBuild, f.inFlight)
			return &activities.TicketFacts{At: time.Unix(0, 0).UTC(), Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}}, nil
		})
	f.env.OnActivity(f.acts.Retrieve, mock.Anything, mock.Anything).Return(func(context.Context, activities.RetrieveInput) ([]policy.Evidence, error) {
		if f.failing > 0 {
			f.failing--
			f.inFlight--
			return nil, temporal.NewNonRetryableApplicationError("store down", "Down", nil)
		}
		return evidence, nil
	})
	f.env.OnActivity(f.acts.Generate, mock.Anything, mock.Anything).After(time.Minute).Return(func(context.Context, activities.GenerateInput) (*llm.Answer, error) {
		if f.generate != nil {
			f.inFlight--
			return nil, f.generate
		}
		return &llm.Answer{Reply: "Refunds within 14 days."}, nil
	})
	f.env.OnActivity(f.acts.RecordBuildFailure, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.FailureInput) error {
		f.failures = append(f.failures, in)
		return nil
	}).Maybe()
	f.env.OnActivity(f.acts.VerifySpans, mock.Anything, mock.Anything).Return([]drafts.ClaimCheck{}, nil)
	f.env.OnActivity(f.acts.Halted, mock.Anything).Return(false, nil).Maybe()
	f.env.OnActivity(f.acts.JudgeClaims, mock.Anything, mock.Anything).Return([]drafts.ClaimCheck{}, nil)
	f.env.OnActivity(f.acts.Guard, mock.Anything, mock.Anything).Return(&guard.Result{Reply: "Refunds within 14 days."}, nil)
	f.env.OnActivity(f.acts.Compose, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.ComposeInput) (*drafts.Composition, error) {
		return &drafts.Composition{Reply: in.Guarded.Reply, Status: drafts.StatusReady, Bound: []drafts.BoundVersion{{DocID: "billing/refunds", Version: 1}}}, nil
	})
	f.env.OnActivity(f.acts.Score, mock.Anything, mock.Anything).Return(func(context.Context, activities.ScoreInput) (*activities.Score, error) {
		return &activities.Score{Confidence: f.confidence}, nil
	})
	// As the store numbers them: each build key here is new, so each save gets the next number.
	f.env.OnActivity(f.acts.Save, mock.Anything, mock.Anything, mock.Anything, mock.Anything).Return(
		func(_ context.Context, _ drafts.Saved, area, key string) (int, error) {
			f.inFlight--
			f.buildKeys = append(f.buildKeys, key)
			f.areas = append(f.areas, area)
			return f.savedBefore + len(f.buildKeys), nil
		})
	f.env.OnActivity(f.acts.MarkStatus, mock.Anything, mock.Anything).After(time.Second).Return(func(_ context.Context, in activities.StatusInput) error {
		f.statuses = append(f.statuses, in.Status)
		f.markedAt = f.env.Now()
		return nil
	})
	f.env.OnActivity(f.acts.SaveEdit, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.EditInput) (*activities.EditChecks, error) {
		f.edits = append(f.edits, in)
		return &activities.EditChecks{TextID: in.Ref.ID, Sentences: 2, Flagged: 1}, nil
	})
	f.env.OnActivity(f.acts.SaveReview, mock.Anything, mock.Anything).Return(func(_ context.Context, e review.Entry) error {
		f.reviews = append(f.reviews, e)
		return nil
	})
	f.env.OnActivity(f.acts.RecordSent, mock.Anything, mock.Anything).Return(func(_ context.Context, r review.SentReply) error {
		f.sent = append(f.sent, r)
		return nil
	})
	f.env.OnActivity(f.acts.CheckFresh, mock.Anything, mock.Anything).Return([]drafts.StaleReason(nil), nil)
	f.env.OnActivity(f.acts.HandOff, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.HandOffInput) (*activities.HandOffResult, error) {
		f.handOffs = append(f.handOffs, in)
		if f.handOff != nil {
			return f.handOff(len(f.handOffs))
		}
		return &activities.HandOffResult{Delivered: true}, nil
	}).Maybe()
	f.env.OnActivity(f.acts.NotifyReviewers, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.NotifyInput) (string, error) {
		f.notified = append(f.notified, in)
		return "1733300000.000100", nil
	}).Maybe()
	return f
}

// at sends an update after d of (skipped) workflow time and decodes its answer into out.
func (f *flow) at(d time.Duration, name string, out any, errOut *error, args ...any) {
	f.env.RegisterDelayedCallback(func() {
		f.env.UpdateWorkflow(name, name+d.String(), &testsuite.TestUpdateCallback{
			OnAccept: func() {},
			OnReject: func(err error) { f.store(errOut, err) },
			OnComplete: func(res any, err error) {
				if err != nil {
					f.store(errOut, err)
					return
				}
				if out != nil {
					require.NoError(f.t, jsonRoundTrip(res, out))
				}
			},
		}, args...)
	}, d)
}

func (f *flow) store(dst *error, err error) {
	if dst == nil {
		f.t.Errorf("unexpected error: %v", err)
		return
	}
	*dst = err
}

func (f *flow) run(idle time.Duration) *workflows.DraftResult {
	return f.runInput(&workflows.DraftInput{TicketID: "T-1", Revision: 1, IdleTimeout: idle})
}

func (f *flow) runInput(in *workflows.DraftInput) *workflows.DraftResult {
	f.env.ExecuteWorkflow(workflows.DraftWorkflowType, in)
	require.True(f.t, f.env.IsWorkflowCompleted())
	require.NoError(f.t, f.env.GetWorkflowError())
	var res workflows.DraftResult
	require.NoError(f.t, f.env.GetWorkflowResult(&res))
	return &res
}

func TestFlowOpenAnswersWithTheDraftAndBuildsOncePerRevision(t *testing.T) {
	f := newFlow(t, true)
	var first, again, newer workflows.DraftView
	f.at(time.Second, workflows.UpdateOpen, &first, nil, workflows.OpenRequest{Revision: 1})
	f.at(5*time.Minute, workflows.UpdateOpen, &again, nil, workflows.OpenRequest{Revision: 1})
	f.at(10*time.Minute, workflows.UpdateOpen, &newer, nil, workflows.OpenRequest{Revision: 2})
	f.at(15*time.Minute, workflows.UpdateDiscard, nil, nil)
	res := f.run(time.Hour)

	assert.Equal(t, drafts.StatusReady, first.Status)
	assert.Equal(t, "Refunds within 14 days.", first.Reply, "the view carries the draft itself")
	assert.Equal(t, "draft/T-1", first.WorkflowID)
	assert.Equal(t, first.Iteration, again.Iteration, "the same revision again is answered without a build")
	assert.Equal(t, 2, newer.Iteration)
	assert.Equal(t, 2, newer.Revision)
	assert.Equal(t, 2, f.builds)
	assert.Equal(t, drafts.StatusDiscarded, res.Status)
	assert.Equal(t, []string{drafts.StatusDiscarded}, f.statuses)
}

// A rebuild sent while the first build waits on the model runs after it, never beside it.
func TestFlowBuildsNeverOverlap(t *testing.T) {
	f := newFlow(t, true)
	var opened, rebuilt workflows.DraftView
	f.at(time.Second, workflows.UpdateOpen, &opened, nil, workflows.OpenRequest{Revision: 1})
	f.at(2*time.Second, workflows.UpdateRebuild, &rebuilt, nil)
	f.at(10*time.Minute, workflows.UpdateDiscard, nil, nil)
	f.run(time.Hour)

	assert.Equal(t, 1, f.maxBuild)
	assert.Equal(t, 1, opened.Iteration)
	assert.Equal(t, 2, rebuilt.Iteration)
}

// A run for a ticket drafted by an earlier run numbers its drafts after the old ones: the
// store numbers each build at its save and the draft takes that number. Each build is
// named by the run ID and the run's count of saves, so a replay names it the same way.
func TestFlowNumbersIterationsAtSave(t *testing.T) {
	f := newFlow(t, true)
	f.savedBefore = 3
	var opened, rebuilt, again workflows.DraftView
	f.at(time.Second, workflows.UpdateOpen, &opened, nil, workflows.OpenRequest{Revision: 1})
	f.at(2*time.Minute, workflows.UpdateRebuild, &rebuilt, nil)
	f.at(4*time.Minute, workflows.UpdateRebuild, &again, nil)
	f.at(10*time.Minute, workflows.UpdateDiscard, nil, nil)
	res := f.run(time.Hour)

	assert.Equal(t, []int{4, 5, 6}, []int{opened.Iteration, rebuilt.Iteration, again.Iteration})
	assert.Equal(t, 6, res.Iteration)
	require.Len(t, f.buildKeys, 3)
	runID, _, _ := strings.Cut(f.buildKeys[0], "/")
	require.NotEmpty(t, runID)
	assert.Equal(t, []string{runID + "/1", runID + "/2", runID + "/3"}, f.buildKeys)
}

// A draft is filed under the intake funnel's triage bucket when it has one, else under the
// area its retrieved evidence points at.
func TestFlowFilesTheDraftUnderTheTriageBucket(t *testing.T) {
	for bucket, want := range map[string]string{"cancellation": "cancellation", "": "refunds"} {
		t.Run(want, func(t *testing.T) {
			f := newFlow(t, true)
			f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
			f.at(10*time.Minute, workflows.UpdateDiscard, nil, nil)
			f.runInput(&workflows.DraftInput{TicketID: "T-1", Revision: 1, IdleTimeout: time.Hour, Bucket: bucket})
			assert.Equal(t, []string{want}, f.areas)
		})
	}
}

func TestFlowNewRevisionMakesTheDraftStale(t *testing.T) {
	f := newFlow(t, true)
	var check workflows.SendCheckResult
	f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
	f.env.RegisterDelayedCallback(func() {
		f.env.SignalWorkflow(workflows.SignalRevision, workflows.RevisionSignal{Revision: 2, UpdatedAt: time.Unix(60, 0).UTC()})
	}, 5*time.Minute)
	f.env.RegisterDelayedCallback(func() {
		v, err := f.env.QueryWorkflow(workflows.QueryState)
		require.NoError(t, err)
		var s workflows.DraftState
		require.NoError(t, v.Get(&s))
		assert.Equal(t, drafts.StatusStale, s.Status)
		assert.Equal(t, 2, s.Revision)
	}, 6*time.Minute)
	f.at(7*time.Minute, workflows.UpdateSendCheck, &check, nil, workflows.SendCheckRequest{})
	f.at(8*time.Minute, workflows.UpdateDiscard, nil, nil)
	f.run(time.Hour)

	assert.Equal(t, []string{drafts.StatusStale, drafts.StatusDiscarded}, f.statuses)
	assert.Equal(t, drafts.VerdictOK, check.Verdict, "the mocked check finds nothing new; the revision is in the status")
}

// Messages restart the idle timer; an hour without one closes the draft.
func TestFlowIdleDraftCloses(t *testing.T) {
	f := newFlow(t, true)
	f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
	f.at(50*time.Minute, workflows.UpdateSendCheck, nil, nil, workflows.SendCheckRequest{})
	start := f.env.Now()
	res := f.run(time.Hour)

	assert.Equal(t, drafts.StatusClosed, res.Status)
	assert.Equal(t, []string{drafts.StatusClosed}, f.statuses)
	assert.GreaterOrEqual(t, f.markedAt.Sub(start), 110*time.Minute, "the send-check at 50 min restarted the hour")
}

func TestFlowDiscardRefusesWhatComesAfter(t *testing.T) {
	f := newFlow(t, true)
	var rebuildErr error
	f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
	f.at(2*time.Minute, workflows.UpdateDiscard, nil, nil)
	f.at(2*time.Minute+time.Millisecond, workflows.UpdateRebuild, nil, &rebuildErr) // while discard records its status
	res := f.run(time.Hour)

	assert.Equal(t, drafts.StatusDiscarded, res.Status)
	var appErr *temporal.ApplicationError
	require.ErrorAs(t, rebuildErr, &appErr)
	assert.Equal(t, workflows.ErrRejected, appErr.Type())
}

func TestFlowFailedBuildIsReportedAndTheNextOpenBuildsAgain(t *testing.T) {
	f := newFlow(t, true)
	f.failing = 1
	var openErr error
	var second workflows.DraftView
	f.at(time.Second, workflows.UpdateOpen, nil, &openErr, workflows.OpenRequest{Revision: 1})
	f.at(5*time.Minute, workflows.UpdateOpen, &second, nil, workflows.OpenRequest{Revision: 1})
	f.at(10*time.Minute, workflows.UpdateDiscard, nil, nil)
	f.run(time.Hour)

	var appErr *temporal.ApplicationError
	require.ErrorAs(t, openErr, &appErr)
	assert.Equal(t, workflows.ErrBuildFailed, appErr.Type())
	assert.Equal(t, 1, second.Iteration, "the failed build saved nothing")
	assert.Equal(t, 2, f.builds)
}

// Whether the model steps run as local activities is the worker's to say, not the caller's.
func TestFlowWorkerDecidesWhereModelStepsRun(t *testing.T) {
	for _, local := range []bool{true, false} {
		t.Run(map[bool]string{true: "local models", false: "remote models"}[local], func(t *testing.T) {
			f := newFlow(t, local)
			var asLocal, asRemote []string
			f.env.SetOnLocalActivityStartedListener(func(info *activity.Info, _ context.Context, _ []any) {
				asLocal = append(asLocal, info.ActivityType.Name)
			})
			f.env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
				asRemote = append(asRemote, info.ActivityType.Name)
			})
			f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
			f.at(5*time.Minute, workflows.UpdateDiscard, nil, nil)
			f.run(time.Hour)
			for _, step := range []string{"Generate", "JudgeClaims", "Score"} {
				if local {
					assert.Contains(t, asLocal, step)
				} else {
					assert.Contains(t, asRemote, step)
				}
			}
		})
	}
}

// An edit is refused before there is a draft and when its words come in clear; otherwise
// it is saved on the current iteration, by reference, and answered with the checks'
// counts. An edit sent during a rebuild waits for it and lands on the new iteration.
func TestFlowEditSavesOnTheCurrentIteration(t *testing.T) {
	f := newFlow(t, true)
	ref := func(id int64) workflows.EditRequest {
		return workflows.EditRequest{Ref: &drafts.TextRef{ID: id, SHA256: drafts.TextSHA256(fmt.Sprint("edit ", id))}}
	}
	var early, inClear error
	var first, during activities.EditChecks
	var rebuilt workflows.DraftView
	f.at(0, workflows.UpdateEdit, nil, &early, ref(1))
	f.at(time.Second, workflows.UpdateOpen, nil, nil, workflows.OpenRequest{Revision: 1})
	f.at(2*time.Minute, workflows.UpdateEdit, nil, &inClear, map[string]string{"text": "Refunds within 30 days."})
	f.at(3*time.Minute, workflows.UpdateEdit, &first, nil, ref(7))
	f.at(4*time.Minute, workflows.UpdateRebuild, &rebuilt, nil)
	f.at(4*time.Minute+time.Second, workflows.UpdateEdit, &during, nil, ref(8))
	f.at(10*time.Minute, workflows.UpdateDiscard, nil, nil)
	f.run(time.Hour)

	require.Error(t, early)
	assert.Contains(t, early.Error(), "no draft has been built")
	require.Error(t, inClear)
	assert.Contains(t, inClear.Error(), "ref must name")
	require.Len(t, f.edits, 2, "refused edits never reach the store")
	assert.Equal(t, activities.EditInput{TicketID: "T-1", Iteration: 1, Ref: ref(7).Ref}, f.edits[0])
	assert.Equal(t, activities.EditChecks{TextID: 7, Sentences: 2, Flagged: 1}, first)
	assert.Equal(t, 2, rebuilt.Iteration)
	assert.Equal(t, 2, f.edits[1].Iteration, "the edit waited for the rebuild")
	assert.Equal(t, int64(8), during.TextID)
}
