// Package evals replays a labelled ticket set through the same Temporal workflow and
// activities that serve agents, and measures the drafts: unsupported material claims,
// stale sources, useful abstention, citations and facts, one of four QA labels per draft,
// abstention per policy area and confidence per label. Every ticket is drafted twice in
// the same run: by the system (eligible-only retrieval) and by a similarity-only baseline
// (no metadata filters), so the report shows what the filters buy.
//
// The corpus is loaded into a scratch schema that Run creates and drops, so any corpus in
// the policy corpus format can be evaluated without touching the live policy store. Metrics are
// judged by this package against its own view of the corpus (Sources), not by trusting
// the draft's own checks; see Assess and Metrics for the exact definitions.
package evals

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/calibration"
	"github.com/supportdraft/supportdraft/evals/dataset"
	"github.com/supportdraft/supportdraft/internal/reference"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/retrieval"
	"github.com/supportdraft/supportdraft/rubric"
	"github.com/supportdraft/supportdraft/stack"
	"github.com/supportdraft/supportdraft/store"
)

// Arm names: the system as it serves agents, and the similarity-only baseline.
const (
	ArmSystem   = "system"
	ArmBaseline = "baseline"
)

// DefaultConcurrency is how many drafts are in flight at once when Options leaves it 0.
const DefaultConcurrency = 8

// ticketTimeout bounds one draft, discard included: a stuck workflow must not hang the eval.
const ticketTimeout = 2 * time.Minute

// Options configures one run.
type Options struct {
	Corpus            string // directory of policy version files (the corpus format)
	Tickets           string // JSONL file of tickets, with expect labels for the metrics
	DatabaseURL       string // a scratch schema is created in this database and dropped
	TemporalAddress   string
	TemporalNamespace string // "" = default
	Limit             int    // > 0: replay only the first Limit valid tickets
	Concurrency       int    // drafts in flight at once (both arms together); 0 = DefaultConcurrency
	// Providers draft, judge and embed; nil = the local deterministic providers with the
	// hashing embedder, the product's default.
	Providers *providers.Set
	// Rubric scores each draft's quality; nil = the embedded default.
	Rubric *rubric.Rubric
	// Stderr receives skipped-line reports, per-ticket failures and the progress bar;
	// nil discards them.
	Stderr     io.Writer
	NoProgress bool
}

// Run replays every ticket in both arms and returns the report. It fails only when the
// run itself cannot proceed (bad corpus or tickets file, services down); a ticket whose
// draft fails is reported in the arm's Failed count and on Stderr.
func Run(ctx context.Context, opts Options) (*Report, error) {
	start := time.Now()
	stderr := opts.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	concurrency := opts.Concurrency
	if concurrency <= 0 {
		concurrency = DefaultConcurrency
	}
	versions, err := policy.ParseDir(opts.Corpus)
	if err != nil {
		return nil, &InputError{fmt.Errorf("corpus %s: %w", opts.Corpus, err)}
	}
	tickets, skipped, err := ReadTickets(opts.Tickets, opts.Limit, stderr)
	if err != nil {
		return nil, err
	}
	p := providers.Local(256)
	if opts.Providers != nil {
		p = *opts.Providers
	}

	st, err := stack.Open(ctx, stack.Options{DatabaseURL: opts.DatabaseURL, Scratch: "eval", PoolSize: 2*concurrency + 4,
		TemporalAddress: opts.TemporalAddress, TemporalNamespace: opts.TemporalNamespace, Providers: p, Rubric: opts.Rubric})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	s := st.Store
	if _, err := s.Import(ctx, versions, p.Embedder); err != nil {
		return nil, fmt.Errorf("import corpus %s into the scratch schema: %w", opts.Corpus, err)
	}
	runID := randomID()
	arms := []*arm{{name: ArmSystem}, {name: ArmBaseline}}
	for _, a := range arms {
		acts := st.Activities()
		acts.Retriever.SimilarityOnly = a.name == ArmBaseline
		a.queue = "eval-" + runID + "-" + a.name
		w := st.Worker(a.queue, acts)
		if err := w.Start(); err != nil {
			return nil, fmt.Errorf("start the %s worker: %w", a.name, err)
		}
		defer w.Stop()
	}

	r := &replayer{temporal: st.Temporal, store: s, runID: runID}
	outcomes, err := r.replayAll(ctx, arms, tickets, concurrency, progress(stderr, 2*len(tickets), opts.NoProgress))
	if err != nil {
		return nil, err
	}
	ref, err := reference.Load(ctx, s.Pool())
	if err != nil {
		return nil, fmt.Errorf("read the imported corpus's metadata: %w", err)
	}

	rep := assessArms(arms, outcomes, NewSources(versions, ref.Eligible), stderr)
	system := &retrieval.Retriever{Store: s, Embedder: p.Embedder}
	similarity := &retrieval.Retriever{Store: s, Embedder: p.Embedder, SimilarityOnly: true}
	if rep.Retrieval, err = measureRetrieval(ctx, system, similarity, versions, tickets, rep.Cases); err != nil {
		return nil, err
	}
	rep.SkippedLines, rep.Skipped = len(skipped), append([]SkippedLine{}, skipped...)
	rep.Run = RunInfo{Agent: strings.Join(agent.IDs(ctx), ","), Corpus: opts.Corpus, Tickets: opts.Tickets, Versions: len(versions), Concurrency: concurrency,
		Drafter: fmt.Sprintf("%T", p.Writer), Judge: fmt.Sprintf("%T", p.Judge), Embedder: p.Embedder.Name(),
		Calibration: calibrationName(st.Activities().Calibration),
		StartedAt:   start.UTC(), Failures: rep.Run.Failures}
	rep.ElapsedS = time.Since(start).Seconds()
	return rep, nil
}

