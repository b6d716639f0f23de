package workflows

import (
	"context"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// Open starts the ticket's draft workflow, or reaches the running one, with update-with-
// start: the start is idempotent per workflow ID, and the "open" update brings the
// revision in. It waits until the draft for that revision is built and returns it.
func Open(ctx context.Context, c client.Client, workflowID, taskQueue string, in *DraftInput) (*DraftView, error) {
	start := c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{
		ID:                       workflowID,
		TaskQueue:                taskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, DraftWorkflowType, in)
	handle, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: start,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateName: UpdateOpen,
			Args: []any{OpenRequest{Revision: in.Revision}}, WaitForStage: client.WorkflowUpdateStageCompleted},
	})
	if err != nil {
		return nil, err
	}
	var view DraftView
	if err := handle.Get(ctx, &view); err != nil {
		return nil, err
	}
	return &view, nil
}
