package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/stack"
	"github.com/supportdraft/supportdraft/temporalclient"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/workflows"
)

// WorkflowResult is what `supportdraft bench workflow` prints.
type WorkflowResult struct {
	Drafts            int     `json:"drafts"`
	Concurrency       int     `json:"concurrency"`
	P50Ms             float64 `json:"p50_ms"`
	P95Ms             float64 `json:"p95_ms"`
	DraftsPerS        float64 `json:"drafts_per_s"`
	EventsPerWorkflow float64 `json:"events_per_workflow"`
	SendCheckP50Ms    float64 `json:"send_check_p50_ms"`
	SendCheckP99Ms    float64 `json:"send_check_p99_ms"`
	// WarmUpDrafts ran before the timed ones and are in no figure above; WarmUpMaxMs is the
	// slowest of them, what a fresh process's first drafts cost.
	WarmUpDrafts int     `json:"warm_up_drafts"`
	WarmUpMaxMs  float64 `json:"warm_up_max_ms"`
	// WarmUpCheckMaxMs is the slowest of one send-check of each warm-up draft, which
	// includes reading the eligible corpus for the guard once.
	WarmUpCheckMaxMs float64 `json:"warm_up_check_max_ms"`
	// Tasks breaks the workflow tasks of every draft of the run down into waiting for a
	// worker and running on it: where the tail goes.
	Tasks TaskBreakdown `json:"workflow_tasks"`
	// Codec says whether payloads were encrypted (as in production); CodecCost is the
	// codec's work on one draft's history, when they were.
	Codec     bool       `json:"codec"`
	CodecCost *CodecCost `json:"codec_cost,omitempty"`
}

// WorkflowOptions sizes the run.
type WorkflowOptions struct {
	Drafts      int
	Concurrency int
	Corpus      string // imported into the scratch schema
	// Copies imports the corpus this many times (0 or 1: once), each copy's documents
	// renamed, so that a send-check judges the reply against that many times the chunks:
	// what a send-check costs as a corpus grows.
	Copies   int
	Progress io.Writer
	// Codec encrypts every payload with a key made for the run, as production does with
	// SUPPORTDRAFT_CODEC_KEYS; off measures the same run in clear, for comparison.
	Codec bool
}

var benchQuestions = []string{
	"Our annual Pro plan renewed four days ago. Can we still get a refund of the annual charge?",
	"How do I cancel my subscription, and do I keep access until the end of the period?",
	"My card payment failed. When will you retry it and when is the account suspended?",
	"If I upgrade from Pro to Business in the middle of the month, how is it prorated?",
	"Do you issue VAT invoices with reverse charge for our company in Germany?",
	"Can I get a refund on my monthly plan for this month?",
}

// warmUpWaves is how many waves of opts.Concurrency drafts run untimed first. A fresh
// process pays once for what a running service has already paid (opening its pool's
// connections, preparing statements, the task queue's first tasks), and left in the timed
// run those first drafts alone would set the p95. Two waves open every connection the
// timed run uses.
const warmUpWaves = 2

