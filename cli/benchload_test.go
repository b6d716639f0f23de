package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/bench"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
)

// The test binary doubles as the worker process that bench load kills: with these set,
// TestMain runs a worker instead of the tests.
const (
	envLoadWorkerURL   = "BENCH_LOAD_TEST_WORKER_DATABASE_URL"
	envLoadWorkerQueue = "BENCH_LOAD_TEST_WORKER_TASK_QUEUE"
)

func TestMain(m *testing.M) {
	if os.Getenv(envLoadWorkerQueue) != "" {
		if err := runLoadWorker(os.Getenv(envLoadWorkerURL), os.Getenv(envLoadWorkerQueue)); err != nil {
			fmt.Fprintln(os.Stderr, "bench load test worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runLoadWorker is a worker as `supportdraft worker` runs one, with the local providers,
// on its own task queue.
func runLoadWorker(databaseURL, taskQueue string) error {
	s, done, err := testenv.ChildStack(context.Background(), databaseURL)
	if err != nil {
		return err
	}
	defer done()
	return s.Worker(taskQueue, s.Activities()).Run(sdkworker.InterruptCh())
}

// loadDeployment is one deployment for bench load: a scratch store, a worker in this
// process and an API replica over them, on a task queue of its own. With killable set, a
// second worker runs as a child process whose PID file is returned, for bench load to kill.
func loadDeployment(t *testing.T, c client.Client, killable bool) (apiURL, databaseURL, pidFile string) {
	t.Helper()
	s, url := testenv.StoreURL(t)
	st := testenv.Stack(t, s, c, nil)
	tq := testenv.Unique("test-bench-load-")
	w := st.Worker(tq, st.Activities())
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	ts, _ := testenv.ServeAPI(t, st.API(api.Config{TaskQueue: tq, CheckBudget: 30 * time.Second, IdleTimeout: time.Hour}, nil))
	if !killable {
		return ts.URL, url, ""
	}
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), envLoadWorkerURL+"="+url, envLoadWorkerQueue+"="+tq)
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = child.Process.Kill(); _ = child.Wait() })
	pidFile = filepath.Join(t.TempDir(), "worker.pid")
	if err := os.WriteFile(pidFile, []byte(fmt.Sprint(child.Process.Pid)), 0o600); err != nil {
		t.Fatal(err)
	}
	return ts.URL, url, pidFile
}

// Two deployments side by side in one run, each on its own database, one of them losing a
// worker (SIGKILL) halfway: one table with a column per target, every ticket drafted once.
// Not parallel: the command reads its configuration from the environment.
func TestBenchLoadTargetsSideBySide(t *testing.T) {
	c := testenv.Temporal(t)
	oneAPI, oneDB, _ := loadDeployment(t, c, false)
	twoAPI, twoDB, twoPID := loadDeployment(t, c, true)
	args := []string{"--drafts", "20", "--concurrency", "4", "--kill-worker-at", "50",
		"--target", "one=" + oneAPI, "--database", "one=" + oneDB,
		"--target", "two=" + twoAPI + "," + twoAPI, "--database", "two=" + twoDB, "--worker-pid-file", "two=" + twoPID}

	out := mustRun(t, newBenchLoadCmd(), append(args, "--json")...)
	var got struct{ Targets []bench.LoadResult }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("JSON: %v\n%s", err, out)
	}
	if len(got.Targets) != 2 || got.Targets[0].Target != "one" || got.Targets[1].Target != "two" {
		t.Fatalf("want targets one and two in order, got %s", out)
	}
	for _, r := range got.Targets {
		// A draft below the review threshold is held for review at send-check (review_pending).
		if r.Drafts != 20 || r.Errors != 0 || r.Lost != 0 || r.Duplicated != 0 || r.Verdicts["ok"]+r.Verdicts["review_pending"] != 20 {
			t.Errorf("target %s: %d drafts, %d errors %v, %d lost, %d duplicated, verdicts %v",
				r.Target, r.Drafts, r.Errors, r.FirstErrors, r.Lost, r.Duplicated, r.Verdicts)
		}
	}
	if got.Targets[0].KilledWorker != 0 || got.Targets[1].KilledWorker == 0 || got.Targets[1].KilledAtDraft < 10 {
		t.Errorf("only target two's worker is killed, after half the drafts: %+v / %+v", got.Targets[0], got.Targets[1])
	}
	if len(got.Targets[1].APIs) != 2 {
		t.Errorf("target two has two replica URLs, got %v", got.Targets[1].APIs)
	}
	// The run ends what it started: no draft left waiting for its idle timeout.
	for name, url := range map[string]string{"one": oneDB, "two": twoDB} {
		st, err := store.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		var open int
		err = st.DB().QueryRow(context.Background(), `SELECT count(*) FROM drafts WHERE ticket_id LIKE 'LOAD-%' AND status <> 'discarded'`).Scan(&open)
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		if open != 0 {
			t.Errorf("target %s: %d drafts of the run not discarded after it", name, open)
		}
	}
}

