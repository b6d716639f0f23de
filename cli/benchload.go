package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/bench"
)

func newBenchLoadCmd() *cobra.Command {
	var drafts, concurrency int
	var apis []string
	var databaseURL, pidFile string
	var killAt float64
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "load",
		Short: "Drafts, edits and send-checks through running API replicas; lost and duplicated drafts",
		Long: `load drives --drafts tickets through already running API replicas (round robin over
--api), --concurrency at a time: each ticket is drafted, edited and send-checked. It prints
drafts per second, draft p50/p95/p99, send-check p50/p99, verdicts and errors, then counts in
--database the tickets with no stored draft (lost) or more than one (duplicated).

With --kill-worker-at P it kills one worker (SIGKILL, the PID in --worker-pid-file) once P%
of the drafts are done; its workflows must finish on the other worker, none lost or built
twice. scripts/cluster.sh up starts two workers and two replicas for this.`,
		Example: `  eval "$(scripts/cluster.sh up)"
  supportdraft bench load --drafts 10000 --concurrency 8 --api "$SUPPORTDRAFT_CLUSTER_API" \
    --database "$SUPPORTDRAFT_CLUSTER_DATABASE_URL" --kill-worker-at 50`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			if len(apis) == 0 {
				apis = []string{cfg.APIURL}
			}
			if databaseURL == "" {
				databaseURL = cfg.DatabaseURL
			}
			if killAt < 0 || killAt >= 100 {
				return fmt.Errorf("--kill-worker-at must be a percentage in [0, 100), got %g", killAt)
			}
			if drafts < 1 || concurrency < 1 {
				return fmt.Errorf("--drafts and --concurrency must be at least 1")
			}
			res, err := bench.Load(cmd.Context(), bench.LoadOptions{Drafts: drafts, Concurrency: concurrency, APIs: apis,
				DatabaseURL: databaseURL, KillWorkerAt: killAt / 100, WorkerPIDFile: pidFile, Progress: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, res)
			}
			var verdicts []string
			for v, n := range res.Verdicts {
				verdicts = append(verdicts, fmt.Sprintf("%s %d", v, n))
			}
			sort.Strings(verdicts)
			fmt.Fprintf(out, "drafts %d (concurrency %d) through %s in %.0f s\n", res.Drafts, res.Concurrency, strings.Join(res.APIs, ", "), res.Seconds)
			fmt.Fprintf(out, "throughput %.1f drafts/s\ndraft latency p50 %.1f ms, p95 %.1f ms, p99 %.1f ms\nedit p50 %.1f ms\n",
				res.DraftsPerS, res.DraftP50Ms, res.DraftP95Ms, res.DraftP99Ms, res.EditP50Ms)
			fmt.Fprintf(out, "send-check p50 %.1f ms, p99 %.1f ms (%s)\nerrors %d\n", res.SendCheckP50Ms, res.SendCheckP99Ms, strings.Join(verdicts, ", "), res.Errors)
			for _, e := range res.FirstErrors {
				fmt.Fprintf(out, "  %s\n", e)
			}
			if res.KilledWorker != 0 {
				fmt.Fprintf(out, "killed worker pid %d after %d drafts\n", res.KilledWorker, res.KilledAtDraft)
			}
			fmt.Fprintf(out, "lost %d, duplicated %d\n", res.Lost, res.Duplicated)
			if res.Lost > 0 || res.Duplicated > 0 {
				return fmt.Errorf("%d drafts lost and %d duplicated", res.Lost, res.Duplicated)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&drafts, "drafts", 1000, "how many tickets to draft")
	cmd.Flags().IntVar(&concurrency, "concurrency", 8, "tickets in flight at once")
	cmd.Flags().StringSliceVar(&apis, "api", nil, "API base URLs, comma-separated (default SUPPORTDRAFT_API_URL)")
	cmd.Flags().StringVar(&databaseURL, "database", "", "the replicas' database, for the lost/duplicated count (default DATABASE_URL)")
	cmd.Flags().Float64Var(&killAt, "kill-worker-at", 0, "kill one worker when this percentage of drafts is done (0: never)")
	cmd.Flags().StringVar(&pidFile, "worker-pid-file", ".data/cluster/worker-1.pid", "PID file of the worker --kill-worker-at kills")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the figures as JSON")
	return cmd
}
