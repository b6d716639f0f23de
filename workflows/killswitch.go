package workflows

import (
	"go.temporal.io/sdk/workflow"
)

// halted reads the kill switch for a rebuild. A switch that cannot be read counts as on:
// a rebuild is never urgent, and the agent can write the reply by hand.
func halted(ctx workflow.Context) bool {
	var on bool
	if err := workflow.ExecuteLocalActivity(localDBOptions(ctx), a.Halted).Get(ctx, &on); err != nil {
		workflow.GetLogger(ctx).Warn("kill switch unreadable: rebuild refused", "error", err)
		return true
	}
	return on
}
