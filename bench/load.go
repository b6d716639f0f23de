package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
)

// LoadOptions sizes `supportdraft bench load`: traffic through running API replicas, the
// way help desks would send it, with nothing in process.
type LoadOptions struct {
	// Target names the replicas in progress lines and in the result ("dev", "cluster"); it
	// may be empty when there is only one.
	Target      string
	Drafts      int
	Concurrency int
	APIs        []string // base URLs; ticket i goes to APIs[i % len]
	// DatabaseURL is the database the replicas write to: after the run every ticket must
	// hold exactly one draft there (none lost, none built twice).
	DatabaseURL string
	// KillWorkerAt is the share of drafts done (0 < p < 1) at which the process whose PID
	// is in WorkerPIDFile is killed with SIGKILL, as a crash would; 0 kills nothing.
	KillWorkerAt  float64
	WorkerPIDFile string
	Progress      io.Writer
}

// LoadResult is what `supportdraft bench load` prints.
type LoadResult struct {
	Target         string         `json:"target,omitempty"`
	Drafts         int            `json:"drafts"`
	Concurrency    int            `json:"concurrency"`
	APIs           []string       `json:"apis"`
	Seconds        float64        `json:"seconds"`
	DraftsPerS     float64        `json:"drafts_per_s"`
	DraftP50Ms     float64        `json:"draft_p50_ms"`
	DraftP95Ms     float64        `json:"draft_p95_ms"`
	DraftP99Ms     float64        `json:"draft_p99_ms"`
	EditP50Ms      float64        `json:"edit_p50_ms"`
	SendCheckP50Ms float64        `json:"send_check_p50_ms"`
	SendCheckP99Ms float64        `json:"send_check_p99_ms"`
	Verdicts       map[string]int `json:"send_check_verdicts"`
	Errors         int            `json:"errors"`
	FirstErrors    []string       `json:"first_errors,omitempty"`
	KilledWorker   int            `json:"killed_worker_pid,omitempty"`
	KilledAtDraft  int            `json:"killed_at_draft,omitempty"`
	Lost           int            `json:"lost"`
	Duplicated     int            `json:"duplicated"`
}

