package worker

import (
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/workflows"
)

// RegisterIntake adds the intake workflow and the funnel's activities to w, which must
// also run the draft activities (the intake reads the kill switch through them).
func RegisterIntake(w sdkworker.Worker, acts *activities.Intake) {
	w.RegisterWorkflow(workflows.Intake)
	w.RegisterActivity(acts)
}
