// Package workflows holds the draft workflow: one per ticket, from the first draft to send,
// discard or timeout. It only orchestrates: every decision about policy, claims and
// sentences lives in plain packages that activities call. draft_api.go is its contract:
// everything a caller (the API, the eval, the bench, the intake funnel) may name.
package workflows

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/review"
)

// TaskQueue is the queue the worker polls and the API starts drafts on.
const TaskQueue = "supportdraft-drafts"

// DraftWorkflowType is the name the draft workflow is registered and started under; every
// recorded history carries it, so it never changes.
const DraftWorkflowType = "Draft"

// DraftWorkflowID is the one workflow ID per ticket of an agent: starting it twice finds
// the same run. The default agent's tickets keep draft/<ticket_id>, the ID help desks and
// dashboards knew before agents existed; another agent's are draft/<agent>/<ticket_id>.
// Ticket IDs hold no "/", so the two forms never meet.
func DraftWorkflowID(agentID, ticketID string) string {
	if agentID == agent.Default {
		return "draft/" + ticketID
	}
	return "draft/" + agentID + "/" + ticketID
}

// DraftWorkflowIDFor is the workflow ID of the ticket of the one agent ctx acts for; a
// context acting for several agents must name one first.
func DraftWorkflowIDFor(ctx context.Context, ticketID string) (string, error) {
	id, err := agent.ID(ctx)
	if err != nil {
		return "", err
	}
	return DraftWorkflowID(id, ticketID), nil
}

// Update names. Each is answered by the workflow under its lock, one at a time.
const (
	// UpdateOpen (OpenRequest → DraftView) is sent with update-with-start: start, or get the
	// draft for this revision; a higher revision is recorded and built.
	UpdateOpen = "open"
	// UpdateEdit (EditRequest → EditResult) stores the agent's text and answers its checks.
	UpdateEdit = "edit"
	// UpdateSendCheck (SendCheckRequest → SendCheckResult) asks the workflow whether this
	// draft is still current. The send hook no longer sends it (see SignalSendChecked): it
	// stays for APIs from before, and the workflow's own check before "sent" is the same.
	UpdateSendCheck = "send-check"
	// UpdateRebuild (no argument → DraftView) builds a new iteration from the latest
	// revision and current policy.
	UpdateRebuild = "rebuild"
	// UpdateDiscard (no argument → DraftState) ends the workflow; the draft stays in the
	// database as discarded.
	UpdateDiscard = "discard"
	// UpdateApprove (ReviewDecision → review.Entry) is a reviewer's approval: the draft goes
	// to the help desk as a draft reply when its review window ends (at once if it has).
	UpdateApprove = "approve"
	// UpdatePull (ReviewDecision → review.Entry) pulls a queued draft back to the agent for
	// editing, during its review window; it leaves the queue.
	UpdatePull = "pull"
	// UpdateKill (ReviewDecision → DraftState) kills a queued draft during its review window
	// and ends the workflow.
	UpdateKill = "kill"
	// UpdateOverride (ReviewDecision with a Reason → review.Entry) is a reviewer clearing the
	// review gate without approving the draft: the agent may send it, nothing is handed off.
	UpdateOverride = "override"
	// UpdateSent (SentRequest → SentResult) is the help desk's report of the reply that went
	// out; it ends the workflow. A draft the review gate holds is refused unless the request
	// carries an override reason.
	UpdateSent = "sent"
)

// SignalRevision (RevisionSignal) tells a running workflow that the customer wrote again.
const SignalRevision = "revision"

// SignalSendChecked (SendCheckedSignal) tells the workflow the freshness verdict the send
// hook was given. The API judges freshness itself, on Postgres reads, and answers the hook
// once the server holds this signal, without waiting for a workflow task: the history
// keeps every verdict, and a stale one turns the draft stale.
const SignalSendChecked = "send-checked"

// SignalStale (StaleSignal) tells the workflow its draft went stale without any send-check:
// a policy version approved since the draft was built replaces one it quotes
// (sendcheck.MarkStale, run by policy import and approve).
const SignalStale = "stale"

