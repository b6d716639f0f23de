package workflows

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/review"
)

// defaultReviewDelay is the review window when DraftInput.ReviewDelay is zero.
const defaultReviewDelay = 10 * time.Minute

// enqueue puts the draft just built into the review queue with a fresh window, replacing
// the entry of an earlier iteration (and its window). Called under the lock.
func (w *run) enqueue(ctx workflow.Context) {
	delay := w.in.ReviewDelay
	if delay <= 0 {
		delay = defaultReviewDelay
	}
	now := workflow.Now(ctx)
	w.review = &review.Entry{TicketID: w.in.TicketID, Iteration: w.draft.Iteration, State: review.Waiting,
		Bucket: w.in.Bucket, Confidence: w.draft.Confidence, LowConfidence: w.draft.Confidence < review.LowConfidence,
		ForcedReview: w.in.ForcedReview, QueuedAt: now, ReviewUntil: now.Add(delay)}
	w.saveReview(ctx)
	w.startWindow()
	if w.in.NotifySlack {
		w.notifyReviewers(*w.review)
	}
}

// notifyReviewers posts the entry to Slack beside the workflow's other work: a slow or
// failing Slack delays no decision, and a failure after the retries is only logged (the
// review queue page still lists the draft).
func (w *run) notifyReviewers(entry review.Entry) {
	workflow.Go(w.root, func(ctx workflow.Context) {
		opts := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: 15 * time.Second,
			RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2,
				MaximumInterval: 30 * time.Second, MaximumAttempts: 5},
		})
		in := activities.NotifyInput{TicketID: entry.TicketID, Iteration: entry.Iteration, Bucket: entry.Bucket, ForcedReview: entry.ForcedReview}
		if err := workflow.ExecuteActivity(opts, a.NotifyReviewers, in).Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Warn("could not post the queued draft to Slack", "ticket", entry.TicketID, "iteration", entry.Iteration, "error", err)
		}
	})
}

// startWindow runs the current entry's review window: when it ends, an approved draft is
// handed to the help desk; one not yet approved waits in the queue for its approval. A
// newer entry, a pull or the end of the run cancels it.
func (w *run) startWindow() {
	if w.cancelWindow != nil {
		w.cancelWindow()
	}
	ctx, cancel := workflow.WithCancel(w.root)
	w.cancelWindow = cancel
	entry := w.review
	workflow.Go(ctx, func(ctx workflow.Context) {
		if left := entry.ReviewUntil.Sub(workflow.Now(ctx)); left > 0 {
			if err := workflow.Sleep(ctx, left); err != nil {
				return // cancelled
			}
		}
		w.handOff(ctx, entry)
	})
}

// handOff gives an approved entry to the help desk once its window is over. The delivery
// runs outside the lock, so send-checks and edits are answered while the help desk is
// slow; an entry that changed meanwhile (sent, closed, a newer iteration) is left as it is.
func (w *run) handOff(ctx workflow.Context, entry *review.Entry) {
	deliver := false
	_ = w.locked(ctx, func() error {
		if w.review != entry || entry.State != review.Approved {
			return nil
		}
		deliver = true
		return nil
	})
	if !deliver {
		return
	}
	opts := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 15 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2,
			MaximumInterval: time.Minute, MaximumAttempts: 8},
	})
	in := activities.HandOffInput{TicketID: entry.TicketID, Iteration: entry.Iteration, ApprovedBy: entry.DecidedBy}
	if entry.DecidedAt != nil {
		in.ApprovedAt = *entry.DecidedAt
	}
	var res activities.HandOffResult
	err := workflow.ExecuteActivity(opts, a.HandOff, in).Get(ctx, &res)
	if ctx.Err() != nil {
		return // the run ended or the entry was replaced: nothing to record here
	}
	_ = w.locked(ctx, func() error {
		if w.review != entry || entry.State != review.Approved {
			return nil
		}
		var appErr *temporal.ApplicationError
		switch {
		case errors.As(err, &appErr):
			entry.State, entry.HandOffError = review.HandOffFailed, appErr.Message()
		case err != nil:
			entry.State, entry.HandOffError = review.HandOffFailed, err.Error()
		case res.Delivered:
			entry.State = review.HandedOff
		default:
			entry.State = review.Recorded
		}
		w.saveReview(ctx)
		return nil
	})
}

