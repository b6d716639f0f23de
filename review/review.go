// Package review holds the review queue's domain: the states a finished draft moves
// through between its build and the customer, what a queue entry records, and the facts
// kept about the reply that was finally sent. Auto-send is off: every draft waits for a
// person's approval, and nothing is handed to the help desk before its review window ends.
package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/text"
)

// Queue entry states.
const (
	Waiting   = "waiting"    // in the queue, not approved yet
	Approved  = "approved"   // approved during the window: handed off when it ends
	HandedOff = "handed_off" // approved and the window over: the help desk has it as a draft reply
	// Recorded: approved and the window over, but no help desk URL is configured: the
	// approval is recorded here and nobody received the draft.
	Recorded = "recorded"
	// HandOffFailed: the help desk refused the draft, or stayed unreachable through the
	// retries; Entry.HandOffError says why, and a person passes the draft on.
	HandOffFailed = "handoff_failed"
	// Held: approved, but the draft went stale before its hand-off (HandOffError says
	// why): it stays in the queue, nothing is delivered, and a rebuild queues the new draft.
	Held = "held"
	// Overridden: a reviewer let the draft be sent without approving it, with a reason
	// (OverrideReason): the review gate is cleared, nothing is handed off.
	Overridden = "overridden"
	Pulled     = "pulled" // pulled back to the agent for editing: out of the queue
	Killed     = "killed" // killed by a reviewer: the workflow ended
	Sent       = "sent"   // the help desk reported the reply that went out
	Closed     = "closed" // discarded by the agent or closed by the idle timeout
)

// LowConfidence marks drafts a reviewer should read closely: the forced-review threshold
// the eval's calibration chose (drafts.ReviewThreshold;
// docs/decisions/003-review-threshold.md), so the queue and the eval speak of the same line.
const LowConfidence = drafts.ReviewThreshold

// Entry is one draft's place in the queue: the current iteration of a ticket's draft.
type Entry struct {
	TicketID   string  `json:"ticket_id"`
	Iteration  int     `json:"iteration"`
	State      string  `json:"state"`
	Bucket     string  `json:"bucket,omitempty"`
	Confidence float64 `json:"confidence"`
	// LowConfidence: Confidence is below LowConfidence.
	LowConfidence bool `json:"low_confidence"`
	// ForcedReview is why intake forced this draft to review; empty if nothing did.
	ForcedReview string    `json:"forced_review,omitempty"`
	QueuedAt     time.Time `json:"queued_at"`
	// ReviewUntil ends the window during which the draft can be pulled back or killed;
	// nothing reaches the help desk before it.
	ReviewUntil time.Time  `json:"review_until"`
	DecidedBy   string     `json:"decided_by,omitempty"`
	DecidedAt   *time.Time `json:"decided_at,omitempty"`
	// HandOffError is why the hand-off failed (State HandOffFailed) or was held (Held), or
	// why an approved draft waits again (Waiting: the kill switch held its hand-off).
	HandOffError string `json:"handoff_error,omitempty"`
	// OverrideReason is the reviewer's reason for clearing the gate without approval
	// (State Overridden).
	OverrideReason string `json:"override_reason,omitempty"`
}

// Gate lists why the entry's draft must be reviewed before it is sent: a forced-review
// reason from intake (a review rule, or support only copied), or confidence below
// LowConfidence. Nothing when neither applies or a reviewer cleared the gate by approving
// the draft or overriding it.
func (e *Entry) Gate() []drafts.ReviewReason {
	switch e.State {
	case Approved, HandedOff, Recorded, HandOffFailed, Held, Overridden:
		return nil
	}
	var out []drafts.ReviewReason
	if e.ForcedReview != "" {
		out = append(out, drafts.ReviewReason{Kind: "forced_review", Message: "intake forced review: " + e.ForcedReview})
	}
	if e.LowConfidence {
		out = append(out, drafts.ReviewReason{Kind: "low_confidence",
			Message: fmt.Sprintf("confidence %.2f is below the review threshold", e.Confidence)})
	}
	return out
}

// GateWarning is what the agent reads when the review gate holds a draft.
func GateWarning(reasons []drafts.ReviewReason) string {
	why := make([]string, len(reasons))
	for i, r := range reasons {
		why[i] = r.Message
	}
	return "A reviewer must approve this draft before it is sent (" + strings.Join(why, "; ") +
		"). Ask a reviewer to approve it in the review queue, or to override the gate with a reason."
}

// WindowOpen reports whether the review window is still open at now.
func (e *Entry) WindowOpen(now time.Time) bool { return now.Before(e.ReviewUntil) }

// Decide records a reviewer's decision.
func (e *Entry) Decide(state, by string, at time.Time) {
	e.State, e.DecidedBy, e.DecidedAt = state, by, &at
}

// Item is a row of GET /v1/review/queue: the entry, whether its window is still open, and
// the draft's reply and status for the reviewer to read.
type Item struct {
	Entry
	// AgentID is the agent whose draft this is.
	AgentID    string `json:"agent_id"`
	WindowOpen bool   `json:"window_open"`
	Reply      string `json:"reply"`
	Status     string `json:"status"`
	// BuildError is why the ticket's last rebuild failed (Status is then failed): the
	// queued iteration is the last good one.
	BuildError string `json:"build_error,omitempty"`
}

// SentReply is what is kept about a reply the help desk sent: a hash of its text, never
// the text, and whether it differs from the draft.
type SentReply struct {
	TicketID   string    `json:"ticket_id"`
	Iteration  int       `json:"iteration"`
	TextSHA256 string    `json:"text_sha256"`
	Edited     bool      `json:"edited"`
	Verdict    string    `json:"verdict"` // the send-check verdict at the time it was reported
	SentAt     time.Time `json:"sent_at"`
	Agent      string    `json:"agent"`
	// OverrideReason is why a draft the review gate held was sent anyway (Verdict is then
	// review_pending); Agent says who.
	OverrideReason string `json:"override_reason,omitempty"`
}

// TextHash is the SHA-256 of a reply with its whitespace normalised, so that a help desk
// re-wrapping lines does not count as an edit.
func TextHash(reply string) string {
	sum := sha256.Sum256([]byte(text.CollapseSpace(reply)))
	return hex.EncodeToString(sum[:])
}
