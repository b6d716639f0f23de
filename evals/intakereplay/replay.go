package intakereplay

import (
	"context"
	"fmt"
	"io"

	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/workflows"
)

// Replay runs msgs through the stack's funnel one at a time, in file order (so a message
// repeated in the file is the duplicate, never the original), and reports the funnel.
// With drafting on, it then waits for every survivor's draft to be built and discards it,
// so no draft workflow outlives the scratch run.
func Replay(ctx context.Context, st *Stack, msgs []*inbox.Message, progress io.Writer) (inbox.Report, error) {
	decisions := make([]inbox.Decision, len(msgs))
	var tickets []string
	seen := map[string]bool{}
	for i, m := range msgs {
		res, err := st.Deliver(ctx, m)
		if err != nil {
			return inbox.Report{}, fmt.Errorf("message %s: %w", m.MessageID, err)
		}
		decisions[i] = res.Decision
		if res.TicketID != "" && !seen[res.TicketID] {
			seen[res.TicketID] = true
			tickets = append(tickets, res.TicketID)
		}
		if progress != nil && (i+1)%100 == 0 {
			fmt.Fprintf(progress, "%d/%d messages\n", i+1, len(msgs))
		}
	}
	for _, id := range tickets {
		if err := st.finishDraft(ctx, id); err != nil {
			return inbox.Report{}, err
		}
	}
	return inbox.BuildReport(msgs, decisions), nil
}

// finishDraft discards the ticket's draft workflow. The workflow finishes the build the
// intake's open update started before it ends, so the discard answers once the draft was
// built (or failed) and the workflow closed.
func (s *Stack) finishDraft(ctx context.Context, ticketID string) error {
	workflowID, err := workflows.DraftWorkflowIDFor(ctx, ticketID)
	if err != nil {
		return err
	}
	h, err := s.Temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: workflowID,
		UpdateName: workflows.UpdateDiscard, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		var state workflows.DraftState
		err = h.Get(ctx, &state)
	}
	if err != nil {
		return fmt.Errorf("finish the draft of ticket %s: %w", ticketID, err)
	}
	return nil
}