// Workflow drives opts.Drafts drafts through the real Temporal server, an in-process worker
// with the local providers and the real HTTP API, in a scratch schema, and measures the
// draft latency seen by the sidebar and the send-check latency seen by the send hook, for
// each draft's own reply: a text that commits to nothing would skip the guard's reading
// of the sources and leave its cost out of the figures.
func Workflow(ctx context.Context, databaseURL, temporalAddress string, opts WorkflowOptions) (*WorkflowResult, error) {
	// The local providers: the benchmark measures the system, not a model's latency.
	var security temporalclient.Settings
	if opts.Codec {
		keys, err := benchKeys()
		if err != nil {
			return nil, err
		}
		security.Keys = keys
	}
	st, err := stack.Open(ctx, stack.Options{DatabaseURL: databaseURL, Scratch: "benchwf", TemporalAddress: temporalAddress,
		Providers: providers.Local(256), Security: security})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	_, versions, err := st.Import(ctx, opts.Corpus)
	if err != nil {
		return nil, err
	}
	if extra := extraCopies(versions, opts.Copies); len(extra) > 0 {
		if _, err := st.Store.Import(ctx, extra, st.Providers.Embedder); err != nil {
			return nil, fmt.Errorf("import %d more copies of corpus %s: %w", opts.Copies-1, opts.Corpus, err)
		}
	}
	c := st.Temporal
	run := randomID()
	taskQueue := "bench-" + run
	w := st.Worker(taskQueue, st.Activities())
	if err := w.Start(); err != nil {
		return nil, err
	}
	defer w.Stop()
	// The API authenticates as in production: an agent token, looked up by hash per call.
	token, hash := auth.NewToken()
	if _, err := st.Store.CreateToken(ctx, "bench", string(auth.Agent), nil, hash); err != nil {
		return nil, err
	}
	ts, _ := serveAPI(st, api.Config{TaskQueue: taskQueue, CheckBudget: 2 * time.Second, IdleTimeout: time.Hour})
	defer ts.Close()
	apiClient := api.NewClient(ts.URL, token)

	// draftAll drafts one ticket per ID, opts.Concurrency at a time, and times each; replies
	// holds each draft's reply, which the send checks send as the agent would.
	replies := map[string]string{}
	var mu sync.Mutex
	draftAll := func(ids []string) ([]float64, error) {
		lat := make([]float64, len(ids))
		err := parallel(len(ids), opts.Concurrency, func(i int) error {
			now := time.Now().UTC()
			t := &ticket.Ticket{TicketID: ids[i], Revision: 1, UpdatedAt: now, Channel: "email", Subject: "Billing question",
				Account:  ticket.Account{ID: "A-1", Plan: "pro", Region: "eu", Locale: "en"},
				Messages: []ticket.Message{{Author: "customer", At: now, Body: benchQuestions[i%len(benchQuestions)]}}}
			t0 := time.Now()
			v, err := apiClient.Draft(ctx, t)
			if err != nil {
				return err
			}
			lat[i] = ms(time.Since(t0))
			mu.Lock()
			replies[ids[i]] = v.Reply
			mu.Unlock()
			return nil
		})
		return lat, err
	}
	warmIDs := make([]string, warmUpWaves*max(1, opts.Concurrency))
	for i := range warmIDs {
		warmIDs[i] = fmt.Sprintf("BENCH-%s-warm-%d", run, i)
	}
	// checkAll send-checks each draft of ids times times with its reply, opts.Concurrency
	// drafts at a time, and times each check; every verdict must be ok, or review_pending
	// for a draft below the review threshold (the check ran in full either way).
	checkAll := func(ids []string, times int) ([]float64, error) {
		lat := make([]float64, 0, len(ids)*times)
		err := parallel(len(ids), opts.Concurrency, func(i int) error {
			for range times {
				t0 := time.Now()
				var res drafts.SendCheck
				if err := apiClient.Post(ctx, "/v1/drafts/"+ids[i]+"/send-check", map[string]string{"text": replies[ids[i]]}, &res); err != nil {
					return err
				}
				if res.Verdict != drafts.VerdictOK && res.Verdict != drafts.VerdictReviewPending {
					return fmt.Errorf("send-check on %s answered %s, want ok or review_pending", ids[i], res.Verdict)
				}
				mu.Lock()
				lat = append(lat, ms(time.Since(t0)))
				mu.Unlock()
			}
			return nil
		})
		return lat, err
	}
	fmt.Fprintf(opts.Progress, "warming up with %d drafts and a send-check of each, not timed…\n", len(warmIDs))
	warmLat, err := draftAll(warmIDs)
	if err != nil {
		return nil, err
	}
	// The first checks read the eligible corpus for the guard (sources.Cache), as a
	// running service did once after the corpus last changed.
	warmChecks, err := checkAll(warmIDs, 1)
	if err != nil {
		return nil, err
	}

	fmt.Fprintf(opts.Progress, "drafting %d tickets, %d at a time…\n", opts.Drafts, opts.Concurrency)
	ids := make([]string, opts.Drafts)
	for i := range ids {
		ids[i] = fmt.Sprintf("BENCH-%s-%d", run, i)
	}
	start := time.Now()
	draftLat, err := draftAll(ids)
	if err != nil {
		return nil, err
	}
	elapsed := time.Since(start)

	fmt.Fprintf(opts.Progress, "send-checking each draft 5 times…\n")
	checkLat, err := checkAll(ids, 5)
	if err != nil {
		return nil, err
	}
	events, err := historyLength(ctx, c, workflows.DraftWorkflowID(agent.Default, ids[0]))
	if err != nil {
		return nil, err
	}
	wfIDs := make([]string, len(ids))
	for i, id := range ids {
		wfIDs[i] = workflows.DraftWorkflowID(agent.Default, id)
	}
	tasks, err := taskBreakdown(ctx, c, wfIDs)
	if err != nil {
		return nil, err
	}
	var cost *CodecCost
	if opts.Codec {
		if cost, err = codecCost(ctx, c, security.Keys, wfIDs[0]); err != nil {
			return nil, err
		}
	}
	for _, id := range append(warmIDs, ids...) {
		_ = apiClient.Post(ctx, "/v1/drafts/"+id+"/discard", nil, &map[string]any{})
	}
	return &WorkflowResult{
		Drafts: opts.Drafts, Concurrency: opts.Concurrency,
		P50Ms: percentile(draftLat, 50), P95Ms: percentile(draftLat, 95),
		DraftsPerS:        float64(opts.Drafts) / elapsed.Seconds(),
		EventsPerWorkflow: float64(events),
		SendCheckP50Ms:    percentile(checkLat, 50), SendCheckP99Ms: percentile(checkLat, 99),
		WarmUpDrafts: len(warmIDs), WarmUpMaxMs: slices.Max(warmLat), WarmUpCheckMaxMs: slices.Max(warmChecks),
		Tasks: tasks, Codec: opts.Codec, CodecCost: cost,
	}, nil
}