// The table names each target in its column and shows every figure of the issue.
func TestBenchLoadTable(t *testing.T) {
	var b strings.Builder
	results := []*bench.LoadResult{
		{Target: "dev", Drafts: 100, Concurrency: 8, APIs: []string{"a"}, DraftsPerS: 12.5, DraftP50Ms: 40, Verdicts: map[string]int{"ok": 100}},
		{Target: "cluster", Drafts: 100, Concurrency: 8, APIs: []string{"a", "b"}, DraftsPerS: 9.3, Errors: 1,
			FirstErrors: []string{"draft LOAD-1: 502"}, KilledWorker: 4242, KilledAtDraft: 50, Verdicts: map[string]int{"ok": 99}},
	}
	if err := printLoadTable(&b, results); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if fmt.Sprint(strings.Fields(lines[0])) != "[dev cluster]" {
		t.Errorf("header names the targets in order: %q", lines[0])
	}
	assertPrints(t, b.String(), "drafts/s", "12.5", "9.3", "draft p95 ms", "draft p99 ms", "send-check p50 ms", "send-check p99 ms",
		"ok 100", "ok 99", "pid 4242 after 50 drafts", "none", "lost", "duplicated", "cluster: draft LOAD-1: 502")
}

// Targets are parsed in order, each with its own database and PID file; mistakes name the flag.
func TestParseLoadTargets(t *testing.T) {
	runs, err := parseTargets([]string{"dev=http://a", "cluster=http://b,http://c"},
		[]string{"cluster=postgres://x/y?sslmode=disable"}, []string{"cluster=w.pid"}, "postgres://default")
	if err != nil {
		t.Fatal(err)
	}
	want := []loadTarget{{name: "dev", apis: []string{"http://a"}, database: "postgres://default"},
		{name: "cluster", apis: []string{"http://b", "http://c"}, database: "postgres://x/y?sslmode=disable", pidFile: "w.pid"}}
	if fmt.Sprint(runs) != fmt.Sprint(want) {
		t.Errorf("got %+v, want %+v", runs, want)
	}
	for _, tc := range []struct {
		name                         string
		targets, databases, pidFiles []string
		wantErr                      string
	}{
		{"no name", []string{"http://a"}, nil, nil, `--target "http://a"`},
		{"twice", []string{"a=http://a", "a=http://b"}, nil, nil, "--target a is given twice"},
		{"plain database", []string{"a=http://a"}, []string{"postgres://x/y?sslmode=disable"}, nil, "--database"},
		{"unknown target", []string{"a=http://a"}, nil, []string{"b=w.pid"}, "--worker-pid-file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseTargets(tc.targets, tc.databases, tc.pidFiles, "")
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("got %v, want an error naming %s", err, tc.wantErr)
			}
		})
	}
}

// Usage mistakes exit 2 before any load is sent.
func TestBenchLoadUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--api", "http://a", "--target", "dev=http://a"},
		{"--target", "dev=http://a", "--kill-worker-at", "50"},
		{"--database", "postgres://a", "--database", "postgres://b"},
		{"--kill-worker-at", "100"},
	} {
		if _, err, code := run(t, newBenchLoadCmd(), args...); code != 2 {
			t.Errorf("%v: exit %d (%v), want 2", args, code, err)
		}
	}
}
