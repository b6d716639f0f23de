package workflows

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/activities"
)

// failureReason says why a build failed in words an agent may read. Only the failures
// activities word for people (the model refused or garbled the request, the ticket does
// not exist: the types in spokenFailures) keep their message; any other error's text may
// be a database or network detail that belongs in the worker's log, not on a page.
func failureReason(err error) string {
	var appErr *temporal.ApplicationError
	var timeout *temporal.TimeoutError
	switch {
	case errors.As(err, &appErr) && spokenFailures[appErr.Type()]:
		return fmt.Sprintf("The draft could not be built: %s. Rebuild to try again, or write this reply by hand.", clipReason(appErr.Message()))
	case errors.As(err, &timeout):
		return "The draft could not be built: a step timed out after its retries. Rebuild to try again, or write this reply by hand."
	default:
		return "The draft could not be built: a step failed after its retries (the worker log has the detail). Rebuild to try again, or write this reply by hand."
	}
}

// spokenFailures are the application error types whose message is written for the agent.
var spokenFailures = map[string]bool{
	activities.ErrModelPermanent: true,
	activities.ErrModelFailed:    true,
	activities.ErrNotFound:       true,
}

// clipReason keeps a failure's message short enough for a banner.
func clipReason(s string) string {
	const max = 300
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

// recordFailure stores the failed build where the draft is read (build_failures). The
// workflow keeps the reason in its state either way; if even this write fails, the
// failure is only in the workflow's state and its log.
func (w *state) recordFailure(ctx workflow.Context) {
	in := activities.FailureInput{TicketID: w.in.TicketID, Revision: w.revision, Reason: w.buildErr}
	if err := workflow.ExecuteLocalActivity(localDBOptions(ctx), a.RecordBuildFailure, in).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Error("could not record the failed build", "ticket", w.in.TicketID, "error", err)
	}
}
