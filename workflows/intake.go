package workflows

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/inbox"
)

// ia lets the intake workflow name the funnel's activity methods.
var ia *activities.Intake

// Intake runs the funnel for one inbound message. Each layer is cheaper than the next and
// each is a step recorded in the history with its outcome and reason: kill switch, first
// responses only, rules and automated mail, recipients, triage. The first layer that skips
// decides; rules and recipients may instead force review. Survivors become a ticket
// revision and start or join the ticket's draft workflow. The steps' decisions are written
// to funnel_events at the end, in one statement. Duplicates never get here: the workflow ID
// is the message ID.
func Intake(ctx workflow.Context, in *IntakeInput) (*IntakeResult, error) {
	f := &funnel{in: in, res: &IntakeResult{Decision: inbox.Decision{MessageID: in.MessageID}}}
	f.run(ctx)
	if f.res.Decision.Decision != inbox.DecisionSkip && in.Draft {
		f.openDraft(ctx)
	}
	if err := workflow.ExecuteLocalActivity(localDBOptions(ctx), ia.RecordFunnel, f.events).Get(ctx, nil); err != nil {
		return nil, err
	}
	return f.res, nil
}

// funnel is one message's run: its decision so far and the events to record.
type funnel struct {
	in     *IntakeInput
	res    *IntakeResult
	forced []string // why review is forced, by rules and by recipients
	events []inbox.Event
}

func (f *funnel) run(ctx workflow.Context) {
	ref := activities.MessageRef{MessageID: f.in.MessageID}
	var s activities.Screening
	err := workflow.ExecuteLocalActivity(localDBOptions(ctx), ia.Screen, ref).Get(ctx, &s)
	var appErr *temporal.ApplicationError
	isApp := errors.As(err, &appErr)
	switch {
	case isApp && appErr.Type() == activities.ErrSwitchUnread:
		// The switch cannot be read: halting is the safe side, and people answer the mail.
		f.skip(ctx, inbox.StepKillSwitch, inbox.StageKillSwitch, "the kill switch could not be read: treated as on")
		return
	case err != nil:
		// The screens cannot run: the message goes through, forced to review, so a person
		// looks before anything is sent and no customer is dropped.
		why := err.Error()
		if isApp {
			why = appErr.Message()
		}
		s.Filters = inbox.StepResult{Outcome: inbox.OutcomeReview, Stage: inbox.StepFilters, Reason: "the screens could not run: " + why}
		s.Recipients = inbox.StepResult{Outcome: inbox.OutcomeReview, Stage: inbox.StepRecipients, Reason: "recipients not screened"}
	case s.Halted:
		f.skip(ctx, inbox.StepKillSwitch, inbox.StageKillSwitch, "drafting is halted by the kill switch")
		return
	}
	f.record(ctx, inbox.StepKillSwitch, inbox.OutcomePass, "drafting is on", "")
	if f.step(ctx, inbox.StepFirstResponse, inbox.FirstResponse(f.in.Thread)) &&
		f.step(ctx, inbox.StepFilters, s.Filters) && f.step(ctx, inbox.StepRecipients, s.Recipients) {
		f.triage(ctx, ref)
	}
}

// step records a screening step's result and reports whether the message goes on.
func (f *funnel) step(ctx workflow.Context, name string, r inbox.StepResult) bool {
	switch r.Outcome {
	case inbox.OutcomeSkip:
		f.skip(ctx, name, r.Stage, r.Reason)
		return false
	case inbox.OutcomeReview:
		f.forced = append(f.forced, r.Reason)
		if f.res.Stage == "" {
			f.res.Stage = r.Stage // the first layer that forced review names the stage
		}
	}
	f.record(ctx, name, r.Outcome, r.Reason, "")
	return true
}

