package stack

import (
	"context"
	"fmt"
	"time"

	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/temporalclient"
	"github.com/supportdraft/supportdraft/worker"
	"github.com/supportdraft/supportdraft/workflows"
)

// Intake is what a worker runs the inbox funnel with.
type Intake struct {
	Rules   *inbox.Rules
	Support *inbox.Support
	// Triager sorts the default agent's mail; TriagerFor, when set, builds one over an
	// agent's own buckets (providers.Triager).
	Triager    inbox.Triager
	TriagerFor func(inbox.BucketSet) inbox.Triager
	// Buckets is the set Triager sorts into; nil is the default agent's.
	Buckets inbox.BucketSet
	// Draft is the input every surviving message's draft workflow starts from (timeouts,
	// review window, Slack notice); the message adds the ticket and its agent's settings.
	Draft workflows.DraftInput
}

// RegisterIntake adds the intake workflow and the funnel's steps to w. Surviving messages
// start their draft workflows on taskQueue.
func (s *Stack) RegisterIntake(w sdkworker.Worker, taskQueue string, in Intake) {
	worker.RegisterIntake(w, &activities.Intake{Store: s.Store, Rules: in.Rules, Support: in.Support,
		Triager: in.Triager, TriagerFor: in.TriagerFor, Buckets: in.Buckets, Retriever: s.Activities().Retriever,
		StartDraft: workflows.DraftStarter(s.Temporal, taskQueue, in.Draft)})
}

// WorkerOptions are what the one worker of a `worker` or `dev` process runs besides the
// draft workflow's steps.
type WorkerOptions struct {
	Intake Intake
	// Retention is how long text is kept: the daily purge's cut-off and the Temporal
	// namespace's history retention.
	Retention time.Duration
	Namespace string
}

// StartWorker starts the one worker a process runs on workflows.TaskQueue: the draft
// workflow and its steps, the intake workflow with the funnel, and the retention schedule.
// The caller stops it.
func (s *Stack) StartWorker(ctx context.Context, o WorkerOptions) (sdkworker.Worker, error) {
	w := s.Worker(workflows.TaskQueue, s.Activities())
	s.RegisterIntake(w, workflows.TaskQueue, o.Intake)
	if err := s.keepRetention(ctx, o.Namespace, o.Retention); err != nil {
		return nil, err
	}
	if err := w.Start(); err != nil {
		return nil, fmt.Errorf("start worker: %w", err)
	}
	return w, nil
}

// keepRetention makes sure the daily purge is scheduled with this worker's retention, and
// sets the Temporal namespace's retention to match. The schedule is required: a worker
// that cannot create it refuses to start, since text would otherwise be kept forever. The
// namespace is the operator's in some deployments (Temporal Cloud): a refusal there is
// only logged.
func (s *Stack) keepRetention(ctx context.Context, namespace string, retention time.Duration) error {
	err := workflows.EnsurePurgeSchedule(ctx, s.Temporal, workflows.PurgeSchedule{
		ID: workflows.PurgeScheduleID, TaskQueue: workflows.TaskQueue, Retention: retention})
	if err != nil {
		return err
	}
	before, err := temporalclient.SetNamespaceRetention(ctx, s.Temporal, namespace, retention)
	switch {
	case err != nil:
		s.log.Warn("could not set the Temporal namespace's retention: set it to SUPPORTDRAFT_RETENTION yourself",
			"namespace", namespace, "retention", retention, "error", err)
	case before != retention:
		s.log.Info("Temporal namespace retention set", "namespace", namespace, "from", before, "to", retention)
	}
	return nil
}
