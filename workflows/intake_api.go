package workflows

import (
	"fmt"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/inbox"
)

// The intake workflow's contract: one workflow per inbound message runs the funnel
// (duplicate and kill switch, first responses only, automated mail and rules, recipients,
// triage) and starts or joins the ticket's draft workflow for the survivors. It runs on
// TaskQueue, on the same workers as drafts: every step but a remote model's triage is a
// local activity costing microseconds.

// IntakeWorkflowID is the workflow ID of one inbound message of an agent: its message ID.
// Temporal refuses a second start with the same ID (the reuse policy in StartIntake),
// which is what makes a redelivered webhook a no-op. scope separates replays from live
// traffic and from each other; live intake uses "". The default agent's messages keep
// intake/<message_id>; another agent's are intake/<agent>/<message_id>, as in
// DraftWorkflowID.
func IntakeWorkflowID(scope, agentID, messageID string) string {
	id := "intake/"
	if scope != "" {
		id += scope + "/"
	}
	if agentID != agent.Default {
		id += agentID + "/"
	}
	return id + messageID
}

// IntakeRunID is the workflow ID of a message's intake after halts runs of it were
// skipped by the kill switch: the plain IntakeWorkflowID before any, then a new ID per
// halt. A redelivery of a message the kill switch skipped is then processed, not refused
// as a duplicate; a redelivery of one the funnel did process still meets its ID.
func IntakeRunID(scope, agentID, messageID string, halts int) string {
	if halts == 0 {
		return IntakeWorkflowID(scope, agentID, messageID)
	}
	return fmt.Sprintf("%s/after-halt-%d", IntakeWorkflowID(scope, agentID, messageID), halts)
}

// IntakeInput starts an intake workflow: the message's IDs and thread facts, never its text
// (activities load the stored message by ID).
type IntakeInput struct {
	MessageID string       `json:"message_id"`
	ThreadID  string       `json:"thread_id"`
	Thread    inbox.Thread `json:"thread"`
	// RemoteTriage runs triage as a regular activity (a model over the network, bounded
	// timeout); otherwise the local classifier runs as a local activity.
	RemoteTriage bool `json:"remote_triage,omitempty"`
	// Draft starts or joins the ticket's draft workflow for a surviving message. Replays
	// without --draft leave it off and only decide.
	Draft bool `json:"draft"`
}

// IntakeResult is the funnel's decision for the message.
type IntakeResult struct {
	inbox.Decision
	// TriageFailedOpen is true when triage errored or timed out and the message was
	// treated as needing a response.
	TriageFailedOpen bool `json:"triage_failed_open,omitempty"`
	// TicketID and Revision name the ticket revision a surviving message became, once its
	// draft workflow was started or joined.
	TicketID string `json:"ticket_id,omitempty"`
	Revision int    `json:"revision,omitempty"`
	// DraftError says why the draft workflow could not be reached after its retries; the
	// decision stands and the message stays with people.
	DraftError string `json:"draft_error,omitempty"`
}
