// Command record drives one workflow through its life on the real stack (a scratch schema,
// the sample corpus, the local providers, a worker on its own task queue) and prints the
// workflow ID; record.sh saves its history for the replay test. With no argument it is a
// draft workflow: open, a new revision, a stale send-check, an edit, a rebuild, an
// approval whose review window then ends, an ok send-check, and the sent event; the
// send-checks arrive as the API sends them, send-checked signals with the verdict. With
// "intake" it is the intake workflow of one billing question that passes every layer and
// opens its thread's draft. Run it after an intended change to a workflow's commands.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/evals/intakereplay"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/stack"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/workflows"
)

func main() {
	run := record
	if len(os.Args) > 1 && os.Args[1] == "intake" {
		run = recordIntake
	}
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func record(ctx context.Context) error {
	st, err := stack.Open(ctx, stack.Options{DatabaseURL: os.Getenv("DATABASE_URL"), Scratch: "record",
		TemporalAddress: os.Getenv("TEMPORAL_ADDRESS"), Providers: providers.Local(256)})
	if err != nil {
		return err
	}
	defer st.Close()
	if _, _, err := st.Import(ctx, "corpus/sample"); err != nil {
		return err
	}
	queue := fmt.Sprintf("record-%d", time.Now().UnixNano())
	w := st.Worker(queue, st.Activities())
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	id := fmt.Sprintf("T-REPLAY-%d", time.Now().Unix())
	now := time.Now().UTC()
	tk := func(rev int, plan, body string, at time.Time) *ticket.Ticket {
		return &ticket.Ticket{TicketID: id, Revision: rev, UpdatedAt: at, Channel: "email", Subject: "Refund",
			Account:  ticket.Account{ID: "A-1", Plan: plan, Region: "eu", Locale: "en"},
			Messages: []ticket.Message{{Author: "customer", At: at, Body: body}}}
	}
	if err := st.Store.SaveTicket(ctx, tk(1, "pro", "Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge?", now)); err != nil {
		return err
	}
	in := &workflows.DraftInput{TicketID: id, Revision: 1, ReviewDelay: 3 * time.Second}
	view, err := workflows.Open(ctx, st.Temporal, workflows.DraftWorkflowID(agent.Default, id), queue, in)
	if err != nil {
		return err
	}
	if err := st.Store.SaveTicket(ctx, tk(2, "business", "We upgraded to Business meanwhile. Still refundable?", now.Add(time.Minute))); err != nil {
		return err
	}
	wid := workflows.DraftWorkflowID(agent.Default, id)
	if err := st.Temporal.SignalWorkflow(ctx, wid, "", workflows.SignalRevision, workflows.RevisionSignal{Revision: 2, UpdatedAt: now.Add(time.Minute)}); err != nil {
		return err
	}
	// The agent's words are kept in Postgres first, as the API does; updates carry refs.
	keep := func(kind, text string) (*drafts.TextRef, error) {
		ref, err := st.Store.SaveAgentText(ctx, id, kind, text)
		return &ref, err
	}
	check1, err := keep(store.TextSendCheck, "Hi")
	if err != nil {
		return err
	}
	edit, err := keep(store.TextEdit, "Hi, we will refund you within 30 days.")
	if err != nil {
		return err
	}
	check2, err := keep(store.TextSendCheck, "Hi")
	if err != nil {
		return err
	}
	// The send hook judges freshness in the API and signals the verdict, as api does.
	stale := workflows.SendCheckedSignal{Iteration: view.Iteration, Verdict: drafts.VerdictStale, Ref: check1,
		Reasons: []drafts.StaleReason{drafts.RevisionReason(1, 2, now.Add(time.Minute))}}
	steps := []struct {
		name   string
		arg    any
		signal bool
	}{
		{workflows.SignalSendChecked, stale, true},
		{workflows.UpdateEdit, workflows.EditRequest{Ref: edit}, false},
		{workflows.UpdateRebuild, nil, false},
		{workflows.UpdateApprove, workflows.ReviewDecision{By: "record"}, false},
		{"", nil, false}, // the review window ends: the approved draft is handed off
		{workflows.SignalSendChecked, workflows.SendCheckedSignal{Iteration: view.Iteration + 1, Verdict: drafts.VerdictOK, Ref: check2}, true},
		{workflows.UpdateSent, workflows.SentRequest{TextSHA256: review.TextHash(view.Reply + " Best, Ana"), SentAt: time.Now().UTC(), Agent: "ana"}, false},
	}
	for _, s := range steps {
		switch {
		case s.name == "":
			time.Sleep(4 * time.Second)
			continue
		case s.signal:
			if err := st.Temporal.SignalWorkflow(ctx, wid, "", s.name, s.arg); err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			continue
		}
		opts := client.UpdateWorkflowOptions{WorkflowID: wid, UpdateName: s.name, WaitForStage: client.WorkflowUpdateStageCompleted}
		if s.arg != nil {
			opts.Args = []any{s.arg}
		}
		h, err := st.Temporal.UpdateWorkflow(ctx, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		if err := h.Get(ctx, nil); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	var res workflows.DraftResult
	if err := st.Temporal.GetWorkflow(ctx, wid, "").Get(ctx, &res); err != nil {
		return err
	}
	if res.Status != "sent" {
		return fmt.Errorf("workflow %s ended %s, want sent", wid, res.Status)
	}
	fmt.Println(wid)
	return nil
}

// recordIntake delivers one first message, a billing question to the support address from
// a known customer, through the real funnel with drafting on, and prints its intake
// workflow's ID.
func recordIntake(ctx context.Context) error {
	support, err := inbox.NewSupport([]string{"billing@*"})
	if err != nil {
		return err
	}
	st, err := intakereplay.StartStack(ctx, intakereplay.StackOptions{DatabaseURL: os.Getenv("DATABASE_URL"),
		TemporalAddress: os.Getenv("TEMPORAL_ADDRESS"), Rules: &inbox.Rules{}, Support: support,
		Triager: inbox.Classifier{}, Draft: true, Corpus: "corpus/sample"})
	if err != nil {
		return err
	}
	defer st.Close()
	m := &inbox.Message{MessageID: fmt.Sprintf("<record-%d@customer.example>", time.Now().UnixNano()), ThreadID: "th-record",
		ReceivedAt: time.Now().UTC(), From: inbox.Address{Email: "ana@customer.example", Name: "Ana Ruiz"},
		To: []string{"billing@company.example"}, Subject: "Refund for annual plan",
		Body:    "Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge?",
		Account: &ticket.Account{ID: "A-1", Plan: "pro", Region: "eu", Locale: "en"}}
	res, err := st.Deliver(ctx, m)
	if err != nil {
		return err
	}
	if res.Decision.Decision != inbox.DecisionDraft {
		return fmt.Errorf("message %s: decision %s at %s (%s), want draft", m.MessageID, res.Decision.Decision, res.Stage, res.Reason)
	}
	fmt.Println(workflows.IntakeWorkflowID(st.Scope, agent.Default, m.MessageID))
	return nil
}