// assessArms judges every outcome and summarises each arm; drafts that failed are listed
// on stderr and in the report, never dropped.
func assessArms(arms []*arm, outcomes [][]Outcome, src *Sources, stderr io.Writer) *Report {
	rep := &Report{Run: RunInfo{Failures: []Failure{}}}
	for i, a := range arms {
		cases := make([]Case, len(outcomes[i]))
		for j, o := range outcomes[i] {
			cases[j] = Assess(o, src)
			if o.Iteration == nil {
				rep.Run.Failures = append(rep.Run.Failures, Failure{TicketID: o.Ticket.TicketID, Arm: a.name, Error: o.Err})
				fmt.Fprintf(stderr, "eval: %s (%s): no draft: %s\n", o.Ticket.TicketID, a.name, o.Err)
			}
		}
		if a.name == ArmSystem {
			rep.Metrics = Summarise(cases)
		} else {
			rep.Baseline = Summarise(cases)
		}
	}
	return rep
}

// calibrationName says which confidence mapping a run used and what it was fitted on.
func calibrationName(m calibration.Mapping) string {
	if m.Identity() {
		return "none (raw confidence)"
	}
	return fmt.Sprintf("%s v%d fitted on %s (%d drafts)", m.Method, m.Version, strings.Join(m.FittedOn, ", "), m.Drafts)
}

// arm is one drafting configuration with its own worker and task queue.
type arm struct {
	name  string
	queue string
}

// replayer drafts tickets through the workflow and keeps the drafts it answers with.
type replayer struct {
	temporal client.Client
	store    *store.Store
	runID    string
}

// replayAll drafts every ticket in every arm, at most `concurrency` at a time, and returns
// the outcomes by arm, in ticket order. It stops early only when ctx ends.
func (r *replayer) replayAll(ctx context.Context, arms []*arm, tickets []*dataset.Labelled, concurrency int, tick func()) ([][]Outcome, error) {
	out := make([][]Outcome, len(arms))
	for i := range arms {
		out[i] = make([]Outcome, len(tickets))
	}
	sem := make(chan struct{}, concurrency)
	var wg sync.WaitGroup
	for j, t := range tickets {
		for i, a := range arms {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				wg.Wait()
				return nil, ctx.Err()
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				out[i][j] = r.replay(ctx, a, t)
				tick()
			}()
		}
	}
	wg.Wait()
	return out, ctx.Err()
}

// randomID names one run: its workflow IDs and task queues never meet another run's on a
// shared dev server.
func randomID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