// StaleSignal is SignalStale's payload: the iteration found stale and why.
type StaleSignal struct {
	Iteration int                  `json:"iteration"`
	Reasons   []drafts.StaleReason `json:"reasons"`
}

// QueryState (no argument → DraftState) reads the workflow's state.
const QueryState = "state"

// StatusBuilding is DraftState.Status before the first draft is saved; the other statuses
// are the saved draft's (drafts.StatusReady, StatusAbstained, StatusStale, …).
const StatusBuilding = "building"

// Application error types the API maps to HTTP statuses.
const (
	// ErrRejected is an update refused by its validator or by the workflow's state (409).
	ErrRejected = "Rejected"
	// ErrBuildFailed is a draft build that failed after its retries (502).
	ErrBuildFailed = "BuildFailed"
)

// DraftInput starts (or continues as new) a draft workflow.
type DraftInput struct {
	TicketID string `json:"ticket_id"`
	Revision int    `json:"revision"`
	// Replay drafts at the ticket's own time instead of now (evals, re-drafting history).
	Replay bool `json:"replay,omitempty"`
	// IdleTimeout closes a draft nobody touches; zero means 72h.
	IdleTimeout time.Duration `json:"idle_timeout,omitempty"`
	// CheckBudget bounds how long send-check tries before answering unchecked; zero means 2s.
	CheckBudget time.Duration `json:"check_budget,omitempty"`
	// Bucket is the triage bucket the intake funnel filed the message under (refunds,
	// cancellation, …); empty for drafts opened from the sidebar.
	Bucket string `json:"bucket,omitempty"`
	// ForcedReview is why intake forced this draft to careful review (support only in cc or
	// bcc, a review rule matched); empty if nothing did.
	ForcedReview string `json:"forced_review,omitempty"`
	// ReviewDelay is how long a queued draft can be pulled back or killed before it may
	// reach the help desk; zero means 10 minutes.
	ReviewDelay time.Duration `json:"review_delay,omitempty"`
	// ReviewThreshold is the confidence below which a queued draft is marked low confidence
	// and must be reviewed before it is sent (the agent's own); zero means
	// drafts.ReviewThreshold.
	ReviewThreshold float64 `json:"review_threshold,omitempty"`
	// HandOffAttempts is how many times an approved draft's hand-off is tried (the help
	// desk unreachable, the kill switch on) before the entry says why; zero means 8.
	HandOffAttempts int `json:"handoff_attempts,omitempty"`
	// NotifySlack posts each queued iteration to the reviewers' Slack channel (the
	// NotifyReviewers activity). Off in runs started before it existed, so their
	// histories replay unchanged.
	NotifySlack bool `json:"notify_slack,omitempty"`

	// Carried across continue-as-new.
	Iteration   int                  `json:"iteration,omitempty"`
	Draft       *drafts.Saved        `json:"draft,omitempty"`
	StaleReason []drafts.StaleReason `json:"stale_reasons,omitempty"`
	Review      *review.Entry        `json:"review,omitempty"`
}

// DraftResult is how the workflow ended.
type DraftResult struct {
	TicketID  string `json:"ticket_id"`
	Iteration int    `json:"iteration"`
	Status    string `json:"status"` // drafts.StatusDiscarded | StatusClosed | StatusKilled | StatusSent
}

// OpenRequest is UpdateOpen's argument.
type OpenRequest struct {
	Revision int `json:"revision"`
}

// RevisionSignal is SignalRevision's payload: only the number and time, never the text.
type RevisionSignal struct {
	Revision  int       `json:"revision"`
	UpdatedAt time.Time `json:"updated_at"`
}

// EditRequest is UpdateEdit's argument: the agent's text, kept in Postgres by the API
// before the update (store.SaveAgentText), named by ID and SHA-256 so the history never
// holds the words.
type EditRequest struct {
	Ref *drafts.TextRef `json:"ref,omitempty"`
}

// EditResult is UpdateEdit's answer: counts and the text's ID. The sentence-by-sentence
// checks quote the text, so the API reads them from the store (store.TextChecks).
type EditResult = activities.EditChecks