func (w *run) saveReview(ctx workflow.Context) {
	if err := workflow.ExecuteLocalActivity(localDBOptions(ctx), a.SaveReview, *w.review).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Error("could not record the review queue entry", "ticket", w.in.TicketID, "state", w.review.State, "error", err)
	}
}

// leaveQueue records why the draft left the queue when the run ends. Called under the lock.
func (w *run) leaveQueue(ctx workflow.Context, status string) {
	if w.review == nil || w.review.State == review.Killed {
		return
	}
	if w.cancelWindow != nil {
		w.cancelWindow()
	}
	switch status {
	case drafts.StatusSent:
		w.review.State = review.Sent
	case drafts.StatusDiscarded, drafts.StatusClosed:
		w.review.State = review.Closed
	}
	w.saveReview(ctx)
}

// approve hands the draft to the help desk as a draft reply when its window ends, or at
// once when it is over.
func (w *run) approve(ctx workflow.Context, d ReviewDecision) (*review.Entry, error) {
	err := w.locked(ctx, func() error {
		if w.review == nil || w.review.State != review.Waiting {
			return rejected("only a draft waiting in the review queue can be approved")
		}
		if w.review.WindowOpen(workflow.Now(ctx)) {
			w.review.Decide(review.Approved, d.By, workflow.Now(ctx))
			w.saveReview(ctx)
			return nil
		}
		// The window is over: the hand-off starts now, and the answer is the approval.
		w.review.Decide(review.Approved, d.By, workflow.Now(ctx))
		w.saveReview(ctx)
		w.startWindow()
		return nil
	})
	return w.review, err
}

// pull takes the draft out of the queue, back to the agent for editing.
func (w *run) pull(ctx workflow.Context, d ReviewDecision) (*review.Entry, error) {
	err := w.locked(ctx, func() error {
		if err := w.inWindow(ctx, "pulled back"); err != nil {
			return err
		}
		w.cancelWindow()
		w.review.Decide(review.Pulled, d.By, workflow.Now(ctx))
		w.saveReview(ctx)
		return nil
	})
	return w.review, err
}

// kill ends the draft from the review queue.
func (w *run) kill(ctx workflow.Context, d ReviewDecision) (DraftState, error) {
	err := w.locked(ctx, func() error {
		if err := w.inWindow(ctx, "killed"); err != nil {
			return err
		}
		w.review.Decide(review.Killed, d.By, workflow.Now(ctx))
		w.saveReview(ctx)
		w.endLocked(ctx, drafts.StatusKilled)
		return nil
	})
	return w.snapshotNow(), err
}

// inWindow refuses a pull or kill outside the entry's review window.
func (w *run) inWindow(ctx workflow.Context, what string) error {
	if w.review == nil || (w.review.State != review.Waiting && w.review.State != review.Approved) {
		return rejected("only a draft in the review queue can be " + what)
	}
	if !w.review.WindowOpen(workflow.Now(ctx)) {
		return rejected("the review window of this draft is over: it can no longer be " + what)
	}
	return nil
}

// sent records the reply the help desk sent: its hash, whether it differs from the draft,
// and the send-check verdict, then ends the workflow.
func (w *run) sent(ctx workflow.Context, req SentRequest) (SentResult, error) {
	var res SentResult
	err := w.locked(ctx, func() error {
		verdict := drafts.VerdictBlocked
		if !req.Blocked {
			verdict = w.checkFresh(ctx).Verdict
		}
		rec := review.SentReply{TicketID: w.in.TicketID, Iteration: w.draft.Iteration, TextSHA256: req.TextSHA256,
			Edited: req.TextSHA256 != review.TextHash(w.draft.Reply), Verdict: verdict, SentAt: req.SentAt, Agent: req.Agent}
		if err := workflow.ExecuteLocalActivity(localDBOptions(ctx), a.RecordSent, rec).Get(ctx, nil); err != nil {
			return err
		}
		w.endLocked(ctx, drafts.StatusSent)
		res = SentResult{TicketID: w.in.TicketID, Iteration: rec.Iteration, Status: drafts.StatusSent, Edited: rec.Edited, Verdict: verdict}
		return nil
	})
	return res, err
}

func (w *run) validateDecision(d ReviewDecision) error {
	if d.By == "" {
		return rejected("say who decided (by)")
	}
	return w.validateOpenRun()
}

func (w *run) validateSent(req SentRequest) error {
	if len(req.TextSHA256) != 64 {
		return rejected("text_sha256 must be the SHA-256 of the sent text, in hex")
	}
	return w.validateHasDraft(SendCheckRequest{})
}
