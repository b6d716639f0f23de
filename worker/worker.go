// Package worker runs the Temporal worker that executes draft workflows and their
// activities against the policy store and the configured model providers.
package worker

import (
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/workflows"
)

// Pollers is how many workflow-task and activity-task polls a worker keeps open. The SDK's
// default of two splits into one poll on the worker's sticky queue and one on the shared
// queue, so with four drafts in flight three workflow tasks (an update each: open, edit,
// send-check) wait for the one sticky poll to come back, a wait that dominated the tail
// latency. Eight keep one poll per draft in flight at the
// concurrency the benches and a small team use.
const Pollers = 8

// New registers the draft workflow, the retention purge and every activity on taskQueue (normally
// workflows.TaskQueue; tests and evals use their own so no other worker takes their tasks).
// localModels says the activities' drafter and judge are the embedded ones: the workflow
// then runs their steps as local activities. Only the worker knows it, so it is said here.
func New(c client.Client, taskQueue string, acts *activities.Activities, localModels bool) sdkworker.Worker {
	w := sdkworker.New(c, taskQueue, sdkworker.Options{
		MaxConcurrentWorkflowTaskPollers: Pollers,
		MaxConcurrentActivityTaskPollers: Pollers,
	})
	w.RegisterWorkflowWithOptions(DraftWorkflow(localModels))
	w.RegisterWorkflowWithOptions(workflows.Purge, workflow.RegisterOptions{Name: workflows.PurgeWorkflowType})
	w.RegisterActivity(acts)
	return w
}

// DraftWorkflow is the draft workflow as a worker, a test environment or a replayer
// registers it: RegisterWorkflowWithOptions(DraftWorkflow(localModels)).
func DraftWorkflow(localModels bool) (any, workflow.RegisterOptions) {
	return workflows.DraftWorkflow{LocalModels: localModels}.Run, workflow.RegisterOptions{Name: workflows.DraftWorkflowType}
}