// SendCheckRequest is UpdateSendCheck's argument: the text the agent is about to send, by
// reference as for EditRequest. The freshness check
// does not read the words; the reference ties the verdict in the history to the exact
// text checked. Ref is nil when the API could not keep the text (Postgres down): the
// check then runs, and most likely answers unchecked, without it.
type SendCheckRequest struct {
	Ref *drafts.TextRef `json:"ref,omitempty"`
}

// SendCheckResult is UpdateSendCheck's answer: ok, stale (with reasons) or unchecked.
type SendCheckResult = drafts.SendCheck

// SendCheckedSignal is SignalSendChecked's payload: the iteration judged, the verdict and
// its reasons, and the text checked by reference. Never the words (the guard's unbacked
// sentences quote them: they stay in send_checks).
type SendCheckedSignal struct {
	Iteration int                  `json:"iteration"`
	Verdict   string               `json:"verdict"`
	Reasons   []drafts.StaleReason `json:"reasons,omitempty"`
	Ref       *drafts.TextRef      `json:"ref,omitempty"`
}

// ReviewDecision is the argument of UpdateApprove, UpdatePull, UpdateKill and
// UpdateOverride: who decided, and for an override why.
type ReviewDecision struct {
	By     string `json:"by"`
	Reason string `json:"reason,omitempty"`
}

// SentRequest is UpdateSent's argument. The API hashes the text: the body never enters
// the history.
type SentRequest struct {
	TextSHA256 string    `json:"text_sha256"` // review.TextHash of the text that went out
	Blocked    bool      `json:"blocked"`     // the text still had placeholders when it went out
	SentAt     time.Time `json:"sent_at"`
	Agent      string    `json:"agent"`
	// OverrideReason records why a draft the review gate holds was sent anyway; without
	// it such a report is refused.
	OverrideReason string `json:"override_reason,omitempty"`
}

// SentResult is UpdateSent's answer: what was recorded.
type SentResult struct {
	TicketID  string `json:"ticket_id"`
	Iteration int    `json:"iteration"`
	Status    string `json:"status"`  // drafts.StatusSent
	Edited    bool   `json:"edited"`  // the text differs from the draft's reply
	Verdict   string `json:"verdict"` // the send-check verdict at the time it was reported
}

// DraftView is the draft as an agent reads it: what UpdateOpen and UpdateRebuild answer,
// what GET /v1/drafts/{ticket} and `supportdraft draft --json` print. It is the saved
// record with its struck sentences listed apart and the workflow that owns it.
type DraftView struct {
	drafts.Saved
	Struck     []guard.SentenceResult `json:"struck"`
	WorkflowID string                 `json:"workflow_id"`
	// TemporalUI links the workflow's history; the API fills it from its configuration.
	TemporalUI string `json:"temporal_ui,omitempty"`
	// Review is the draft's place in the review queue, when the workflow answers.
	Review *review.Entry `json:"review,omitempty"`
}

// NewDraftView is the view of a saved draft record of an agent.
func NewDraftView(agentID string, r *drafts.Saved) *DraftView {
	v := &DraftView{Saved: *r, Struck: []guard.SentenceResult{}, WorkflowID: DraftWorkflowID(agentID, r.TicketID)}
	if v.StaleReasons == nil {
		v.StaleReasons = []drafts.StaleReason{}
	}
	for _, s := range r.Sentences {
		if !s.Kept {
			v.Struck = append(v.Struck, s)
		}
	}
	return v
}

// LinkTemporalUI sets the view's link to its workflow in the Temporal Web UI at base.
func (v *DraftView) LinkTemporalUI(base, namespace string) {
	if base != "" {
		v.TemporalUI = fmt.Sprintf("%s/namespaces/%s/workflows/%s", base, namespace, url.PathEscape(v.WorkflowID))
	}
}

// DraftState is what QueryState and UpdateDiscard answer: small, no text.
type DraftState struct {
	TicketID     string               `json:"ticket_id"`
	Revision     int                  `json:"revision"` // latest revision the workflow knows
	Status       string               `json:"status"`
	Current      *drafts.Summary      `json:"current,omitempty"`
	StaleReasons []drafts.StaleReason `json:"stale_reasons,omitempty"`
	Error        string               `json:"error,omitempty"` // why the last build failed, if it did
	Review       *review.Entry        `json:"review,omitempty"`
}
