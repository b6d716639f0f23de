package intake

import (
	"context"
	"time"

	"github.com/supportdraft/supportdraft/email"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/workflows"
)

// DeliverMail runs a raw mail, parsed by package email, through the funnel. Our own mail
// coming back is a loop: it is recorded as skipped and goes no further. Otherwise the mail
// joins the thread of a stored message it answers (In-Reply-To, References), takes the
// thread's facts from the store — a raw mail carries no help desk's view of its thread —
// and is delivered like the help desk's JSON.
func (t Target) DeliverMail(ctx context.Context, m *inbox.Message) (*workflows.IntakeResult, error) {
	return t.deliverMail(ctx, m, false)
}

// ResumeMail is DeliverMail for a mail this caller claimed before a crash and may have
// delivered already (a restarted mailbox poller): an intake workflow already started for
// it is its own, so no duplicate is recorded, and a mail not delivered yet is delivered.
func (t Target) ResumeMail(ctx context.Context, m *inbox.Message) (*workflows.IntakeResult, error) {
	return t.deliverMail(ctx, m, true)
}

func (t Target) deliverMail(ctx context.Context, m *inbox.Message, resumed bool) (*workflows.IntakeResult, error) {
	ctx, t, err := t.route(ctx, m)
	if err != nil {
		return nil, err
	}
	if loop, why := email.Loop(m, t.Own); loop {
		return t.skipLoop(ctx, m, why, resumed)
	}
	thread, err := t.Store.ThreadOf(ctx, email.References(m))
	if err != nil {
		return nil, err
	}
	if thread != "" {
		m.ThreadID = thread
	}
	if m.Thread, err = t.Store.ThreadFacts(ctx, m.ThreadID, m.MessageID); err != nil {
		return nil, err
	}
	return t.deliver(ctx, m, resumed)
}

// skipLoop records a loop as the filters step's skip, under the automated stage (our own
// mail is machine mail to the funnel), without storing the mail.
func (t Target) skipLoop(ctx context.Context, m *inbox.Message, why string, resumed bool) (*workflows.IntakeResult, error) {
	res := &workflows.IntakeResult{Decision: inbox.Decision{MessageID: m.MessageID, Decision: inbox.DecisionSkip,
		Stage: inbox.StageAutomated, Reason: "mail loop: " + why}}
	if resumed {
		return res, nil // recorded before the restart, or about to be lost: a loop drafts nothing either way
	}
	ev := inbox.Event{MessageID: m.MessageID, ThreadID: m.ThreadID, Step: inbox.StepFilters,
		Outcome: inbox.OutcomeSkip, Reason: res.Reason, At: time.Now().UTC()}
	if err := t.Store.RecordFunnel(context.WithoutCancel(ctx), []inbox.Event{ev}); err != nil {
		return nil, err
	}
	return res, nil
}
