package workflows

import (
	"go.temporal.io/sdk/workflow"
)

// halted reads the kill switch for a rebuild. Drafts whose history predates the check
// (no version marker) skip it, so they replay. A switch that cannot be read counts as on:
// a rebuild is never urgent, and the agent can write the reply by hand.
func halted(ctx workflow.Context, generation int) bool {
	if version(ctx, generation, "rebuild-checks-kill-switch", 1) == workflow.DefaultVersion {
		return false
	}
	var on bool
	if err := workflow.ExecuteLocalActivity(localDBOptions(ctx), a.Halted).Get(ctx, &on); err != nil {
		workflow.GetLogger(ctx).Warn("kill switch unreadable: rebuild refused", "error", err)
		return true
	}
	return on
}
