// Package evals replays a labelled ticket set through the same Temporal workflow and
// activities that serve agents, and measures the drafts: unsupported material claims,
// stale sources, useful abstention, citations and facts, one of four QA labels per draft,
// abstention per policy area and confidence per label. Every ticket is drafted twice in
// the same run: by the system (eligible-only retrieval) and by a similarity-only baseline
// (no metadata filters), so the report shows what the filters buy.
//
// The corpus is loaded into a scratch schema that Run creates and drops, so any corpus in
// DESIGN.md's format can be evaluated without touching the live policy store. Metrics are
// judged by this package against its own view of the corpus (Sources), not by trusting
// the draft's own checks; see Assess and Metrics for the exact definitions.
package evals

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strconv"
	"sync"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/internal/reference"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/worker"
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
	Corpus            string // directory of policy version files (DESIGN.md format)
	Tickets           string // JSONL file of tickets, with expect labels for the metrics
	DatabaseURL       string // a scratch schema is created in this database and dropped
	TemporalAddress   string
	TemporalNamespace string // "" = default
	Limit             int    // > 0: replay only the first Limit valid tickets
	Concurrency       int    // drafts in flight at once (both arms together); 0 = DefaultConcurrency
	// Providers draft, judge and embed; nil = the local deterministic providers with the
	// hashing embedder, the product's default.
	Providers *providers.Set
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

	scratchURL, drop, err := store.Scratch(ctx, opts.DatabaseURL, "eval")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := drop(context.Background()); err != nil {
			fmt.Fprintf(stderr, "eval: could not drop the scratch schema: %v\n", err)
		}
	}()
	s, err := store.Open(ctx, withPoolSize(scratchURL, 2*concurrency+4))
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if _, err := s.Import(ctx, versions, p.Embedder); err != nil {
		return nil, fmt.Errorf("import corpus %s into the scratch schema: %w", opts.Corpus, err)
	}

	quiet := tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	c, err := client.Dial(client.Options{HostPort: opts.TemporalAddress, Namespace: opts.TemporalNamespace, Logger: quiet})
	if err != nil {
		return nil, fmt.Errorf("connect to Temporal at %s: %w (is it running? `scripts/services.sh` starts it)", opts.TemporalAddress, err)
	}
	defer c.Close()
	vocab, err := guard.DefaultVocabulary()
	if err != nil {
		return nil, err
	}
	runID := randomID()
	arms := []*arm{{name: ArmSystem}, {name: ArmBaseline}}
	for _, a := range arms {
		acts := activities.New(s, p, vocab)
		acts.Retriever.SimilarityOnly = a.name == ArmBaseline
		a.queue = "eval-" + runID + "-" + a.name
		w := worker.New(c, a.queue, acts)
		if err := w.Start(); err != nil {
			return nil, fmt.Errorf("start the %s worker: %w", a.name, err)
		}
		defer w.Stop()
	}

	r := &replayer{temporal: c, store: s, runID: runID, localModels: !p.Remote}
	outcomes, err := r.replayAll(ctx, arms, tickets, concurrency, progress(stderr, 2*len(tickets), opts.NoProgress))
	if err != nil {
		return nil, err
	}
	ref, err := reference.Load(ctx, s.Pool())
	if err != nil {
		return nil, fmt.Errorf("read the imported corpus's metadata: %w", err)
	}

	rep := assessArms(arms, outcomes, NewSources(versions, ref.Eligible), stderr)
	rep.SkippedLines, rep.Skipped = len(skipped), append([]SkippedLine{}, skipped...)
	rep.Run = RunInfo{Corpus: opts.Corpus, Tickets: opts.Tickets, Versions: len(versions), Concurrency: concurrency,
		Drafter: fmt.Sprintf("%T", p.Drafter), Judge: fmt.Sprintf("%T", p.Judge), Embedder: p.Embedder.Name(),
		StartedAt: start.UTC(), Failures: rep.Run.Failures}
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
			if o.Record == nil {
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

// arm is one drafting configuration with its own worker and task queue.
type arm struct {
	name  string
	queue string
}

// replayer drafts tickets through the workflow and reads the drafts back.
type replayer struct {
	temporal    client.Client
	store       *store.Store
	runID       string
	localModels bool // run the model steps as local activities (providers.Set.Remote is false)
}

// replayAll drafts every ticket in every arm, at most `concurrency` at a time, and returns
// the outcomes by arm, in ticket order. It stops early only when ctx ends.
func (r *replayer) replayAll(ctx context.Context, arms []*arm, tickets []*ticket.Ticket, concurrency int, tick func()) ([][]Outcome, error) {
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

// withPoolSize sizes the scratch store's pool for the run: pgxpool's default (the number
// of CPUs, at least 4) would make concurrent drafts queue for a connection while both
// workers load tickets, retrieve and save.
func withPoolSize(databaseURL string, n int) string {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return databaseURL // store.Open reports the bad URL
	}
	q := u.Query()
	q.Set("pool_max_conns", strconv.Itoa(n))
	u.RawQuery = q.Encode()
	return u.String()
}

// randomID names one run: its workflow IDs and task queues never meet another run's on a
// shared dev server.
func randomID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
