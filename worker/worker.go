// Package worker runs the Temporal worker that executes DraftWorkflows and their
// activities against the policy store and the configured model providers.
package worker

import (
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/workflows"
)

// New registers the draft workflow and every activity on taskQueue (normally
// workflows.TaskQueue; tests and evals use their own so no other worker takes their tasks).
func New(c client.Client, taskQueue string, acts *activities.Activities) sdkworker.Worker {
	w := sdkworker.New(c, taskQueue, sdkworker.Options{})
	w.RegisterWorkflow(workflows.Draft)
	w.RegisterActivity(acts)
	return w
}
