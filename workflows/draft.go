package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/temporalclient"
)

// Continue as new past this many history events, to keep a long-lived draft's history
// small (Temporal also suggests it on its own limits).
const maxHistoryEvents = 2000

// DraftWorkflow is the draft workflow with the one fact it takes from its worker: whether
// the drafter and judge are the embedded ones. Only the worker knows that, so whoever
// starts a draft never says it. The worker registers Run under DraftWorkflowType.
type DraftWorkflow struct {
	LocalModels bool
}

// Run is one ticket's draft: build it when opened (the API starts it with update-with-start
// "open") and put it in the review queue (review.go), then answer the agent (edit,
// send-check, rebuild, discard), reviewers (approve, pull, kill), the help desk (sent) and
// new ticket revisions, until a discard, a kill, the sent event or the idle timeout ends it. Each update does its own work
// under the run's lock, so builds never overlap and a message never sees half a build;
// Run itself only waits for the end and continues as new when the history grows long.
func (d DraftWorkflow) Run(ctx workflow.Context, in *DraftInput) (*DraftResult, error) {
	w := &run{state: newState(in), lock: workflow.NewMutex(ctx), root: ctx, review: in.Review}
	w.agentID = temporalclient.WorkflowAgents(ctx)[0]
	// Recorded once per run, so a worker restarted with other providers still replays it.
	if err := workflow.SideEffect(ctx, func(workflow.Context) any { return d.LocalModels }).Get(&w.localModels); err != nil {
		return nil, err
	}
	if err := w.setup(ctx); err != nil {
		return nil, err
	}
	if w.review != nil && (w.review.State == review.Waiting || w.review.State == review.Approved) {
		w.startWindow() // continued as new with a draft in the queue
	}
	return w.wait(ctx)
}

// run is one workflow run: the draft's state, the lock every handler holds while it works,
// and how the run ends.
type run struct {
	*state
	root    workflow.Context // the run's own context, for the review window's timer
	lock    workflow.Mutex
	ended   string // the final draft status (discarded, closed, killed, sent) once the run is ending
	touched bool   // a message arrived since the last wait: the idle timer restarts

	review       *review.Entry // the current draft's place in the review queue
	cancelWindow workflow.CancelFunc
}

func (w *run) setup(ctx workflow.Context) error {
	if err := workflow.SetQueryHandler(ctx, QueryState, func() (DraftState, error) { return w.snapshotNow(), nil }); err != nil {
		return err
	}
	receiveEach(ctx, SignalRevision, w.onRevision)
	receiveEach(ctx, SignalSendChecked, w.onSendChecked)
	receiveEach(ctx, SignalStale, w.onStale)
	handlers := []struct {
		name      string
		handler   any
		validator any
	}{
		{UpdateOpen, w.open, w.validateOpen},
		{UpdateEdit, w.edit, w.validateEdit},
		{UpdateSendCheck, w.sendCheck, w.validateHasDraft},
		{UpdateRebuild, w.rebuild, w.validateOpenRun},
		{UpdateDiscard, w.discard, w.validateOpenRun},
		{UpdateApprove, w.approve, w.validateDecision},
		{UpdatePull, w.pull, w.validateDecision},
		{UpdateKill, w.kill, w.validateDecision},
		{UpdateOverride, w.override, w.validateOverride},
		{UpdateSent, w.sent, w.validateSent},
	}
	for _, h := range handlers {
		if err := workflow.SetUpdateHandlerWithOptions(ctx, h.name, h.handler, workflow.UpdateHandlerOptions{Validator: h.validator}); err != nil {
			return err
		}
	}
	return nil
}

// wait restarts the idle timer on every message until the run ends: discarded, or closed
// by the timer. Past maxHistoryEvents it continues as new with the draft's state.
func (w *run) wait(ctx workflow.Context) (*DraftResult, error) {
	for w.ended == "" {
		w.touched = false
		active, err := workflow.AwaitWithTimeout(ctx, w.in.IdleTimeout, func() bool { return w.touched || w.ended != "" })
		if err != nil {
			return nil, err
		}
		if !active {
			if err := w.end(ctx, drafts.StatusClosed); err != nil {
				return nil, err
			}
			break
		}
		if info := workflow.GetInfo(ctx); w.ended == "" && (info.GetContinueAsNewSuggested() || info.GetCurrentHistoryLength() > maxHistoryEvents) {
			if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
				return nil, err
			}
			w.in.Review = w.review
			return nil, w.continueAsNew(ctx)
		}
	}
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return nil, err
	}
	return &DraftResult{TicketID: w.in.TicketID, Iteration: w.iteration, Status: w.ended}, nil
}

// end records the final status on the saved draft, under the lock, so no handler is half
// way through a build or a check when it lands.
func (w *run) end(ctx workflow.Context, status string) error {
	if err := w.lock.Lock(ctx); err != nil {
		return err
	}
	defer w.lock.Unlock()
	w.endLocked(ctx, status)
	return nil
}

// endLocked ends the run with status; the caller holds the lock.
func (w *run) endLocked(ctx workflow.Context, status string) {
	if w.ended != "" {
		return
	}
	w.ended = status
	if w.draft != nil {
		w.markStatus(ctx, status, w.staleReasons)
	}
	w.leaveQueue(ctx, status)
}

// snapshotNow is the state QueryState answers.
func (w *run) snapshotNow() DraftState {
	status := w.ended
	if status == "" {
		status = w.status()
	}
	s := w.snapshot(status)
	s.Review = w.review
	return s
}