// Load sends opts.Drafts tickets through the API replicas, opts.Concurrency at a time:
// each is drafted, edited (the agent keeps the draft's reply) and send-checked. Then it
// counts, in the database, the tickets with no draft (lost) and with more than one
// (duplicated). Requests that fail are errors; a ticket whose draft request failed but
// whose draft exists afterwards is an error, not a loss.
func Load(ctx context.Context, opts LoadOptions) (*LoadResult, error) {
	if len(opts.APIs) == 0 {
		return nil, errors.New("bench load: no API URL")
	}
	st, err := store.Open(ctx, opts.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("connect to the replicas' database: %w", err)
	}
	defer st.Close()
	pool := st.Pool()
	// The replicas authenticate as in production: an agent token of this run, revoked after.
	token, hash := auth.NewToken()
	tok, err := st.CreateToken(ctx, "bench load", string(auth.Agent), nil, hash)
	if err != nil {
		return nil, err
	}
	defer func() { _ = st.RevokeToken(context.Background(), tok.ID) }()
	clients := make([]*api.Client, len(opts.APIs))
	for i, u := range opts.APIs {
		clients[i] = api.NewClient(strings.TrimRight(u, "/"), token)
		if err := clients[i].WaitReady(ctx, 10*time.Second); err != nil {
			return nil, err
		}
	}
	res := &LoadResult{Target: opts.Target, Drafts: opts.Drafts, Concurrency: opts.Concurrency, APIs: opts.APIs, Verdicts: map[string]int{}}
	run := "LOAD-" + randomID()
	draftLat := make([]float64, opts.Drafts)
	var mu sync.Mutex
	var editLat, checkLat []float64
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		res.Errors++
		if len(res.FirstErrors) < 5 {
			res.FirstErrors = append(res.FirstErrors, err.Error())
		}
	}
	var done atomic.Int64
	var kill sync.Once
	killAt := int64(opts.KillWorkerAt * float64(opts.Drafts))
	prefix := "load: "
	if opts.Target != "" {
		prefix = "load " + opts.Target + ": "
	}
	// Progress is a line per tenth of the tickets, so a log of a long run stays short.
	var finished atomic.Int64
	var start time.Time
	step := int64(max(1, opts.Drafts/10))
	progress := func() {
		if n := finished.Add(1); n%step == 0 {
			mu.Lock()
			errs := res.Errors
			mu.Unlock()
			fmt.Fprintf(opts.Progress, "%s%d/%d tickets, %d errors, %.0f s\n", prefix, n, opts.Drafts, errs, time.Since(start).Seconds())
		}
	}

	fmt.Fprintf(opts.Progress, "%s%d drafts, %d at a time, through %s…\n", prefix, opts.Drafts, opts.Concurrency, strings.Join(opts.APIs, ", "))
	start = time.Now()
	_ = parallel(opts.Drafts, opts.Concurrency, func(i int) error {
		defer progress()
		c := clients[i%len(clients)]
		id := fmt.Sprintf("%s-%d", run, i)
		now := time.Now().UTC()
		t := &ticket.Ticket{TicketID: id, Revision: 1, UpdatedAt: now, Channel: "email", Subject: "Billing question",
			Account:  ticket.Account{ID: "A-" + strconv.Itoa(i%97), Plan: "pro", Region: "eu", Locale: "en"},
			Messages: []ticket.Message{{Author: "customer", At: now, Body: benchQuestions[i%len(benchQuestions)]}}}
		t0 := time.Now()
		v, err := c.Draft(ctx, t)
		if err != nil {
			fail(fmt.Errorf("draft %s: %w", id, err))
			return nil
		}
		draftLat[i] = ms(time.Since(t0))
		if n := done.Add(1); killAt > 0 && n >= killAt {
			kill.Do(func() {
				pid, err := killWorker(opts.WorkerPIDFile)
				if err != nil {
					fail(err)
					return
				}
				res.KilledWorker, res.KilledAtDraft = pid, int(n)
				fmt.Fprintf(opts.Progress, "%skilled worker pid %d after %d drafts\n", prefix, pid, n)
			})
		}
		text := v.Reply
		if text == "" {
			text = "Thanks for writing in; we are looking into it."
		}
		t1 := time.Now()
		if err := c.Post(ctx, "/v1/drafts/"+id+"/edit", map[string]string{"text": text}, &map[string]any{}); err != nil {
			fail(fmt.Errorf("edit %s: %w", id, err))
			return nil
		}
		edit := ms(time.Since(t1))
		t2 := time.Now()
		var check drafts.SendCheck
		if err := c.Post(ctx, "/v1/drafts/"+id+"/send-check", map[string]string{"text": text}, &check); err != nil {
			fail(fmt.Errorf("send-check %s: %w", id, err))
			return nil
		}
		mu.Lock()
		editLat = append(editLat, edit)
		checkLat = append(checkLat, ms(time.Since(t2)))
		res.Verdicts[check.Verdict]++
		mu.Unlock()
		return nil
	})
	elapsed := time.Since(start)
	var ok []float64
	for _, l := range draftLat {
		if l > 0 {
			ok = append(ok, l)
		}
	}
	res.Seconds = elapsed.Seconds()
	res.DraftsPerS = float64(len(ok)) / elapsed.Seconds()
	res.DraftP50Ms, res.DraftP95Ms, res.DraftP99Ms = percentile(ok, 50), percentile(ok, 95), percentile(ok, 99)
	res.EditP50Ms = percentile(editLat, 50)
	res.SendCheckP50Ms, res.SendCheckP99Ms = percentile(checkLat, 50), percentile(checkLat, 99)
	res.Lost, res.Duplicated, err = countDrafts(ctx, pool, run, opts.Drafts)
	if err != nil {
		return res, err
	}
	// End what the run started, as an agent discarding a draft would. Each draft's workflow
	// otherwise waits out its idle timeout: 10,000 timers that fire together when that
	// Temporal next runs (on the cluster, the next `scripts/test.sh --cluster` waited
	// behind them and timed out). Not timed: it is cleanup, not traffic.
	fmt.Fprintf(opts.Progress, "%sdiscarding the run's %d drafts…\n", prefix, opts.Drafts)
	var undiscarded atomic.Int64
	_ = parallel(opts.Drafts, opts.Concurrency, func(i int) error {
		id := fmt.Sprintf("%s-%d", run, i)
		if err := clients[i%len(clients)].Post(ctx, "/v1/drafts/"+id+"/discard", nil, &map[string]any{}); err != nil {
			undiscarded.Add(1)
		}
		return nil
	})
	if n := undiscarded.Load(); n > 0 {
		fmt.Fprintf(opts.Progress, "%s%d drafts could not be discarded; their runs end at their idle timeout\n", prefix, n)
	}
	return res, nil
}

// countDrafts reads, for every ticket of the run, how many drafts the replicas stored:
// zero is a lost draft, more than one a duplicated one. Workflows still finishing (after a
// worker was killed) get up to a minute to store theirs.
func countDrafts(ctx context.Context, pool *pgxpool.Pool, run string, n int) (lost, duplicated int, err error) {
	deadline := time.Now().Add(time.Minute)
	for {
		lost, duplicated = 0, 0
		counts := make(map[string]int, n)
		rows, err := pool.Query(ctx, `SELECT ticket_id, count(*) FROM drafts WHERE ticket_id LIKE $1 GROUP BY ticket_id`, run+"-%")
		if err != nil {
			return 0, 0, fmt.Errorf("count drafts of run %s: %w", run, err)
		}
		for rows.Next() {
			var id string
			var c int
			if err := rows.Scan(&id, &c); err != nil {
				return 0, 0, err
			}
			counts[id] = c
		}
		if err := rows.Err(); err != nil {
			return 0, 0, err
		}
		for i := range n {
			switch c := counts[fmt.Sprintf("%s-%d", run, i)]; {
			case c == 0:
				lost++
			case c > 1:
				duplicated++
			}
		}
		if lost == 0 || time.Now().After(deadline) {
			return lost, duplicated, nil
		}
		time.Sleep(2 * time.Second)
	}
}

// killWorker sends SIGKILL to the process whose PID the file holds.
func killWorker(pidFile string) (int, error) {
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		return 0, fmt.Errorf("read worker PID file %s: %w", pidFile, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		return 0, fmt.Errorf("worker PID file %s: %w", pidFile, err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return 0, fmt.Errorf("kill worker pid %d (from %s): %w", pid, pidFile, err)
	}
	return pid, nil
}
