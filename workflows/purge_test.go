package workflows_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/workflows"
)

// The purge schedule on the real Temporal server: ensuring it twice leaves one schedule
// with the latest retention, and a run it starts purges old ticket text in Postgres and
// keeps recent text and every row.
func TestPurgeScheduleRunsThePurge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, c, tq := realWorker(t, "test-purge-")

	now := time.Now().UTC()
	for _, id := range []string{"PURGE-OLD", "PURGE-NEW"} {
		require.NoError(t, s.SaveTicket(ctx, &ticket.Ticket{TicketID: id, Revision: 1, UpdatedAt: now, Subject: "Refund",
			Account:  ticket.Account{Plan: "pro", Region: "eu"},
			Messages: []ticket.Message{{Author: "customer", At: now, Body: "Please refund my annual plan."}}}))
	}
	_, err := s.Pool().Exec(ctx, `UPDATE ticket_revisions SET received_at = $1 WHERE ticket_id = 'PURGE-OLD'`, now.AddDate(0, 0, -40))
	require.NoError(t, err)

	sched := workflows.PurgeSchedule{ID: testenv.Unique("test-purge-"), TaskQueue: tq, Retention: 90 * 24 * time.Hour}
	require.NoError(t, workflows.EnsurePurgeSchedule(ctx, c, sched))
	t.Cleanup(func() { _ = c.ScheduleClient().GetHandle(context.Background(), sched.ID).Delete(context.Background()) })
	sched.Retention = 30 * 24 * time.Hour
	require.NoError(t, workflows.EnsurePurgeSchedule(ctx, c, sched), "a second worker's start updates the schedule")

	h := c.ScheduleClient().GetHandle(ctx, sched.ID)
	desc, err := h.Describe(ctx)
	require.NoError(t, err)
	action, ok := desc.Schedule.Action.(*client.ScheduleWorkflowAction)
	require.True(t, ok)
	assert.Equal(t, tq, action.TaskQueue)
	require.Len(t, action.Args, 1)
	var in workflows.PurgeInput
	require.NoError(t, converter.GetDefaultDataConverter().FromPayload(action.Args[0].(*commonpb.Payload), &in))
	assert.Equal(t, 30*24*time.Hour, in.Retention, "the schedule carries the latest retention")
	require.Len(t, desc.Schedule.Spec.Intervals, 1)
	assert.Equal(t, workflows.PurgeEvery, desc.Schedule.Spec.Intervals[0].Every)

	require.NoError(t, h.Trigger(ctx, client.ScheduleTriggerOptions{}))
	require.Eventually(t, func() bool {
		old, err := s.Ticket(ctx, "PURGE-OLD", 1)
		return err == nil && old.Subject == "" && len(old.Messages) == 0
	}, 30*time.Second, 200*time.Millisecond, "the triggered purge blanks the 40-day-old ticket")
	kept, err := s.Ticket(ctx, "PURGE-NEW", 1)
	require.NoError(t, err)
	assert.Equal(t, "Please refund my annual plan.", kept.Messages[0].Body)
}