// locked runs fn under the run's lock, after noting the message for the idle timer. A
// message that waited for the lock while the run ended is refused.
func (w *run) locked(ctx workflow.Context, fn func() error) error {
	w.touched = true
	if err := w.lock.Lock(ctx); err != nil {
		return err
	}
	defer w.lock.Unlock()
	if w.ended != "" {
		return rejected("this draft was " + w.ended)
	}
	return fn()
}

// onRevision handles SignalRevision: a newer revision makes an older draft stale.
func (w *run) onRevision(ctx workflow.Context, sig RevisionSignal) {
	_ = w.locked(ctx, func() error {
		if w.noteRevision(sig) {
			w.markStatus(ctx, drafts.StatusStale, w.staleReasons)
		}
		return nil
	})
}

// onSendChecked handles SignalSendChecked: a stale verdict on the current iteration turns
// the draft stale, as the workflow's own check would. A verdict on an iteration a rebuild
// has replaced since (the signal waited for the lock) says nothing about the new draft.
func (w *run) onSendChecked(ctx workflow.Context, sig SendCheckedSignal) {
	_ = w.locked(ctx, func() error {
		if sig.Verdict == drafts.VerdictStale && w.draft != nil && w.draft.Iteration == sig.Iteration {
			w.staleReasons = sig.Reasons
			w.markStatus(ctx, drafts.StatusStale, sig.Reasons)
		}
		return nil
	})
}

// onStale handles SignalStale: the current iteration turns stale with the reasons; a
// signal about an iteration a rebuild has replaced says nothing about the new draft.
func (w *run) onStale(ctx workflow.Context, sig StaleSignal) {
	_ = w.locked(ctx, func() error {
		if w.draft != nil && w.draft.Iteration == sig.Iteration && len(sig.Reasons) > 0 {
			w.staleReasons = sig.Reasons
			w.markStatus(ctx, drafts.StatusStale, sig.Reasons)
		}
		return nil
	})
}

// open answers the sidebar: the draft for this revision, building it if none is.
func (w *run) open(ctx workflow.Context, req OpenRequest) (*DraftView, error) {
	var view *DraftView
	err := w.locked(ctx, func() error {
		w.revision = max(w.revision, req.Revision)
		if w.draft == nil || w.draft.Revision < w.revision {
			if err := w.buildQueued(ctx); err != nil {
				return err
			}
		}
		view = w.view()
		return nil
	})
	return view, err
}

// buildQueued builds an iteration and puts it in the review queue; a failed build is the
// update's error (502).
func (w *run) buildQueued(ctx workflow.Context) error {
	if err := w.build(ctx); err != nil {
		return buildFailed(err.Error())
	}
	w.enqueue(ctx)
	return nil
}

// view is the current draft with its place in the review queue, as UpdateOpen and
// UpdateRebuild answer it.
func (w *run) view() *DraftView {
	v := NewDraftView(w.agentID, w.draft)
	v.Review = w.review
	return v
}

// rebuild builds a new iteration from the latest revision and current policy. Earlier
// iterations stay in the history and in the database.
func (w *run) rebuild(ctx workflow.Context) (*DraftView, error) {
	var view *DraftView
	err := w.locked(ctx, func() error {
		if halted(ctx) {
			return rejected("drafting is halted by the kill switch: write this reply by hand")
		}
		if err := w.buildQueued(ctx); err != nil {
			return err
		}
		view = w.view()
		return nil
	})
	return view, err
}

// edit stores the agent's text and answers with the deterministic checks on it.
func (w *run) edit(ctx workflow.Context, req EditRequest) (EditResult, error) {
	var res EditResult
	err := w.locked(ctx, func() (err error) {
		res, err = w.saveEdit(ctx, req)
		return err
	})
	return res, err
}

// sendCheck answers the send hook with the freshness of the current draft. A check that
// arrives during a rebuild waits for it and checks the new draft.
func (w *run) sendCheck(ctx workflow.Context, _ SendCheckRequest) (SendCheckResult, error) {
	var res SendCheckResult
	err := w.locked(ctx, func() error {
		res = w.checkFresh(ctx)
		return nil
	})
	return res, err
}

// discard ends the draft; it answers once the discarded status is recorded, so a read
// right after sees it.
func (w *run) discard(ctx workflow.Context) (DraftState, error) {
	w.touched = true
	if err := w.end(ctx, drafts.StatusDiscarded); err != nil {
		return DraftState{}, err
	}
	return w.snapshotNow(), nil
}

func (w *run) validateOpen(req OpenRequest) error {
	if req.Revision < 1 {
		return rejected("revision must be 1 or more")
	}
	if w.ended != "" {
		return rejected("this draft was " + w.ended + "; start a new one after the workflow ends")
	}
	return nil
}

func (w *run) validateOpenRun() error {
	if w.ended != "" {
		return rejected("this draft was " + w.ended)
	}
	return nil
}

func (w *run) validateHasDraft(SendCheckRequest) error {
	if w.draft == nil {
		return rejected("no draft has been built for this ticket yet")
	}
	return w.validateOpenRun()
}

func (w *run) validateEdit(req EditRequest) error {
	if err := validateEditText(req); err != nil {
		return err
	}
	return w.validateHasDraft(SendCheckRequest{})
}

// receiveEach hands every signal named name to handle, in arrival order, for the life of
// the run.
func receiveEach[T any](ctx workflow.Context, name string, handle func(workflow.Context, T)) {
	ch := workflow.GetSignalChannel(ctx, name)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			var sig T
			ch.Receive(ctx, &sig)
			handle(ctx, sig)
		}
	})
}
