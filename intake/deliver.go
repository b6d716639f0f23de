// Package intake delivers inbound messages to the funnel: the webhook, replays of labelled
// sets and the benchmark all go through Target.Deliver.
package intake

import (
	"context"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/workflows"
)

// Target is where messages go: a store, a Temporal client, the task queue the intake
// workers poll, and the scope of workflow IDs ("" for live traffic).
type Target struct {
	Store        *store.Store
	Temporal     client.Client
	TaskQueue    string
	Scope        string
	RemoteTriage bool
	Draft        bool // start or join draft workflows for survivors
	// Own are our own addresses: raw mail sent from one of them, or naming one in X-Loop,
	// is our own mail coming back (DeliverMail). Nil: no such check. A message routed to an
	// agent is checked against that agent's addresses too.
	Own *inbox.Support
	// Agents routes each message to the agent its recipients name (see route); nil: every
	// message acts for the agent ctx names. Allowed, when not nil, are the agents the
	// sender may deliver for; a message routed to another is refused (ErrAgentRefused).
	Agents  Agents
	Allowed []string
}

// Deliver stores the message and runs its intake workflow, answering with the decision.
// A message ID seen before is a duplicate: Temporal refuses the second workflow, and the
// duplicate step is recorded here since no workflow runs for it. A message the kill
// switch skipped was not seen: its redelivery runs the funnel again (IntakeRunID).
func (t Target) Deliver(ctx context.Context, m *inbox.Message) (*workflows.IntakeResult, error) {
	ctx, t, err := t.route(ctx, m)
	if err != nil {
		return nil, err
	}
	return t.deliver(ctx, m, false)
}

// deliver is Deliver; resumed marks a message this caller handed to the funnel before a
// crash, whose workflow, if it exists, is the caller's own: no duplicate is recorded then.
func (t Target) deliver(ctx context.Context, m *inbox.Message, resumed bool) (*workflows.IntakeResult, error) {
	if err := t.Store.SaveMessage(ctx, m); err != nil {
		return nil, err
	}
	halts, err := t.Store.HaltedSkips(ctx, m.MessageID)
	if err != nil {
		return nil, err
	}
	in := &workflows.IntakeInput{MessageID: m.MessageID, ThreadID: m.ThreadID, Thread: m.Thread,
		RemoteTriage: t.RemoteTriage, Draft: t.Draft}
	res, duplicate, err := workflows.RunIntake(ctx, t.Temporal, t.Scope, t.TaskQueue, halts, in)
	if err != nil {
		return nil, err
	}
	if !duplicate {
		return res, nil
	}
	res = &workflows.IntakeResult{Decision: workflows.DuplicateDecision(m.MessageID)}
	if resumed {
		res.Reason = "delivered before a restart; its intake workflow already ran or runs"
		return res, nil
	}
	ev := inbox.Event{MessageID: m.MessageID, ThreadID: m.ThreadID, Step: inbox.StepDuplicate,
		Outcome: inbox.OutcomeSkip, Reason: res.Reason, At: time.Now().UTC()}
	if err := t.Store.RecordFunnel(context.WithoutCancel(ctx), []inbox.Event{ev}); err != nil {
		return nil, err
	}
	return res, nil
}
