package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/drafts"
)

// legacyRun replays, and finishes, the draft runs started before versionLockedHandlers:
// their handlers only set flags and a loop polled them and did the work, and their
// histories hold that loop's commands in that order (an idle timer restarted after each
// build, a build's markers before it). It keeps that order exactly; the recorded histories
// in testdata/histories are its test. Delete it once no such run is open: the idle timeout
// (72h by default) bounds how long one lives.
type legacyRun struct {
	*state
	pendingBuild bool // a build (first draft, open at a newer revision, rebuild) is due
	building     bool // a build is running now
	pendingStale bool // a new revision arrived: mark the saved draft stale
	discarded    bool
	finished     bool // the final status is recorded
	touched      bool // any message since the last wait: the idle timer restarts
}

func runLegacy(ctx workflow.Context, in *DraftInput) (*DraftResult, error) {
	w := &legacyRun{state: newState(in)}
	w.localModels = in.LocalModels
	if w.draft == nil && in.Current != nil { // continued as new by the code before DraftInput.Draft
		c := in.Current
		w.draft = &drafts.Saved{TicketID: in.TicketID, Iteration: c.Iteration, Revision: c.Revision, Status: c.Status,
			Bound: c.Bound, Confidence: c.Confidence}
		w.draft.Account.Plan, w.draft.Account.Region = c.Plan, c.Region
	}
	if err := w.setup(ctx); err != nil {
		return nil, err
	}
	return w.loop(ctx)
}

func (w *legacyRun) snapshotNow() DraftState {
	if w.discarded {
		return w.snapshot(drafts.StatusDiscarded)
	}
	return w.snapshot(w.status())
}

func (w *legacyRun) setup(ctx workflow.Context) error {
	if err := workflow.SetQueryHandler(ctx, QueryState, func() (DraftState, error) { return w.snapshotNow(), nil }); err != nil {
		return err
	}
	revisions := workflow.GetSignalChannel(ctx, SignalRevision)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			var sig RevisionSignal
			revisions.Receive(ctx, &sig)
			w.touched = true
			if w.noteRevision(sig) {
				w.pendingStale = true
			}
		}
	})
	handlers := []struct {
		name      string
		handler   any
		validator any
	}{
		{UpdateOpen, w.open, w.validateOpen},
		{UpdateEdit, w.edit, w.validateEdit},
		{UpdateSendCheck, w.sendCheck, w.validateHasDraft},
		{UpdateRebuild, w.rebuild, w.validateNotDiscarded},
		{UpdateDiscard, w.discard, w.validateNotDiscarded},
	}
	for _, h := range handlers {
		if err := workflow.SetUpdateHandlerWithOptions(ctx, h.name, h.handler, workflow.UpdateHandlerOptions{Validator: h.validator}); err != nil {
			return err
		}
	}
	return nil
}

func (w *legacyRun) loop(ctx workflow.Context) (*DraftResult, error) {
	for {
		if w.pendingStale && w.draft != nil {
			w.pendingStale = false
			w.markStatus(ctx, drafts.StatusStale, w.staleReasons)
		}
		if w.pendingBuild {
			w.pendingBuild, w.building = false, true
			_ = w.build(ctx) // kept in buildErr for whoever waits
			w.building = false
		}
		w.touched = false
		active, err := workflow.AwaitWithTimeout(ctx, w.in.IdleTimeout, func() bool {
			return w.pendingBuild || w.pendingStale || w.discarded || w.touched
		})
		if err != nil {
			return nil, err
		}
		if w.discarded || !active {
			return w.finish(ctx, !active)
		}
		if info := workflow.GetInfo(ctx); info.GetContinueAsNewSuggested() || info.GetCurrentHistoryLength() > maxHistoryEvents {
			if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) && !w.pendingBuild }); err != nil {
				return nil, err
			}
			return nil, w.continueAsNew(ctx)
		}
	}
}

func (w *legacyRun) finish(ctx workflow.Context, idle bool) (*DraftResult, error) {
	status := drafts.StatusDiscarded
	if idle {
		status = drafts.StatusClosed
	}
	if w.draft != nil {
		w.markStatus(ctx, status, w.staleReasons)
	}
	w.finished = true
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return nil, err
	}
	return &DraftResult{TicketID: w.in.TicketID, Iteration: w.iteration, Status: status}, nil
}

func (w *legacyRun) open(ctx workflow.Context, req OpenRequest) (*DraftView, error) {
	w.touched = true
	if req.Revision > w.revision {
		w.revision = req.Revision
	}
	if !w.pendingBuild && !w.building && (w.draft == nil || w.draft.Revision < w.revision) {
		w.pendingBuild = true
	}
	return w.awaitBuild(ctx, func() bool { return w.draft != nil && w.draft.Revision >= req.Revision })
}

func (w *legacyRun) validateOpen(req OpenRequest) error {
	if req.Revision < 1 {
		return rejected("revision must be 1 or more")
	}
	if w.discarded {
		return rejected("this draft was discarded; start a new one after the workflow ends")
	}
	return nil
}

func (w *legacyRun) rebuild(ctx workflow.Context) (*DraftView, error) {
	w.touched = true
	before := w.iteration
	w.pendingBuild = true
	return w.awaitBuild(ctx, func() bool { return w.iteration > before })
}

func (w *legacyRun) awaitBuild(ctx workflow.Context, done func() bool) (*DraftView, error) {
	w.buildErr = ""
	failed := func() bool { return w.buildErr != "" && !w.pendingBuild && !w.building }
	if err := workflow.Await(ctx, func() bool { return done() || failed() || w.finished }); err != nil {
		return nil, err
	}
	if w.finished && !done() {
		return nil, rejected("the draft closed before it was built")
	}
	if !done() {
		return nil, temporal.NewApplicationError(w.buildErr, ErrBuildFailed)
	}
	return w.view(), nil
}

func (w *legacyRun) discard(ctx workflow.Context) (DraftState, error) {
	w.discarded = true
	if err := workflow.Await(ctx, func() bool { return w.finished }); err != nil {
		return DraftState{}, err
	}
	return w.snapshotNow(), nil
}

func (w *legacyRun) edit(ctx workflow.Context, req EditRequest) (EditResult, error) {
	w.touched = true
	return w.saveEdit(ctx, req)
}

func (w *legacyRun) sendCheck(ctx workflow.Context, _ SendCheckRequest) (SendCheckResult, error) {
	w.touched = true
	res := w.checkFresh(ctx)
	// These runs scheduled RecordSendCheck until the API took over recording verdicts; those
	// that reached a send-check after that recorded version 1 here and skip it.
	if workflow.GetVersion(ctx, "send-check-recorded-by-api", workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		recordCtx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: 5 * time.Second, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 3},
		})
		workflow.ExecuteActivity(recordCtx, a.RecordSendCheck, w.in.TicketID, res)
	}
	return res, nil
}

func (w *legacyRun) validateNotDiscarded() error {
	if w.discarded {
		return rejected("this draft was discarded")
	}
	return nil
}

func (w *legacyRun) validateHasDraft(SendCheckRequest) error {
	if w.draft == nil {
		return rejected("no draft has been built for this ticket yet")
	}
	return w.validateNotDiscarded()
}

func (w *legacyRun) validateEdit(req EditRequest) error {
	if err := validateEditText(req); err != nil {
		return err
	}
	if w.draft == nil {
		return rejected("no draft has been built for this ticket yet")
	}
	return w.validateNotDiscarded()
}
