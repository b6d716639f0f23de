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

// Continue as new past this many history events, to keep a long-lived draft's history
// small (Temporal also suggests it on its own limits).
const maxHistoryEvents = 2000

// Draft is the workflow of one ticket's draft: build it when opened (the API starts it with
// update-with-start "open"), then wait for the agent (edit, send-check, rebuild, discard),
// for new ticket revisions, or for the idle timeout.
func Draft(ctx workflow.Context, in *DraftInput) (*DraftResult, error) {
	w := &run{in: in, revision: in.Revision, iteration: in.Iteration, current: in.Current, staleReasons: in.StaleReason}
	if w.in.IdleTimeout <= 0 {
		w.in.IdleTimeout = 72 * time.Hour
	}
	if w.in.CheckBudget <= 0 {
		w.in.CheckBudget = 2 * time.Second
	}
	if err := w.setup(ctx); err != nil {
		return nil, err
	}
	return w.loop(ctx)
}

// run is one workflow run's state. Handlers only set flags; the loop does the work, so
// builds never overlap.
type run struct {
	in           *DraftInput
	revision     int
	iteration    int
	current      *drafts.Summary
	staleReasons []drafts.StaleReason
	buildErr     string

	pendingBuild bool // a build (first draft, open at a newer revision, rebuild) is due
	building     bool // a build is running now
	pendingStale bool // a new revision arrived: mark the saved draft stale
	discarded    bool
	finished     bool // the final status is recorded
	touched      bool // any message since the last wait: the idle timer restarts
}

func (w *run) state() DraftState {
	s := DraftState{TicketID: w.in.TicketID, Revision: w.revision, Current: w.current, StaleReasons: w.staleReasons, Error: w.buildErr}
	switch {
	case w.discarded:
		s.Status = drafts.StatusDiscarded
	case w.current == nil:
		s.Status = "building"
	case len(w.staleReasons) > 0:
		s.Status = drafts.StatusStale
	default:
		s.Status = w.current.Status
	}
	return s
}

func (w *run) setup(ctx workflow.Context) error {
	if err := workflow.SetQueryHandler(ctx, QueryState, func() (DraftState, error) { return w.state(), nil }); err != nil {
		return err
	}
	revisions := workflow.GetSignalChannel(ctx, SignalRevision)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			var sig RevisionSignal
			revisions.Receive(ctx, &sig)
			w.touched = true
			if sig.Revision > w.revision {
				w.revision = sig.Revision
				if w.current != nil && w.current.Revision < sig.Revision {
					w.staleReasons = append(w.staleReasons, drafts.RevisionReason(w.current.Revision, sig.Revision, sig.UpdatedAt))
					w.pendingStale = true
				}
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

func (w *run) loop(ctx workflow.Context) (*DraftResult, error) {
	for {
		if w.pendingStale && w.current != nil {
			w.pendingStale = false
			w.markStatus(ctx, drafts.StatusStale, w.staleReasons)
		}
		if w.pendingBuild {
			w.pendingBuild, w.building = false, true
			w.build(ctx)
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
			next := *w.in
			next.Revision, next.Iteration, next.Current, next.StaleReason = w.revision, w.iteration, w.current, w.staleReasons
			return nil, workflow.NewContinueAsNewError(ctx, Draft, &next)
		}
	}
}

// finish ends the workflow: discarded by the agent, or closed by the idle timeout.
func (w *run) finish(ctx workflow.Context, idle bool) (*DraftResult, error) {
	status := drafts.StatusDiscarded
	if idle {
		status = drafts.StatusClosed
	}
	if w.current != nil {
		w.markStatus(ctx, status, w.staleReasons)
	}
	w.finished = true
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return nil, err
	}
	return &DraftResult{TicketID: w.in.TicketID, Iteration: w.iteration, Status: status}, nil
}

func (w *run) markStatus(ctx workflow.Context, status string, reasons []drafts.StaleReason) {
	in := activities.StatusInput{TicketID: w.in.TicketID, Iteration: w.current.Iteration, Status: status, Reasons: reasons}
	if err := workflow.ExecuteActivity(dbOptions(ctx), a.MarkStatus, in).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Error("could not record draft status", "ticket", w.in.TicketID, "status", status, "error", err)
	}
}

// open answers the sidebar: the draft for this revision, building it if needed.
func (w *run) open(ctx workflow.Context, req OpenRequest) (DraftState, error) {
	w.touched = true
	if req.Revision > w.revision {
		w.revision = req.Revision
	}
	// Build unless one is due or running: no draft yet (the first build may have failed),
	// or the draft is for an older revision.
	if !w.pendingBuild && !w.building && (w.current == nil || w.current.Revision < w.revision) {
		w.pendingBuild = true
	}
	return w.awaitBuild(ctx, func() bool { return w.current != nil && w.current.Revision >= req.Revision })
}

func (w *run) validateOpen(req OpenRequest) error {
	if req.Revision < 1 {
		return rejected("revision must be 1 or more")
	}
	if w.discarded {
		return rejected("this draft was discarded; start a new one after the workflow ends")
	}
	return nil
}

// rebuild builds a new iteration from the latest revision and current policy. Earlier
// iterations stay in the history and in the database.
func (w *run) rebuild(ctx workflow.Context) (DraftState, error) {
	w.touched = true
	if halted(ctx) {
		return w.state(), rejected("drafting is halted by the kill switch: write this reply by hand")
	}
	before := w.iteration
	w.pendingBuild = true
	return w.awaitBuild(ctx, func() bool { return w.iteration > before })
}

// awaitBuild waits until done(), until a build fails, or until the workflow is closing,
// and answers with the state.
func (w *run) awaitBuild(ctx workflow.Context, done func() bool) (DraftState, error) {
	w.buildErr = ""
	failed := func() bool { return w.buildErr != "" && !w.pendingBuild && !w.building }
	if err := workflow.Await(ctx, func() bool { return done() || failed() || w.finished }); err != nil {
		return DraftState{}, err
	}
	if w.finished && !done() {
		return w.state(), rejected("the draft closed before it was built")
	}
	if !done() {
		return w.state(), temporal.NewApplicationError(w.buildErr, ErrBuildFailed)
	}
	return w.state(), nil
}

// discard ends the draft; it answers once the discarded status is recorded, so a read
// right after sees it.
func (w *run) discard(ctx workflow.Context) (DraftState, error) {
	w.discarded = true
	if err := workflow.Await(ctx, func() bool { return w.finished }); err != nil {
		return DraftState{}, err
	}
	return w.state(), nil
}

func (w *run) validateNotDiscarded() error {
	if w.discarded {
		return rejected("this draft was discarded")
	}
	return nil
}

func (w *run) validateHasDraft(SendCheckRequest) error {
	if w.current == nil {
		return rejected("no draft has been built for this ticket yet")
	}
	return w.validateNotDiscarded()
}

func (w *run) validateEdit(req EditRequest) error {
	if req.Text == "" {
		return rejected("text is empty")
	}
	if len(req.Text) > 20000 {
		return rejected("text is longer than 20,000 characters")
	}
	if w.current == nil {
		return rejected("no draft has been built for this ticket yet")
	}
	return w.validateNotDiscarded()
}

// rejected is a validator's refusal; the API answers it with 409 Conflict.
func rejected(msg string) error { return temporal.NewApplicationError(msg, ErrRejected) }
