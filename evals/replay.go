package evals

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"go.temporal.io/sdk/client"
	"golang.org/x/term"

	"github.com/supportdraft/supportdraft/evals/dataset"
	"github.com/supportdraft/supportdraft/workflows"
)

// replay drafts one ticket in one arm, exactly as the sidebar would open it but at the
// ticket's own time (Replay), reads the saved draft back and discards the workflow.
//
// Both arms share one scratch store, and drafts are keyed by ticket ID, so each arm saves
// its own copy of the ticket under "<arm>/<ticket_id>". Nothing in drafting reads the ID
// beyond loading the ticket, so the copy drafts exactly as the original would.
func (r *replayer) replay(ctx context.Context, a *arm, t *dataset.Labelled) Outcome {
	o := Outcome{Ticket: t}
	ctx, cancel := context.WithTimeout(ctx, ticketTimeout)
	defer cancel()
	cp := t.Ticket // the label never reaches the store or the workflow
	cp.TicketID = a.name + "/" + t.TicketID
	if err := r.store.SaveTicket(ctx, &cp); err != nil {
		o.Err = err.Error()
		return o
	}
	workflowID := "eval-" + r.runID + "/" + cp.TicketID
	in := &workflows.DraftInput{TicketID: cp.TicketID, Revision: t.Revision, Replay: true, IdleTimeout: ticketTimeout}
	view, openErr := workflows.Open(ctx, r.temporal, workflowID, a.queue, in)
	if openErr == nil {
		rec := view.Saved
		rec.TicketID = t.TicketID
		o.Iteration = &rec
	} else {
		o.Err = fmt.Sprintf("workflow %s: %v", workflowID, openErr)
	}
	r.discard(ctx, workflowID)
	return o
}

// discard ends the draft workflow the way an agent would. If that fails (the build never
// finished, the update was rejected) the workflow is terminated, so an eval leaves nothing
// running on the server once its workers stop. Either way the draft was already read, so
// the measurement stands.
func (r *replayer) discard(ctx context.Context, workflowID string) {
	h, err := r.temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: workflowID, UpdateName: workflows.UpdateDiscard, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err != nil {
		// A fresh context: the ticket's may be what ran out.
		tctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = r.temporal.TerminateWorkflow(tctx, workflowID, "", "eval: discard failed: "+err.Error())
	}
}

// progress returns a function to call once per finished draft; it is safe to call from
// many goroutines. On a terminal it draws a bar on w; anywhere else (a CI log, a file) it
// prints a plain line at every tenth of the way, so logs stay readable.
func progress(w io.Writer, total int, hidden bool) func() {
	if hidden || w == io.Discard {
		return func() {}
	}
	var mu sync.Mutex
	if f, ok := w.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		done, step := 0, max(total/10, 1)
		return func() {
			mu.Lock()
			defer mu.Unlock()
			done++
			if done%step == 0 || done == total {
				fmt.Fprintf(w, "replaying drafts (system + baseline): %d/%d\n", done, total)
			}
		}
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("replaying drafts (system + baseline)"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("drafts"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
	)
	return func() {
		mu.Lock()
		defer mu.Unlock()
		_ = bar.Add(1)
	}
}
