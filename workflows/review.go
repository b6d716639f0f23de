package workflows

import (
	"errors"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/review"
)

// defaultReviewDelay is the review window when DraftInput.ReviewDelay is zero.
const defaultReviewDelay = 10 * time.Minute

// defaultHandOffAttempts is how many times a hand-off is tried when
// DraftInput.HandOffAttempts is zero.
const defaultHandOffAttempts = 8

// enqueue puts the draft just built into the review queue with a fresh window, replacing
// the entry of an earlier iteration (and its window). Called under the lock.
func (w *run) enqueue(ctx workflow.Context) {
	delay := w.in.ReviewDelay
	if delay <= 0 {
		delay = defaultReviewDelay
	}
	threshold := w.in.ReviewThreshold
	if threshold <= 0 {
		threshold = review.LowConfidence
	}
	now := workflow.Now(ctx)
	w.review = &review.Entry{TicketID: w.in.TicketID, Iteration: w.draft.Iteration, State: review.Waiting,
		Bucket: w.in.Bucket, Confidence: w.draft.Confidence, LowConfidence: w.draft.Confidence < threshold,
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
	if !deliver || w.holdStale(ctx, entry) {
		return
	}
	attempts := w.in.HandOffAttempts
	if attempts <= 0 {
		attempts = defaultHandOffAttempts
	}
	opts := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 15 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2,
			MaximumInterval: time.Minute, MaximumAttempts: int32(attempts)},
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
		case errors.As(err, &appErr) && appErr.Type() == activities.ErrHalted:
			// Nothing was delivered: the approval is void and the draft waits in the queue
			// again, so a reviewer approves it once the switch is lifted.
			entry.State, entry.DecidedBy, entry.DecidedAt = review.Waiting, "", nil
			entry.HandOffError = "the kill switch held the hand-off past its retries: approve the draft again once the switch is lifted"
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

// versionHandOffFresh marks the freshness check before a hand-off.
const versionHandOffFresh = "review-handoff-fresh"

// holdStale checks the approved entry's draft against the ticket, account and policy now,
// just before its delivery: a draft gone stale since its approval (a newer policy version,
// a customer reply) is held in the queue with the reasons instead of reaching the help
// desk. A check that cannot run does not hold it: the reviewer approved it, and the help
// desk's own send-check runs again before anything goes out.
func (w *run) holdStale(ctx workflow.Context, entry *review.Entry) (held bool) {
	if workflow.GetVersion(ctx, versionHandOffFresh, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return false
	}
	_ = w.locked(ctx, func() error {
		if w.review != entry || entry.State != review.Approved {
			held = true // replaced or decided meanwhile: nothing to deliver
			return nil
		}
		res := w.checkFresh(ctx)
		if res.Verdict != drafts.VerdictStale {
			return nil
		}
		why := make([]string, len(res.Reasons))
		for i, r := range res.Reasons {
			why[i] = r.Message
		}
		entry.State, entry.HandOffError = review.Held, "stale: "+strings.Join(why, "; ")+"; rebuild the draft"
		w.saveReview(ctx)
		held = true
		return nil
	})
	return held
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
		w.review.HandOffError = "" // a hand-off the kill switch held: this approval tries again
		windowOver := !w.review.WindowOpen(workflow.Now(ctx))
		w.review.Decide(review.Approved, d.By, workflow.Now(ctx))
		w.saveReview(ctx)
		if windowOver {
			// The hand-off starts now, and the answer is the approval.
			w.startWindow()
		}
		return nil
	})
	return w.review, err
}

// override clears the review gate without an approval: the reviewer lets the agent send
// the draft, with a reason kept on the entry; nothing is handed off.
func (w *run) override(ctx workflow.Context, d ReviewDecision) (*review.Entry, error) {
	err := w.locked(ctx, func() error {
		if w.review == nil || w.review.Iteration != w.draft.Iteration {
			return rejected("this draft is not in the review queue: there is no review gate to override")
		}
		if len(w.review.Gate()) == 0 {
			return rejected("the review gate does not hold this draft (state " + w.review.State + "): nothing to override")
		}
		if w.cancelWindow != nil {
			w.cancelWindow()
		}
		w.review.Decide(review.Overridden, d.By, workflow.Now(ctx))
		w.review.OverrideReason = d.Reason
		w.saveReview(ctx)
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
		if gate := w.gate(); len(gate) > 0 && verdict != drafts.VerdictBlocked {
			verdict = drafts.VerdictReviewPending // sent with an override reason (validateSent)
		}
		rec := review.SentReply{TicketID: w.in.TicketID, Iteration: w.draft.Iteration, TextSHA256: req.TextSHA256,
			Edited: req.TextSHA256 != review.TextHash(w.draft.Reply), Verdict: verdict, SentAt: req.SentAt, Agent: req.Agent,
			OverrideReason: req.OverrideReason}
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
	if err := w.validateHasDraft(SendCheckRequest{}); err != nil {
		return err
	}
	if gate := w.gate(); len(gate) > 0 && req.OverrideReason == "" {
		return rejected(review.GateWarning(gate) + ` To record a send that already happened, repeat it with "override_reason" and "agent".`)
	}
	return nil
}

// validateOverride refuses an override without who and why.
func (w *run) validateOverride(d ReviewDecision) error {
	if strings.TrimSpace(d.Reason) == "" {
		return rejected(`field "reason" is required: say why this draft may be sent without approval`)
	}
	return w.validateDecision(d)
}

// gate is why the review gate holds the current draft (review.Entry.Gate); nothing when
// its iteration was never queued.
func (w *run) gate() []drafts.ReviewReason {
	if w.draft == nil || w.review == nil || w.review.Iteration != w.draft.Iteration {
		return nil
	}
	return w.review.Gate()
}
