package cli

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/bench"
)

// defaultWorkerPIDFile is the worker --kill-worker-at kills when there is one target and
// no --worker-pid-file: the first worker of scripts/cluster.sh.
const defaultWorkerPIDFile = ".data/cluster/worker-1.pid"

func newBenchLoadCmd() *cobra.Command {
	var drafts, concurrency int
	var apis, targets, databases, pidFiles []string
	var killAt float64
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "load",
		Short: "Drafts, edits and send-checks through running API replicas; lost and duplicated drafts",
		Long: `load drives --drafts tickets through already running API replicas (round robin over
--api), --concurrency at a time: each ticket is drafted, edited and send-checked. It prints
drafts per second, draft p50/p95/p99, send-check p50/p99, verdicts and errors, then counts in
--database the tickets with no stored draft (lost) or more than one (duplicated). Last, it
discards every draft of the run (untimed), so that no workflow is left waiting for its
idle timeout on that Temporal.

With --kill-worker-at P it kills one worker (SIGKILL, the PID in --worker-pid-file) once P%
of the drafts are done; its workflows must finish on the other worker, none lost or built
twice. scripts/cluster.sh up starts two workers and two replicas for this; dev-up starts
the same on the Temporal dev server.

To compare deployments in one run, name each as a target instead of --api:
--target NAME=URL[,URL…] (repeatable), its database with --database NAME=URL (default
DATABASE_URL) and, for the targets whose worker is killed, --worker-pid-file NAME=FILE.
The targets run one after another with the same load, and one table shows a column each.`,
		Example: `  eval "$(scripts/cluster.sh up)"
  supportdraft bench load --drafts 10000 --concurrency 8 --api "$SUPPORTDRAFT_CLUSTER_API" \
    --database "$SUPPORTDRAFT_CLUSTER_DATABASE_URL" --kill-worker-at 50

  # the dev server and the cluster side by side, the same replicas on each
  eval "$(scripts/cluster.sh up)"; eval "$(scripts/cluster.sh dev-up)"
  supportdraft bench load --drafts 10000 --concurrency 8 --kill-worker-at 50 \
    --target dev="$SUPPORTDRAFT_DEV_API" --database dev="$SUPPORTDRAFT_DEV_DATABASE_URL" \
    --worker-pid-file dev=.data/cluster/dev-worker-1.pid \
    --target cluster="$SUPPORTDRAFT_CLUSTER_API" --database cluster="$SUPPORTDRAFT_CLUSTER_DATABASE_URL" \
    --worker-pid-file cluster=.data/cluster/worker-1.pid`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			if killAt < 0 || killAt >= 100 {
				return usageError{fmt.Errorf("--kill-worker-at must be a percentage in [0, 100), got %g", killAt)}
			}
			if drafts < 1 || concurrency < 1 {
				return usageError{errors.New("--drafts and --concurrency must be at least 1")}
			}
			var runs []loadTarget
			if len(targets) == 0 {
				runs, err = singleTarget(apis, databases, pidFiles, cfg.APIURL, cfg.DatabaseURL)
			} else {
				if len(apis) > 0 {
					return usageError{errors.New("--api and --target exclude each other: name the replicas in --target NAME=URL[,URL…]")}
				}
				runs, err = parseTargets(targets, databases, pidFiles, cfg.DatabaseURL)
			}
			if err != nil {
				return usageError{err}
			}
			if killAt > 0 && !anyKill(runs) {
				return usageError{errors.New("--kill-worker-at needs a worker to kill: --worker-pid-file NAME=FILE for a target")}
			}
			var results []*bench.LoadResult
			for _, t := range runs {
				opts := bench.LoadOptions{Target: t.name, Drafts: drafts, Concurrency: concurrency, APIs: t.apis,
					DatabaseURL: t.database, Progress: cmd.ErrOrStderr()}
				if t.pidFile != "" {
					opts.KillWorkerAt, opts.WorkerPIDFile = killAt/100, t.pidFile
				}
				res, err := bench.Load(cmd.Context(), opts)
				if err != nil {
					if t.name != "" {
						return fmt.Errorf("target %s: %w", t.name, err)
					}
					return err
				}
				results = append(results, res)
			}
			out := cmd.OutOrStdout()
			switch {
			case asJSON && len(targets) == 0:
				err = writeJSON(out, results[0])
			case asJSON:
				err = writeJSON(out, map[string]any{"targets": results})
			case len(targets) == 0:
				printLoad(out, results[0])
			default:
				err = printLoadTable(out, results)
			}
			if err != nil {
				return err
			}
			return lostOrDuplicated(results)
		},
	}
	cmd.Flags().IntVar(&drafts, "drafts", 1000, "how many tickets to draft (per target)")
	cmd.Flags().IntVar(&concurrency, "concurrency", 8, "tickets in flight at once")
	cmd.Flags().StringSliceVar(&apis, "api", nil, "API base URLs, comma-separated (default SUPPORTDRAFT_API_URL)")
	cmd.Flags().StringArrayVar(&targets, "target", nil, "NAME=URL[,URL…]: a named set of API replicas; repeat to compare")
	cmd.Flags().StringArrayVar(&databases, "database", nil,
		"the replicas' database, for the lost/duplicated count (default DATABASE_URL); NAME=URL with --target")
	cmd.Flags().Float64Var(&killAt, "kill-worker-at", 0, "kill one worker when this percentage of drafts is done (0: never)")
	cmd.Flags().StringArrayVar(&pidFiles, "worker-pid-file", nil,
		"PID file of the worker --kill-worker-at kills (default "+defaultWorkerPIDFile+"); NAME=FILE with --target")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the figures as JSON")
	return cmd
}

