package workflows_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/workflows"
)

// On the real server: a draft opened through Open is of the current generation, and its
// history holds no version marker and no search-attribute upsert (each upsert is a
// visibility write on the server). A run whose input has no generation, as every run
// started before it had, still asks workflow.GetVersion and records its markers, so the
// histories of such runs replay.
func TestOpenedDraftsSkipVersionMarkersOlderRunsKeepThem(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, c, tq := realWorker(t, "test-generation-")

	// newTicket saves revision 1 of a refund question under a new ID.
	newTicket := func(prefix string) string {
		id := testenv.Unique(prefix)
		require.NoError(t, s.SaveTicket(ctx, testenv.Ticket(id, 1, "pro", "eu", time.Now().Add(-time.Hour),
			"Our annual Pro plan renewed five days ago. Can we still get a refund?")))
		return id
	}
	ticketID := newTicket("GEN-")
	current := workflows.DraftWorkflowID(ticketID)
	opened, err := workflows.Open(ctx, c, current, tq, &workflows.DraftInput{TicketID: ticketID, Revision: 1, IdleTimeout: time.Hour})
	require.NoError(t, err)
	require.NotEmpty(t, opened.Reply)
	markers, upserts := versionEvents(t, c, current)
	assert.Zero(t, markers, "version markers in a current-generation draft")
	assert.Zero(t, upserts, "search-attribute upserts in a current-generation draft")

	// A run as started before generations: the same update-with-start, input without one.
	older := newTicket("GEN-OLD-")
	olderID := workflows.DraftWorkflowID(older)
	start := c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{ID: olderID, TaskQueue: tq,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING},
		workflows.DraftWorkflowType, &workflows.DraftInput{TicketID: older, Revision: 1, IdleTimeout: time.Hour})
	h, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: start,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateName: workflows.UpdateOpen,
			Args: []any{workflows.OpenRequest{Revision: 1}}, WaitForStage: client.WorkflowUpdateStageCompleted}})
	require.NoError(t, err)
	var view workflows.DraftView
	require.NoError(t, h.Get(ctx, &view))
	require.NotEmpty(t, view.Reply, "the older run builds the same draft")
	markers, upserts = versionEvents(t, c, olderID)
	assert.GreaterOrEqual(t, markers, 2, "an older run asks GetVersion for the locked handlers and the numbering")
	assert.Equal(t, markers, upserts, "each of its version markers comes with its upsert")
}

// versionEvents counts a workflow's version markers and search-attribute upserts.
func versionEvents(t *testing.T, c client.Client, workflowID string) (markers, upserts int) {
	t.Helper()
	iter := c.GetWorkflowHistory(context.Background(), workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		e, err := iter.Next()
		require.NoError(t, err)
		switch e.GetEventType() {
		case enumspb.EVENT_TYPE_MARKER_RECORDED:
			if e.GetMarkerRecordedEventAttributes().GetMarkerName() == "Version" {
				markers++
			}
		case enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
			upserts++
		}
	}
	return markers, upserts
}
