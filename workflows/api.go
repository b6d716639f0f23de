// Package workflows holds the DraftWorkflow: one per ticket, from the first draft to send,
// discard or timeout. It only orchestrates: every decision about policy, claims and
// sentences lives in plain packages that activities call.
package workflows

import (
	"time"

	"github.com/supportdraft/supportdraft/drafts"
)

// TaskQueue is the queue the worker polls and the API starts drafts on.
const TaskQueue = "supportdraft-drafts"

// DraftWorkflowID is the one workflow ID per ticket: starting it twice finds the same run.
func DraftWorkflowID(ticketID string) string { return "draft/" + ticketID }

// Update, signal and query names: the contract between the API and the workflow.
const (
	// UpdateOpen is sent with update-with-start by the sidebar: start, or get the draft for
	// this revision (a higher revision records it and rebuilds).
	UpdateOpen = "open"
	// UpdateEdit stores the agent's edited text and answers with its deterministic checks.
	UpdateEdit = "edit"
	// UpdateSendCheck is the send hook's question: is this draft still current?
	UpdateSendCheck = "send-check"
	// UpdateRebuild builds a new iteration from the current revision and current policy.
	UpdateRebuild = "rebuild"
	// UpdateDiscard ends the workflow; the draft stays in the database as discarded.
	UpdateDiscard = "discard"
	// SignalRevision tells a running workflow that the customer wrote again.
	SignalRevision = "revision"
	// QueryState returns the workflow's DraftState.
	QueryState = "state"
)

// Application error types the API maps to HTTP statuses.
const (
	// ErrRejected is a validator's refusal of an update (409).
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
	// LocalModels says the drafter and judge are the embedded deterministic providers:
	// generate, judge and score then run as local activities. Set by whoever starts the
	// draft from its provider configuration; drafts started without it (and every draft
	// started before it existed) run them as regular activities.
	LocalModels bool `json:"local_models,omitempty"`
	// Bucket is the triage bucket the intake funnel filed the message under (refunds,
	// cancellation, …); empty for drafts opened from the sidebar.
	Bucket string `json:"bucket,omitempty"`
	// ForcedReview is why intake forced this draft to careful review (support only in cc or
	// bcc, a review rule matched); empty if nothing did.
	ForcedReview string `json:"forced_review,omitempty"`
	// Carried across continue-as-new.
	Iteration   int                  `json:"iteration,omitempty"`
	Current     *drafts.Summary      `json:"current,omitempty"`
	StaleReason []drafts.StaleReason `json:"stale_reasons,omitempty"`
}

// DraftResult is how the workflow ended.
type DraftResult struct {
	TicketID  string `json:"ticket_id"`
	Iteration int    `json:"iteration"`
	Status    string `json:"status"` // discarded | closed
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

// EditRequest is UpdateEdit's argument.
type EditRequest struct {
	Text string `json:"text"`
}

// SendCheckRequest is UpdateSendCheck's argument: the text the agent is about to send.
type SendCheckRequest struct {
	Text string `json:"text"`
}

// DraftState is what QueryState and most updates answer.
type DraftState struct {
	TicketID     string               `json:"ticket_id"`
	Revision     int                  `json:"revision"` // latest revision the workflow knows
	Status       string               `json:"status"`
	Current      *drafts.Summary      `json:"current,omitempty"`
	StaleReasons []drafts.StaleReason `json:"stale_reasons,omitempty"`
	Error        string               `json:"error,omitempty"` // why the last build failed, if it did
}