// loadTarget is one deployment under load: its API replicas, the database they write to
// and, if one of its workers is to be killed, that worker's PID file.
type loadTarget struct {
	name     string
	apis     []string
	database string
	pidFile  string
}

// singleTarget is the deployment of the flags without --target: --api, one --database and
// one --worker-pid-file, each defaulting to the configuration.
func singleTarget(apis, databases, pidFiles []string, apiURL, databaseURL string) ([]loadTarget, error) {
	if len(databases) > 1 || len(pidFiles) > 1 {
		return nil, errors.New("--database and --worker-pid-file are given once without --target")
	}
	t := loadTarget{apis: apis, database: databaseURL, pidFile: defaultWorkerPIDFile}
	if len(t.apis) == 0 {
		t.apis = []string{apiURL}
	}
	if len(databases) == 1 {
		t.database = databases[0]
	}
	if len(pidFiles) == 1 {
		t.pidFile = pidFiles[0]
	}
	return []loadTarget{t}, nil
}

// parseTargets reads --target NAME=URL[,URL…] in order, then gives each target the
// --database NAME=URL and --worker-pid-file NAME=FILE that name it. A target without a
// database uses databaseURL; one without a PID file has no worker killed.
func parseTargets(targets, databases, pidFiles []string, databaseURL string) ([]loadTarget, error) {
	var runs []loadTarget
	index := map[string]int{}
	for _, spec := range targets {
		name, urls, ok := strings.Cut(spec, "=")
		if !ok || name == "" || urls == "" {
			return nil, fmt.Errorf("--target %q: want NAME=URL[,URL…]", spec)
		}
		if _, dup := index[name]; dup {
			return nil, fmt.Errorf("--target %s is given twice", name)
		}
		index[name] = len(runs)
		runs = append(runs, loadTarget{name: name, apis: strings.Split(urls, ","), database: databaseURL})
	}
	assign := func(flag string, specs []string, set func(t *loadTarget, v string)) error {
		for _, spec := range specs {
			name, v, ok := strings.Cut(spec, "=")
			i, known := index[name]
			if !ok || !known || v == "" {
				return fmt.Errorf("--%s %q: want NAME=VALUE for one of the --target names", flag, spec)
			}
			set(&runs[i], v)
		}
		return nil
	}
	if err := assign("database", databases, func(t *loadTarget, v string) { t.database = v }); err != nil {
		return nil, err
	}
	if err := assign("worker-pid-file", pidFiles, func(t *loadTarget, v string) { t.pidFile = v }); err != nil {
		return nil, err
	}
	return runs, nil
}

// anyKill reports whether some target has a worker to kill.
func anyKill(runs []loadTarget) bool {
	for _, t := range runs {
		if t.pidFile != "" {
			return true
		}
	}
	return false
}

