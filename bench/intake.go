package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/evals/intakereplay"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/workflows"
)

// IntakeResult is what `supportdraft bench intake` prints.
type IntakeResult struct {
	Messages     int     `json:"messages"`
	Concurrency  int     `json:"concurrency"`
	MessagesPerS float64 `json:"messages_per_s"`
	P50Ms        float64 `json:"p50_ms"`
	P99Ms        float64 `json:"p99_ms"`
	// Messages that stop before triage (duplicate, kill switch, follow-up, automated,
	// rules): the target is p99 < 100 ms.
	BeforeTriage      int     `json:"before_triage"`
	BeforeTriageP99Ms float64 `json:"before_triage_p99_ms"`
	// Messages that reach triage (the local classifier here).
	Triaged      int     `json:"triaged"`
	TriagedP99Ms float64 `json:"triaged_p99_ms"`
	// BeforeTriageTasks breaks the stopped-early messages' intake workflows down: waiting
	// for the worker, running on it (the funnel's local activities), and the workflow's
	// life on the server. The rest of a decision's latency is the message's store write
	// and the start and result calls.
	BeforeTriageTasks TaskBreakdown `json:"before_triage_tasks"`
}

// IntakeOptions sizes the run.
type IntakeOptions struct {
	Messages    int
	Concurrency int
	Set         []*inbox.Message // cycled through with fresh message and thread IDs
	Rules       *inbox.Rules
	Support     *inbox.Support
	Progress    io.Writer
}

// Intake sends opts.Messages inbound messages through the real funnel — Postgres, the
// Temporal dev server, an in-process intake worker, the local classifier — on a scratch
// stack, opts.Concurrency at a time, and measures each message's decision latency as the
// webhook sees it (store the message, run its intake workflow, get the decision). The
// messages cycle through a labelled set, so the mix of automated mail, follow-ups and
// billing questions is the set's. Drafting is off: `bench workflow` measures drafts.
func Intake(ctx context.Context, databaseURL, temporalAddress string, opts IntakeOptions) (*IntakeResult, error) {
	st, err := intakereplay.StartStack(ctx, intakereplay.StackOptions{DatabaseURL: databaseURL, TemporalAddress: temporalAddress,
		Rules: opts.Rules, Support: opts.Support, Triager: inbox.Classifier{}})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	run := randomID()
	lat := make([]float64, opts.Messages)
	triaged := make([]bool, opts.Messages)
	wfIDs := make([]string, opts.Messages)
	fmt.Fprintf(opts.Progress, "sending %d messages through the funnel, %d at a time…\n", opts.Messages, opts.Concurrency)
	start := time.Now()
	err = parallel(opts.Messages, opts.Concurrency, func(i int) error {
		m := *opts.Set[i%len(opts.Set)]
		m.MessageID = fmt.Sprintf("<bench-%s-%d@%s>", run, i, m.MessageID)
		m.ThreadID = fmt.Sprintf("bench-%s-%d", run, i)
		wfIDs[i] = workflows.IntakeWorkflowID(st.Scope, agent.Default, m.MessageID)
		t0 := time.Now()
		res, err := st.Deliver(ctx, &m)
		if err != nil {
			return err
		}
		lat[i] = ms(time.Since(t0))
		triaged[i] = res.Decision.Decision != inbox.DecisionSkip || res.Stage == inbox.StageNoResponse || res.Stage == inbox.StageNotBilling
		return nil
	})
	if err != nil {
		return nil, err
	}
	elapsed := time.Since(start)
	var before, after []float64
	var beforeIDs []string
	for i, l := range lat {
		if triaged[i] {
			after = append(after, l)
		} else {
			before = append(before, l)
			beforeIDs = append(beforeIDs, wfIDs[i])
		}
	}
	tasks, err := taskBreakdown(ctx, st.Temporal, beforeIDs)
	if err != nil {
		return nil, err
	}
	return &IntakeResult{Messages: opts.Messages, Concurrency: opts.Concurrency,
		MessagesPerS: float64(opts.Messages) / elapsed.Seconds(),
		P50Ms:        percentile(lat, 50), P99Ms: percentile(lat, 99),
		BeforeTriage: len(before), BeforeTriageP99Ms: percentile(before, 99),
		Triaged: len(after), TriagedP99Ms: percentile(after, 99), BeforeTriageTasks: tasks}, nil
}
