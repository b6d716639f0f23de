package workflows_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/workflows"
)

var (
	ia = &activities.Intake{}
	da = &activities.Activities{}
)

// intakeCase is one path through the funnel with every activity mocked: the switch, the
// two screens and triage answer as given; OpenDraft and RecordFunnel are recorded.
type intakeCase struct {
	name       string
	halted     bool
	haltedErr  error
	screenErr  error // the message could not be loaded for the screens
	thread     inbox.Thread
	filters    inbox.StepResult
	recipients inbox.StepResult
	triage     *inbox.Triage
	triageErr  error
	remote     bool // triage by a model: a regular activity

	want       inbox.Decision
	wantDraft  *activities.OpenDraftInput // nil: no draft is opened
	wantSteps  []string                   // step/outcome of every recorded funnel event
	failedOpen bool
}

var (
	pass   = inbox.StepResult{Outcome: inbox.OutcomePass, Reason: "ok"}
	refund = &inbox.Triage{NeedsResponse: true, Bucket: inbox.BucketRefunds, Reason: "refund cue"}
)

func TestIntakePaths(t *testing.T) {
	cases := []intakeCase{
		{name: "a first message is drafted", filters: pass, recipients: pass, triage: refund,
			want:      inbox.Decision{Decision: inbox.DecisionDraft, Stage: inbox.StageNone, Bucket: inbox.BucketRefunds},
			wantDraft: &activities.OpenDraftInput{Bucket: inbox.BucketRefunds},
			wantSteps: []string{"kill_switch/pass", "first_response/pass", "filters/pass", "recipients/pass", "triage/pass", "draft/started"}},
		{name: "kill switch on", halted: true,
			want:      inbox.Decision{Decision: inbox.DecisionSkip, Stage: inbox.StageKillSwitch},
			wantSteps: []string{"kill_switch/skip"}},
		{name: "kill switch unreadable counts as on", haltedErr: errors.New("database down"),
			want:      inbox.Decision{Decision: inbox.DecisionSkip, Stage: inbox.StageKillSwitch},
			wantSteps: []string{"kill_switch/skip"}},
		{name: "screens that cannot run force review", screenErr: temporal.NewNonRetryableApplicationError("message gone", "NotFound", nil), triage: refund,
			want:      inbox.Decision{Decision: inbox.DecisionReview, Stage: inbox.StepFilters, Bucket: inbox.BucketRefunds},
			wantDraft: &activities.OpenDraftInput{Bucket: inbox.BucketRefunds, ForcedReview: "the screens could not run: message gone; recipients not screened"},
			wantSteps: []string{"kill_switch/pass", "first_response/pass", "filters/review", "recipients/review", "triage/pass", "draft/started"}},
		{name: "a reply on a thread an agent answered is skipped", thread: inbox.Thread{AgentReplied: true, EarlierMessages: 2},
			want:      inbox.Decision{Decision: inbox.DecisionSkip, Stage: inbox.StageNotFirst},
			wantSteps: []string{"kill_switch/pass", "first_response/skip"}},
		{name: "a follow-up before any reply joins the draft", thread: inbox.Thread{EarlierMessages: 1}, filters: pass, recipients: pass, triage: refund,
			want:      inbox.Decision{Decision: inbox.DecisionDraft, Stage: inbox.StageNone, Bucket: inbox.BucketRefunds},
			wantDraft: &activities.OpenDraftInput{Bucket: inbox.BucketRefunds},
			wantSteps: []string{"kill_switch/pass", "first_response/pass", "filters/pass", "recipients/pass", "triage/pass", "draft/started"}},
		{name: "automated mail is skipped", filters: inbox.StepResult{Outcome: inbox.OutcomeSkip, Stage: inbox.StageAutomated, Reason: "Auto-Submitted: auto-replied"},
			want:      inbox.Decision{Decision: inbox.DecisionSkip, Stage: inbox.StageAutomated},
			wantSteps: []string{"kill_switch/pass", "first_response/pass", "filters/skip"}},
		{name: "a block rule skips", filters: inbox.StepResult{Outcome: inbox.OutcomeSkip, Stage: inbox.StageRulesBlock, Reason: "block rule 1"},
			want:      inbox.Decision{Decision: inbox.DecisionSkip, Stage: inbox.StageRulesBlock},
			wantSteps: []string{"kill_switch/pass", "first_response/pass", "filters/skip"}},
		{name: "a review rule drafts, forced to review", filters: inbox.StepResult{Outcome: inbox.OutcomeReview, Stage: inbox.StageRules, Reason: "review rule 2: phrase \"lawyer\""},
			recipients: pass, triage: refund,
			want:      inbox.Decision{Decision: inbox.DecisionReview, Stage: inbox.StageRules, Bucket: inbox.BucketRefunds},
			wantDraft: &activities.OpenDraftInput{Bucket: inbox.BucketRefunds, ForcedReview: "review rule 2: phrase \"lawyer\""},
			wantSteps: []string{"kill_switch/pass", "first_response/pass", "filters/review", "recipients/pass", "triage/pass", "draft/started"}},
		{name: "bcc forces review", filters: pass, recipients: inbox.StepResult{Outcome: inbox.OutcomeReview, Stage: inbox.StageRecipients, Reason: "support is blind-copied (bcc)"},
			triage:    refund,
			want:      inbox.Decision{Decision: inbox.DecisionReview, Stage: inbox.StageRecipients, Bucket: inbox.BucketRefunds},
			wantDraft: &activities.OpenDraftInput{Bucket: inbox.BucketRefunds, ForcedReview: "support is blind-copied (bcc)"},
			wantSteps: []string{"kill_switch/pass", "first_response/pass", "filters/pass", "recipients/review", "triage/pass", "draft/started"}},
		{name: "triage error fails open", filters: pass, recipients: pass, triageErr: errors.New("model timed out"),
			want:       inbox.Decision{Decision: inbox.DecisionDraft, Stage: inbox.StageNone},
			wantDraft:  &activities.OpenDraftInput{},
			wantSteps:  []string{"kill_switch/pass", "first_response/pass", "filters/pass", "recipients/pass", "triage/failed_open", "draft/started"},
			failedOpen: true},
		{name: "remote triage error fails open", filters: pass, recipients: pass, triageErr: errors.New("HTTP 500"), remote: true,
			want:       inbox.Decision{Decision: inbox.DecisionDraft, Stage: inbox.StageNone},
			wantDraft:  &activities.OpenDraftInput{},
			wantSteps:  []string{"kill_switch/pass", "first_response/pass", "filters/pass", "recipients/pass", "triage/failed_open", "draft/started"},
			failedOpen: true},
		{name: "not billing is routed to people", filters: pass, recipients: pass,
			triage:    &inbox.Triage{NeedsResponse: true, Bucket: inbox.BucketNotBilling, Reason: "a login question"},
			want:      inbox.Decision{Decision: inbox.DecisionSkip, Stage: inbox.StageNotBilling, Bucket: inbox.BucketNotBilling},
			wantSteps: []string{"kill_switch/pass", "first_response/pass", "filters/pass", "recipients/pass", "triage/skip"}},
		{name: "not billing by its words but answered by policy is drafted for review", filters: pass, recipients: pass,
			triage:    &inbox.Triage{NeedsResponse: true, Bucket: inbox.BucketCancellation, Unsure: true, Reason: "no billing cue; but eligible policy holds most of it"},
			want:      inbox.Decision{Decision: inbox.DecisionReview, Stage: inbox.StageUnsure, Bucket: inbox.BucketCancellation},
			wantDraft: &activities.OpenDraftInput{Bucket: inbox.BucketCancellation, ForcedReview: "no billing cue; but eligible policy holds most of it"},
			wantSteps: []string{"kill_switch/pass", "first_response/pass", "filters/pass", "recipients/pass", "triage/review", "draft/started"}},
		{name: "nothing to answer", filters: pass, recipients: pass, triage: &inbox.Triage{Reason: "a thank-you"},
			want:      inbox.Decision{Decision: inbox.DecisionSkip, Stage: inbox.StageNoResponse},
			wantSteps: []string{"kill_switch/pass", "first_response/pass", "filters/pass", "recipients/pass", "triage/skip"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runIntakeCase(t, tc)
		})
	}
}