// printLoad prints one deployment's figures, a line each (the output without --target).
func printLoad(out io.Writer, res *bench.LoadResult) {
	fmt.Fprintf(out, "drafts %d (concurrency %d) through %s in %.0f s\n", res.Drafts, res.Concurrency, strings.Join(res.APIs, ", "), res.Seconds)
	fmt.Fprintf(out, "throughput %.1f drafts/s\ndraft latency p50 %.1f ms, p95 %.1f ms, p99 %.1f ms\nedit p50 %.1f ms\n",
		res.DraftsPerS, res.DraftP50Ms, res.DraftP95Ms, res.DraftP99Ms, res.EditP50Ms)
	fmt.Fprintf(out, "send-check p50 %.1f ms, p99 %.1f ms (%s)\nerrors %d\n", res.SendCheckP50Ms, res.SendCheckP99Ms, verdicts(res), res.Errors)
	for _, e := range res.FirstErrors {
		fmt.Fprintf(out, "  %s\n", e)
	}
	if res.KilledWorker != 0 {
		fmt.Fprintf(out, "killed worker pid %d after %d drafts\n", res.KilledWorker, res.KilledAtDraft)
	}
	fmt.Fprintf(out, "lost %d, duplicated %d\n", res.Lost, res.Duplicated)
}

// verdicts lists the send-check verdicts with their counts, sorted.
func verdicts(res *bench.LoadResult) string {
	var vs []string
	for v, n := range res.Verdicts {
		vs = append(vs, fmt.Sprintf("%s %d", v, n))
	}
	sort.Strings(vs)
	return strings.Join(vs, ", ")
}

// lostOrDuplicated fails the command when any target lost or duplicated a draft.
func lostOrDuplicated(results []*bench.LoadResult) error {
	var bad []string
	for _, r := range results {
		if r.Lost > 0 || r.Duplicated > 0 {
			msg := fmt.Sprintf("%d drafts lost and %d duplicated", r.Lost, r.Duplicated)
			if r.Target != "" {
				msg = r.Target + ": " + msg
			}
			bad = append(bad, msg)
		}
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "; "))
	}
	return nil
}

// printLoadTable prints the targets side by side: a row per figure, a column per target.
func printLoadTable(out io.Writer, results []*bench.LoadResult) error {
	rows := []struct {
		label string
		value func(r *bench.LoadResult) string
	}{
		{"API replicas", func(r *bench.LoadResult) string { return fmt.Sprint(len(r.APIs)) }},
		{"drafts (concurrency)", func(r *bench.LoadResult) string { return fmt.Sprintf("%d (%d)", r.Drafts, r.Concurrency) }},
		{"seconds", func(r *bench.LoadResult) string { return fmt.Sprintf("%.0f", r.Seconds) }},
		{"drafts/s", func(r *bench.LoadResult) string { return fmt.Sprintf("%.1f", r.DraftsPerS) }},
		{"draft p50 ms", func(r *bench.LoadResult) string { return fmt.Sprintf("%.1f", r.DraftP50Ms) }},
		{"draft p95 ms", func(r *bench.LoadResult) string { return fmt.Sprintf("%.1f", r.DraftP95Ms) }},
		{"draft p99 ms", func(r *bench.LoadResult) string { return fmt.Sprintf("%.1f", r.DraftP99Ms) }},
		{"edit p50 ms", func(r *bench.LoadResult) string { return fmt.Sprintf("%.1f", r.EditP50Ms) }},
		{"send-check p50 ms", func(r *bench.LoadResult) string { return fmt.Sprintf("%.1f", r.SendCheckP50Ms) }},
		{"send-check p99 ms", func(r *bench.LoadResult) string { return fmt.Sprintf("%.1f", r.SendCheckP99Ms) }},
		{"send-check verdicts", verdicts},
		{"errors", func(r *bench.LoadResult) string { return fmt.Sprint(r.Errors) }},
		{"killed worker", func(r *bench.LoadResult) string {
			if r.KilledWorker == 0 {
				return "none"
			}
			return fmt.Sprintf("pid %d after %d drafts", r.KilledWorker, r.KilledAtDraft)
		}},
		{"lost", func(r *bench.LoadResult) string { return fmt.Sprint(r.Lost) }},
		{"duplicated", func(r *bench.LoadResult) string { return fmt.Sprint(r.Duplicated) }},
	}
	tw := tabwriter.NewWriter(out, 0, 0, 3, ' ', 0)
	header := []string{""}
	for _, r := range results {
		header = append(header, r.Target)
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, row := range rows {
		cells := []string{row.label}
		for _, r := range results {
			cells = append(cells, row.value(r))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range results {
		for _, e := range r.FirstErrors {
			fmt.Fprintf(out, "%s: %s\n", r.Target, e)
		}
	}
	return nil
}