// triage is the last layer. It fails open: an error or a timeout means the message
// needs a response, and the failure is recorded and counted.
func (f *funnel) triage(ctx workflow.Context, ref activities.MessageRef) {
	var t inbox.Triage
	var err error
	if f.in.RemoteTriage {
		opts := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: 10 * time.Second,
			RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 500 * time.Millisecond, MaximumAttempts: 2},
		})
		err = workflow.ExecuteActivity(opts, ia.Triage, ref).Get(ctx, &t)
	} else {
		err = workflow.ExecuteLocalActivity(codeOptions(ctx), ia.Triage, ref).Get(ctx, &t)
	}
	if err != nil {
		f.res.TriageFailedOpen = true
		f.record(ctx, inbox.StepTriage, inbox.OutcomeFailedOpen, "triage failed, treated as needing a response: "+err.Error(), "")
		f.decide(inbox.DecisionDraft, "", "triage failed; failed open")
		return
	}
	switch {
	case !t.NeedsResponse:
		f.skip(ctx, inbox.StepTriage, inbox.StageNoResponse, t.Reason)
	case t.Unsure:
		f.step(ctx, inbox.StepTriage, inbox.StepResult{Outcome: inbox.OutcomeReview, Stage: inbox.StageUnsure, Reason: t.Reason})
		f.decide(inbox.DecisionDraft, t.Bucket, t.Reason)
	case t.Bucket == inbox.BucketNotBilling:
		f.res.Bucket = t.Bucket
		f.skip(ctx, inbox.StepTriage, inbox.StageNotBilling, "not a billing question, routed to people: "+t.Reason)
	default:
		f.record(ctx, inbox.StepTriage, inbox.OutcomePass, t.Reason, t.Bucket)
		f.decide(inbox.DecisionDraft, t.Bucket, t.Reason)
	}
}

// decide sets a survivor's decision: forced to review if any layer asked for it.
func (f *funnel) decide(decision, bucket, reason string) {
	f.res.Bucket = bucket
	if len(f.forced) > 0 {
		f.res.Decision.Decision, f.res.Reason = inbox.DecisionReview, strings.Join(f.forced, "; ")
		return
	}
	f.res.Decision.Decision, f.res.Stage, f.res.Reason = decision, inbox.StageNone, reason
}

func (f *funnel) skip(ctx workflow.Context, step, stage, reason string) {
	f.res.Decision.Decision, f.res.Stage, f.res.Reason = inbox.DecisionSkip, stage, reason
	f.record(ctx, step, inbox.OutcomeSkip, reason, f.res.Bucket)
}

func (f *funnel) record(ctx workflow.Context, step, outcome, reason, bucket string) {
	f.events = append(f.events, inbox.Event{MessageID: f.in.MessageID, ThreadID: f.in.ThreadID, Step: step,
		Outcome: outcome, Reason: reason, Bucket: bucket, At: workflow.Now(ctx)})
}

// openDraft makes the survivor a ticket revision and starts or joins its draft workflow.
// It writes the revision to Postgres and is retried as the steps that only do that are
// (postgresRetry). A failure after the retries leaves the decision standing, recorded, for
// people to pick up.
func (f *funnel) openDraft(ctx workflow.Context) {
	opts := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 15 * time.Second,
		RetryPolicy:         postgresRetry(),
	})
	in := activities.OpenDraftInput{MessageID: f.in.MessageID, Bucket: f.res.Bucket}
	if f.res.Decision.Decision == inbox.DecisionReview {
		in.ForcedReview = f.res.Reason
	}
	var opened activities.DraftOpened
	if err := workflow.ExecuteActivity(opts, ia.OpenDraft, in).Get(ctx, &opened); err != nil {
		f.res.DraftError = err.Error()
		f.record(ctx, inbox.StepDraft, inbox.OutcomeFailed, "the draft workflow could not be reached: "+err.Error(), f.res.Bucket)
		return
	}
	f.res.TicketID, f.res.Revision = opened.TicketID, opened.Revision
	f.record(ctx, inbox.StepDraft, inbox.OutcomeStarted, "ticket "+opened.TicketID+" revision "+strconv.Itoa(opened.Revision), f.res.Bucket)
}