// intakeEnv is a test workflow environment running the intake workflow over the funnel's
// and the draft's activities, each mocked by the test that uses it.
func intakeEnv() *testsuite.TestWorkflowEnvironment {
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(testenv.QuietLogger())
	env := suite.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(workflows.Intake)
	env.RegisterActivity(ia)
	env.RegisterActivity(da)
	return env
}

func runIntakeCase(t *testing.T, tc intakeCase) {
	env := intakeEnv()
	ref := activities.MessageRef{MessageID: "<m1@customer.example>"}
	var screening *activities.Screening
	var screenErr error
	switch {
	case tc.haltedErr != nil:
		screenErr = temporal.NewApplicationError(tc.haltedErr.Error(), activities.ErrSwitchUnread)
	case tc.screenErr != nil:
		screenErr = tc.screenErr
	case tc.halted:
		screening = &activities.Screening{Halted: true}
	default:
		screening = &activities.Screening{Filters: tc.filters, Recipients: tc.recipients}
	}
	env.OnActivity(ia.Screen, mock.Anything, ref).Return(screening, screenErr)
	env.OnActivity(ia.Triage, mock.Anything, ref).Return(tc.triage, tc.triageErr).Maybe()
	var opened *activities.OpenDraftInput
	env.OnActivity(ia.OpenDraft, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.OpenDraftInput) (*activities.DraftOpened, error) {
			opened = &in
			return &activities.DraftOpened{TicketID: "th-1", Revision: 1 + tc.thread.EarlierMessages}, nil
		}).Maybe()
	var recorded []inbox.Event
	env.OnActivity(ia.RecordFunnel, mock.Anything, mock.Anything).Return(func(_ context.Context, events []inbox.Event) error {
		recorded = events
		return nil
	})

	env.ExecuteWorkflow(workflows.Intake, &workflows.IntakeInput{MessageID: ref.MessageID, ThreadID: "th-1", Thread: tc.thread, Draft: true, RemoteTriage: tc.remote})
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var res workflows.IntakeResult
	require.NoError(t, env.GetWorkflowResult(&res))

	assert.Equal(t, tc.want.Decision, res.Decision.Decision)
	assert.Equal(t, tc.want.Stage, res.Stage)
	assert.Equal(t, tc.want.Bucket, res.Bucket)
	assert.NotEmpty(t, res.Reason, "every decision says why")
	assert.Equal(t, tc.failedOpen, res.TriageFailedOpen)
	if tc.wantDraft == nil {
		assert.Nil(t, opened, "no draft for a skipped message")
	} else {
		require.NotNil(t, opened, "a survivor's draft is opened")
		assert.Equal(t, ref.MessageID, opened.MessageID)
		assert.Equal(t, tc.wantDraft.Bucket, opened.Bucket)
		assert.Equal(t, tc.wantDraft.ForcedReview, opened.ForcedReview)
		assert.Equal(t, "th-1", res.TicketID)
	}
	var steps []string
	for _, e := range recorded {
		steps = append(steps, e.Step+"/"+e.Outcome)
		assert.Equal(t, ref.MessageID, e.MessageID)
		assert.NotEmpty(t, e.Reason)
	}
	assert.Equal(t, tc.wantSteps, steps, "funnel events recorded")
}

func TestIntakeWithoutDraftingOnlyDecides(t *testing.T) {
	t.Parallel()
	env := intakeEnv()
	env.OnActivity(ia.Screen, mock.Anything, mock.Anything).Return(&activities.Screening{Filters: pass, Recipients: pass}, nil)
	env.OnActivity(ia.Triage, mock.Anything, mock.Anything).Return(refund, nil)
	env.OnActivity(ia.RecordFunnel, mock.Anything, mock.Anything).Return(nil)
	env.ExecuteWorkflow(workflows.Intake, &workflows.IntakeInput{MessageID: "<m2@x>", ThreadID: "th-2"})
	require.NoError(t, env.GetWorkflowError())
	env.AssertNotCalled(t, "OpenDraft", mock.Anything, mock.Anything)
	var res workflows.IntakeResult
	require.NoError(t, env.GetWorkflowResult(&res))
	assert.Equal(t, inbox.DecisionDraft, res.Decision.Decision)
}