// historyLength counts the events of one draft workflow after its first draft and five
// send-checks: the size QA reads in the UI.
func historyLength(ctx context.Context, c client.Client, workflowID string) (int, error) {
	iter := c.GetWorkflowHistory(ctx, workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	n := 0
	for iter.HasNext() {
		if _, err := iter.Next(); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// parallel runs fn(0..n-1) with at most k at a time and returns the first error.
func parallel(n, k int, fn func(i int) error) error {
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, k))
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := fn(i); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func randomID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// serveAPI serves st's API with cfg, logging nowhere, behind an authorizer with a session
// key of its own, which it returns for minting sessions; the caller closes the server.
func serveAPI(st *stack.Stack, cfg api.Config) (*httptest.Server, *auth.Authorizer) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := st.API(cfg, quiet)
	srv.Auth = auth.NewAuthorizer(st.Store, []byte(randomID()+"-bench-session-key"), nil, quiet)
	return httptest.NewServer(srv.Handler()), srv.Auth
}

// extraCopies is n-1 copies of versions whose documents are renamed "<doc_id>-copyK", K
// from 2 (chunk IDs with them): what --copies imports beside the corpus itself.
func extraCopies(versions []*policy.Version, n int) []*policy.Version {
	var out []*policy.Version
	for k := 2; k <= n; k++ {
		for _, v := range versions {
			cp := *v
			cp.DocID = fmt.Sprintf("%s-copy%d", v.DocID, k)
			cp.Chunks = slices.Clone(v.Chunks)
			for i := range cp.Chunks {
				cp.Chunks[i].ID = strings.Replace(cp.Chunks[i].ID, v.DocID+"@", cp.DocID+"@", 1)
			}
			out = append(out, &cp)
		}
	}
	return out
}
