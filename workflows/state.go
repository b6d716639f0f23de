package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/drafts"
)

// a lets the workflow name activity methods without holding their dependencies.
var a *activities.Activities

// state is what a draft workflow run knows, and the steps that change it. The run (draft.go)
// drives it from its message handlers.
type state struct {
	in *DraftInput
	// agentID is the agent the run acts for, carried from its starter's context in a
	// Temporal header (temporalclient.AgentPropagator), so its activities act for it too.
	agentID string
	// localModels: the drafter and judge are the embedded ones, so their steps run as local
	// activities (see modelStep). The worker decides it; the run records it once.
	localModels  bool
	revision     int // latest revision the workflow knows
	iteration    int
	draft        *drafts.Saved // the current iteration as saved; nil before the first build
	staleReasons []drafts.StaleReason
	buildErr     string // why the last build failed; empty after a good one

	// builds counts this run's saves: with the run ID, it names each build to Save
	// (see save), the same when the run replays. A new run, continued
	// as new or not, counts again from 0 under its own run ID.
	builds int
}

func newState(in *DraftInput) *state {
	if in.IdleTimeout <= 0 {
		in.IdleTimeout = 72 * time.Hour
	}
	if in.CheckBudget <= 0 {
		in.CheckBudget = 2 * time.Second
	}
	return &state{in: in, revision: in.Revision, iteration: in.Iteration, draft: in.Draft, staleReasons: in.StaleReason}
}

// summary is the current draft's bindings, or nil before the first build.
func (w *state) summary() *drafts.Summary {
	if w.draft == nil {
		return nil
	}
	return w.draft.Summarize()
}

// snapshot is the DraftState that queries and discard answer.
func (w *state) snapshot(status string) DraftState {
	return DraftState{TicketID: w.in.TicketID, Revision: w.revision, Status: status, Current: w.summary(),
		StaleReasons: w.staleReasons, Error: w.buildErr}
}

// status is the draft's status while the workflow runs.
func (w *state) status() string {
	switch {
	case w.buildErr != "":
		return drafts.StatusFailed
	case w.draft == nil:
		return StatusBuilding
	case len(w.staleReasons) > 0:
		return drafts.StatusStale
	default:
		return w.draft.Status
	}
}

// markStatus records stale, discarded or closed on the saved draft, and on the workflow's
// copy, so that the view it answers with is what a read of the database would give.
func (w *state) markStatus(ctx workflow.Context, status string, reasons []drafts.StaleReason) {
	w.draft.Status, w.draft.StaleReasons = status, reasons
	in := activities.StatusInput{TicketID: w.in.TicketID, Iteration: w.draft.Iteration, Status: status, Reasons: reasons}
	if err := workflow.ExecuteActivity(dbOptions(ctx), a.MarkStatus, in).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Error("could not record draft status", "ticket", w.in.TicketID, "status", status, "error", err)
	}
}

// noteRevision records a newer revision; a draft built for an older one goes stale, with
// the reason the agent will read.
func (w *state) noteRevision(sig RevisionSignal) (stale bool) {
	if sig.Revision <= w.revision {
		return false
	}
	w.revision = sig.Revision
	if w.draft == nil || w.draft.Revision >= sig.Revision {
		return false
	}
	w.staleReasons = append(w.staleReasons, drafts.RevisionReason(w.draft.Revision, sig.Revision, sig.UpdatedAt))
	return true
}

// saveEdit stores the agent's text and answers with the counts of the deterministic checks
// on it. The workflow's copy of the draft does not take the words: they stay in Postgres.
func (w *state) saveEdit(ctx workflow.Context, req EditRequest) (EditResult, error) {
	var res EditResult
	in := activities.EditInput{TicketID: w.in.TicketID, Iteration: w.draft.Iteration, Ref: req.Ref}
	err := workflow.ExecuteActivity(dbOptions(ctx), a.SaveEdit, in).Get(ctx, &res)
	return res, err
}

// checkFresh answers the send hook. The freshness check gets a short budget; if it cannot
// run, the answer is "unchecked": the send is allowed with a visible warning, because
// blocking every reply is worse than one unchecked draft. The verdict stays in this history;
// the API records it in send_checks and counts it.
func (w *state) checkFresh(ctx workflow.Context) SendCheckResult {
	res := drafts.SendCheck{Iteration: w.draft.Iteration}
	// A local activity: the send hook waits on this, so it skips the task-queue round trip.
	checkCtx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: w.in.CheckBudget,
		StartToCloseTimeout:    w.in.CheckBudget,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, BackoffCoefficient: 2, MaximumAttempts: 5},
	})
	var reasons []drafts.StaleReason
	err := workflow.ExecuteLocalActivity(checkCtx, a.CheckFresh, activities.FreshInput{TicketID: w.in.TicketID, Bound: *w.summary()}).Get(ctx, &reasons)
	switch {
	case err != nil:
		res.Verdict, res.Warning = drafts.VerdictUnchecked, drafts.UncheckedWarning
		workflow.GetLogger(ctx).Warn("send-check unavailable: send allowed unchecked", "ticket", w.in.TicketID, "error", err)
	case len(reasons) > 0:
		res.Verdict, res.Reasons = drafts.VerdictStale, reasons
		w.staleReasons = reasons
		w.markStatus(ctx, drafts.StatusStale, reasons)
	default:
		res.Verdict = drafts.VerdictOK
	}
	return res
}

// rejected is a refusal of an update; the API answers it with 409 Conflict.
func rejected(msg string) error { return temporal.NewApplicationError(msg, ErrRejected) }

// buildFailed is the error an update answers when the build it waited for failed (502).
func buildFailed(msg string) error { return temporal.NewApplicationError(msg, ErrBuildFailed) }

// continueAsNew carries the draft's state into a new run with a fresh history.
func (w *state) continueAsNew(ctx workflow.Context) error {
	next := *w.in
	next.Revision, next.Iteration, next.Draft, next.StaleReason = w.revision, w.iteration, w.draft, w.staleReasons
	return workflow.NewContinueAsNewError(ctx, DraftWorkflowType, &next)
}

// validateEditText refuses an edit that is not a reference to a kept text: words given in
// clear would be written into the history.
func validateEditText(req EditRequest) error {
	if req.Ref == nil || req.Ref.ID <= 0 || len(req.Ref.SHA256) != 64 {
		return rejected("ref must name the kept text: its id and SHA-256")
	}
	return nil
}
