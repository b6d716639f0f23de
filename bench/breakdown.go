package bench

import (
	"context"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// TaskBreakdown splits the time Temporal spends on workflow tasks, read from histories:
// ScheduleToStart is how long a task waited for a worker poller (matching, poller count,
// worker slots; zero for a task handed to the worker eagerly with the start),
// StartToComplete how long the worker took (workflow code plus its local activities: the
// database reads and writes). Run is a workflow's whole life on the server, from its
// started event to its closed one (only for workflows that closed). What the client saw
// beyond these went to the API, the start and result calls, and persistence.
type TaskBreakdown struct {
	Tasks              int     `json:"workflow_tasks"`
	ScheduleToStartP50 float64 `json:"schedule_to_start_p50_ms"`
	ScheduleToStartP99 float64 `json:"schedule_to_start_p99_ms"`
	StartToCompleteP50 float64 `json:"start_to_complete_p50_ms"`
	StartToCompleteP99 float64 `json:"start_to_complete_p99_ms"`
	RunP50             float64 `json:"run_p50_ms,omitempty"`
	RunP99             float64 `json:"run_p99_ms,omitempty"`
}

// taskBreakdown reads the histories of workflowIDs and times every workflow task in them.
func taskBreakdown(ctx context.Context, c client.Client, workflowIDs []string) (TaskBreakdown, error) {
	var toStart, toComplete, runs []float64
	for _, id := range workflowIDs {
		iter := c.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		var first, scheduled, started float64
		for iter.HasNext() {
			e, err := iter.Next()
			if err != nil {
				return TaskBreakdown{}, err
			}
			at := float64(e.GetEventTime().AsTime().UnixMicro()) / 1000
			switch e.GetEventType() {
			case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
				first = at
			case enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
				scheduled = at
			case enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED:
				started = at
				toStart = append(toStart, at-scheduled)
			case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
				toComplete = append(toComplete, at-started)
			case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
				runs = append(runs, at-first)
			}
		}
	}
	return TaskBreakdown{
		Tasks:              len(toComplete),
		ScheduleToStartP50: percentile(toStart, 50), ScheduleToStartP99: percentile(toStart, 99),
		StartToCompleteP50: percentile(toComplete, 50), StartToCompleteP99: percentile(toComplete, 99),
		RunP50: percentile(runs, 50), RunP99: percentile(runs, 99),
	}, nil
}
