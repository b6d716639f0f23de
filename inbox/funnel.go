package inbox

import (
	"fmt"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/ticket"
)

// Steps name the funnel's recorded steps (funnel_events.stage); a step's outcome is one of
// the Outcome constants.
const (
	StepDuplicate     = "duplicate"
	StepKillSwitch    = "kill_switch"
	StepFirstResponse = "first_response"
	StepFilters       = "filters" // automated mail, then the domain and keyword rules
	StepRecipients    = "recipients"
	StepTriage        = "triage"
	StepDraft         = "draft"
)

// Outcomes of a step.
const (
	OutcomePass       = "pass"        // the message goes on to the next step
	OutcomeSkip       = "skip"        // the funnel stops here: no draft
	OutcomeReview     = "review"      // goes on, forced to review
	OutcomeFailedOpen = "failed_open" // triage failed: treated as needing a response
	OutcomeStarted    = "started"     // the draft workflow was started or joined
	OutcomeFailed     = "failed"      // the draft workflow could not be reached
)

// Event is one step's decision as funnel_events records it: no message text, only what
// was decided and why.
type Event struct {
	MessageID string    `json:"message_id"`
	ThreadID  string    `json:"thread_id"`
	Step      string    `json:"step"`
	Outcome   string    `json:"outcome"`
	Reason    string    `json:"reason"`
	Bucket    string    `json:"bucket,omitempty"`
	At        time.Time `json:"at"`
}

// StepResult is what a screening step answers: its outcome, and for a skip or a forced
// review the decision stage it stands for.
type StepResult struct {
	Outcome string `json:"outcome"`
	Stage   string `json:"stage,omitempty"`
	Reason  string `json:"reason"`
}

// FirstResponse is layer 2: the agent only writes first responses. A thread an agent has
// answered belongs to its rep. A customer writing again before any reply joins the open
// draft as a new revision.
func FirstResponse(t Thread) StepResult {
	switch {
	case t.AgentReplied:
		return StepResult{Outcome: OutcomeSkip, Stage: StageNotFirst, Reason: "an agent already replied on this thread: it belongs to its rep"}
	case t.EarlierMessages > 0:
		return StepResult{Outcome: OutcomePass, Reason: fmt.Sprintf("a follow-up before any agent reply (%d earlier): joins the open draft", t.EarlierMessages)}
	default:
		return StepResult{Outcome: OutcomePass, Reason: "first message of the thread"}
	}
}

// Filters is layer 3: the domain and keyword rules, then automated-mail detection. A
// block rule stops the message; an allow rule exempts it from the automated check (a
// company's own relay may send from a no-reply address); a review rule forces review,
// unless the mail turns out to be automated.
func Filters(m *Message, rules *Rules) StepResult {
	rule, why := rules.Match(m)
	if rule != nil && rule.Action == ActionBlock {
		return StepResult{Outcome: OutcomeSkip, Stage: StageRulesBlock, Reason: why}
	}
	if rule == nil || rule.Action != ActionAllow {
		if auto, reason := Automated(m); auto {
			if ListRequest(m) {
				return StepResult{Outcome: OutcomeReview, Stage: StageUnsure, Reason: "mailing-list mail (" + reason + ") that asks something: drafted for review"}
			}
			return StepResult{Outcome: OutcomeSkip, Stage: StageAutomated, Reason: "automated mail: " + reason}
		}
	}
	if rule != nil && rule.Action == ActionReview {
		return StepResult{Outcome: OutcomeReview, Stage: StageRules, Reason: why}
	}
	if rule != nil {
		return StepResult{Outcome: OutcomePass, Reason: why}
	}
	return StepResult{Outcome: OutcomePass, Reason: "not automated; no rule matched"}
}

// RecipientStep is layer 4 as a step result. Mail from one of our own support addresses
// is a loop (our own reply or autoresponder come back), skipped like automated mail. A
// support address counts as ours only on the domain the mail was sent to: with the
// default patterns (billing@*), a customer's own billing@ mailbox writing to us is a
// person, not a loop.
func RecipientStep(m *Message, s *Support) StepResult {
	if s.Is(m.From.Email) && sentToDomainOf(m, s, m.From.Email) {
		return StepResult{Outcome: OutcomeSkip, Stage: StageAutomated, Reason: "mail loop: the sender " + m.From.Email + " is our own support address"}
	}
	r := s.Classify(m)
	if r.Ambiguous {
		return StepResult{Outcome: OutcomeReview, Stage: StageRecipients, Reason: r.Reason}
	}
	return StepResult{Outcome: OutcomePass, Reason: r.Reason}
}

// sentToDomainOf reports whether the message went to one of our support addresses on the
// domain of addr.
func sentToDomainOf(m *Message, s *Support, addr string) bool {
	domain := domainOf(normalAddress(addr))
	for _, to := range append(append([]string{}, m.To...), m.Cc...) {
		if s.Is(to) && domainOf(normalAddress(to)) == domain {
			return true
		}
	}
	return false
}

func domainOf(addr string) string {
	if i := strings.LastIndex(addr, "@"); i >= 0 {
		return addr[i+1:]
	}
	return ""
}

// UnknownAccount stands in for the plan and region of a sender the help desk matched to
// no account: only policy that applies to every plan and region ("*") is eligible.
const UnknownAccount = "unknown"

// Revision maps a message that survived the funnel onto the help desk's ticket: the
// thread is the ticket (ticket ID = thread ID), and each customer message the funnel lets
// through is one more revision. prev is the thread's latest stored revision, or nil; the
// new revision keeps every earlier message, so all the questions of the thread stay in
// the ticket, and the thread's first subject.
func Revision(prev *ticket.Ticket, m *Message) *ticket.Ticket {
	msg := ticket.Message{Author: "customer", At: m.ReceivedAt, Body: strings.TrimSpace(m.Body)}
	if msg.Body == "" {
		msg.Body = m.Subject // a subject-only mail still asks something
	}
	acc := ticket.Account{Plan: UnknownAccount, Region: UnknownAccount}
	if m.Account != nil {
		acc = *m.Account
	}
	acc.Name = m.From.Name // hidden from a remote model (package redact), never sent
	if prev == nil {
		return &ticket.Ticket{TicketID: m.ThreadID, Revision: 1, UpdatedAt: m.ReceivedAt, Account: acc,
			Channel: "email", Subject: m.Subject, Messages: []ticket.Message{msg}}
	}
	next := *prev
	next.Revision = prev.Revision + 1
	next.UpdatedAt = m.ReceivedAt
	next.Account = acc
	next.Messages = append(append([]ticket.Message(nil), prev.Messages...), msg)
	return &next
}
