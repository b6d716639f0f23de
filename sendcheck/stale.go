package sendcheck

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/workflows"
)

// MarkStale tells the workflow of every open draft bound to one of docIDs that is stale at
// `at` (SignalStale), so that approving a version turns the drafts it supersedes stale at
// once, before anyone presses send. It returns the drafts it told; a workflow that has
// ended is skipped. The send-check still finds any draft it missed. The drafts are those of
// the one agent ctx acts for, the agent whose versions were approved.
func MarkStale(ctx context.Context, st *store.Store, c client.Client, docIDs []string, at time.Time) ([]store.StaleDraft, error) {
	agentID, err := agent.ID(ctx)
	if err != nil {
		return nil, err
	}
	stale, err := st.StaleDraftsCiting(ctx, docIDs, at)
	if err != nil {
		return nil, err
	}
	var told []store.StaleDraft
	for _, d := range stale {
		sig := workflows.StaleSignal{Iteration: d.Iteration, Reasons: d.Reasons}
		err := c.SignalWorkflow(ctx, workflows.DraftWorkflowID(agentID, d.TicketID), "", workflows.SignalStale, sig)
		var notFound *serviceerror.NotFound
		switch {
		case errors.As(err, &notFound):
			continue
		case err != nil:
			return told, err
		}
		told = append(told, d)
	}
	return told, nil
}
