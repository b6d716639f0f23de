package workflows

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/store"
)

// PurgeWorkflowType is the name the retention workflow is registered and scheduled under.
const PurgeWorkflowType = "Purge"

// PurgeScheduleID is the one Temporal Schedule that runs the purge.
const PurgeScheduleID = "supportdraft-purge"

// PurgeEvery is how often the schedule runs the purge: daily, at 03:00 UTC, so text leaves
// at most a day after its retention ends.
const (
	PurgeEvery  = 24 * time.Hour
	purgeOffset = 3 * time.Hour
)

// PurgeInput is the purge workflow's argument: how long text is kept.
type PurgeInput struct {
	Retention time.Duration `json:"retention"`
}

// Purge removes customer and agent text older than in.Retention (see store.PurgeBefore),
// counting from the workflow's own clock so a replay purges the same instant. One
// activity: the store does the work in one transaction, so a retry repeats nothing that
// was committed.
func Purge(ctx workflow.Context, in PurgeInput) (*store.PurgeReport, error) {
	if in.Retention <= 0 {
		return nil, temporal.NewNonRetryableApplicationError("purge needs a positive retention", ErrRejected, nil)
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Minute, MaximumAttempts: 3},
	})
	var rep store.PurgeReport
	before := workflow.Now(ctx).Add(-in.Retention)
	if err := workflow.ExecuteActivity(ctx, a.Purge, activities.PurgeInput{Before: before}).Get(ctx, &rep); err != nil {
		return nil, err
	}
	return &rep, nil
}

// PurgeSchedule is where and how the purge runs.
type PurgeSchedule struct {
	ID        string // PurgeScheduleID; tests use their own
	TaskQueue string
	Retention time.Duration
}

// EnsurePurgeSchedule creates the purge's schedule, or brings an existing one in line with
// s (task queue, retention, timing): every worker calls it at start, so a deploy with a new
// SUPPORTDRAFT_RETENTION changes the schedule, and running it twice changes nothing.
func EnsurePurgeSchedule(ctx context.Context, c client.Client, s PurgeSchedule) error {
	spec := client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: PurgeEvery, Offset: purgeOffset}}}
	action := &client.ScheduleWorkflowAction{
		ID: s.ID + "-run", Workflow: PurgeWorkflowType, TaskQueue: s.TaskQueue,
		Args: []any{PurgeInput{Retention: s.Retention}}, WorkflowRunTimeout: time.Hour,
	}
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID: s.ID, Spec: spec, Action: action, Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP,
		Note: "retention: purge customer and agent text (supportdraft worker)",
	})
	if !errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		if err != nil {
			return fmt.Errorf("create schedule %s: %w", s.ID, err)
		}
		return nil
	}
	err = c.ScheduleClient().GetHandle(ctx, s.ID).Update(ctx, client.ScheduleUpdateOptions{
		DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
			sched := in.Description.Schedule
			sched.Spec, sched.Action = &spec, action
			if sched.Policy == nil {
				sched.Policy = &client.SchedulePolicies{}
			}
			sched.Policy.Overlap = enumspb.SCHEDULE_OVERLAP_POLICY_SKIP
			return &client.ScheduleUpdate{Schedule: &sched}, nil
		},
	})
	if err != nil {
		return fmt.Errorf("update schedule %s: %w", s.ID, err)
	}
	return nil
}
