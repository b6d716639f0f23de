package workflows

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/inbox"
)

// RunIntake starts the message's intake workflow and waits for its decision. A message ID
// that already has a workflow — running, completed, or within the namespace's retention —
// is a duplicate: Temporal refuses the start and RunIntake answers duplicate = true with no
// result. Only a failed earlier run may be started again, so a webhook redelivered after
// a failure gets another try. halts is how many earlier runs the kill switch skipped
// (IntakeRunID): such a run did not see the message, so a redelivery runs anew. The run
// acts for the one agent ctx acts for, the agent the message was routed to.
func RunIntake(ctx context.Context, c client.Client, scope, taskQueue string, halts int, in *IntakeInput) (res *IntakeResult, duplicate bool, err error) {
	agentID, err := agent.ID(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("intake of message %s: %w", in.MessageID, err)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                                       IntakeRunID(scope, agentID, in.MessageID, halts),
		TaskQueue:                                taskQueue,
		WorkflowIDReusePolicy:                    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
		WorkflowIDConflictPolicy:                 enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		WorkflowExecutionTimeout:                 5 * time.Minute,
		// A worker in this process (dev, replays, the bench) gets the first workflow task in
		// the start's reply instead of waiting for the matching service to hand it over, which
		// a message that stops early would otherwise spend most of its time on. A process
		// with no worker on the task queue (the API replicas) starts the workflow the
		// ordinary way.
		EnableEagerStart: true,
	}, Intake, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	var out IntakeResult
	if err := run.Get(ctx, &out); err != nil {
		return nil, false, err
	}
	return &out, false, nil
}

// DuplicateDecision is the decision for a message ID seen before.
func DuplicateDecision(messageID string) inbox.Decision {
	return inbox.Decision{MessageID: messageID, Decision: inbox.DecisionSkip, Stage: inbox.StageDuplicate,
		Reason: "this message ID was delivered before"}
}

// DraftStarter returns the intake's one call into the draft workflow: update-with-start
// "open" on the ticket's workflow, returning once the workflow accepted the revision (the
// build runs on without the intake waiting for it). template carries the settings every
// draft gets (idle timeout, check budget, review delay); the triage bucket, the
// forced-review reason and the agent's own review window go into the input of a workflow
// this message starts. A running
// workflow only learns the new revision: its bucket and review flag are the thread's first.
// ctx is the intake activity's, so the draft acts for the intake's agent.
func DraftStarter(c client.Client, taskQueue string, template DraftInput) activities.DraftStarter {
	return func(ctx context.Context, d activities.DraftStart) error {
		in := template
		in.TicketID, in.Revision, in.Bucket, in.ForcedReview = d.TicketID, d.Revision, d.Bucket, d.ForcedReview
		if d.ReviewDelay > 0 {
			in.ReviewDelay = d.ReviewDelay
		}
		in.ReviewThreshold = d.ReviewThreshold
		workflowID, err := DraftWorkflowIDFor(ctx, d.TicketID)
		if err != nil {
			return err
		}
		start := c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{
			ID:                       workflowID,
			TaskQueue:                taskQueue,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		}, DraftWorkflowType, &in)
		_, err = c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
			StartWorkflowOperation: start,
			UpdateOptions: client.UpdateWorkflowOptions{UpdateName: UpdateOpen,
				Args: []any{OpenRequest{Revision: d.Revision}}, WaitForStage: client.WorkflowUpdateStageAccepted},
		})
		return err
	}
}
