package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/bench"
	"github.com/supportdraft/supportdraft/store"
)

func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure retrieval, drafting and the guard, and print the figures",
		Long: `bench runs a benchmark against the real services and prints its figures. Benchmarks
work in scratch schemas they create and drop; the live policy store is never touched.`,
	}
	cmd.AddCommand(newBenchRetrievalCmd(), newBenchWorkflowCmd(), newBenchGuardCmd(), newBenchWebCmd(), newBenchLoadCmd(), newBenchIntakeCmd(), newBenchDrafterCmd(), newBenchInputCmd())
	return cmd
}

func newBenchRetrievalCmd() *cobra.Command {
	var chunks, efSearch []int
	var queries, recallQueries int
	var asJSON, explain, keep bool
	var schema string
	cmd := &cobra.Command{
		Use:   "retrieval",
		Short: "Latency and recall of eligible-only retrieval on synthetic corpora",
		Long: `retrieval loads synthetic corpora (10k, 100k and 1M chunks by default; the 1M case takes
about an hour and a half on two cores, most of it building scopes and checking that their
graphs reach every chunk) whose filters match about 50%, 10%, 1% and 0.1% of the chunks,
and for each case prints p50/p95 latency of the eligible-only query (timed back to back,
after 20 untimed queries of its own), recall@10 of the same answers against an independent
exact scan with the same filters (run after the timed queries), how many of those queries
the witnesses sent from the graph walk to an exact scan of the scope (the slow queries of
a large scope), the p50 of an exact scan of the case's scope for the same queries (scan
ms: what the vector arm costs a scope without a graph), and how often a similarity-only
baseline (top-k first, filters after) returns ineligible chunks or fewer than k eligible
ones. For each corpus it also prints
its retrieval scopes (one partition per plan × region): how long they took to build, their
size on disk, how many chunks their graphs do not reach (scored exactly from each
scope's side list) and how many graphs were built a second time because the first build
lost more than 2% of its scope (each scope's builds and unreached chunks are printed as
progress), and a reference scan timed before its queries: the exact top 10 of 20,000 fixed
vectors, a workload no change to supportdraft touches, so that two runs' figures compare
only as far as their machines did. --explain adds, per case, EXPLAIN (ANALYZE, BUFFERS) of its first
query: the partition, HNSW or exact scan, rows the time filter removed, planning and
execution time. --ef-search runs every query once per HNSW search breadth given (the
service uses 100) and prints a case for each, to weigh recall against latency on the same
corpus. --keep leaves each corpus's scratch schema in place and prints its name, and
--schema NAME runs the cases on such a schema (with --chunks its one size) without loading
it again. Recall counts chunk IDs. Each recall query whose top-10 is not the reference's is
printed after the tables, both lists side by side with each chunk's similarity and fused
score, so a chunk the search did not find shows apart from a tie.`,
		Example: `  supportdraft bench retrieval
  supportdraft bench retrieval --chunks 10000,100000 --json
  supportdraft bench retrieval --chunks 1000000 --ef-search 100,200,400
  supportdraft bench retrieval --chunks 100000 --keep
  supportdraft bench retrieval --chunks 100000 --schema bench_0123456789ab`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			cases, err := bench.Retrieval(cmd.Context(), cfg.DatabaseURL, bench.RetrievalOptions{
				Sizes: chunks, Queries: queries, RecallQueries: min(queries, recallQueries), Explain: explain, EFSearch: efSearch,
				Keep: keep, Schema: schema, Progress: cmd.ErrOrStderr(),
			})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, map[string]any{"cases": cases})
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "chunks\tselectivity\tef_search\teligible\tp50 ms\tp95 ms\trecall@10\texact fallbacks\tscan ms\tbaseline ineligible\tbaseline short\t")
			for _, c := range cases { // recall to three places: one miss in a thousand must not read 1.00
				fmt.Fprintf(tw, "%d\t%g\t%d\t%d\t%.2f\t%.2f\t%.3f\t%d\t%.2f\t%.2f\t%.2f\t\n", c.Chunks, c.Selectivity, c.EFSearch, c.EligibleChunks,
					c.P50Ms, c.P95Ms, c.RecallAt10, c.ExactFallbacks, c.ScanMs, c.BaselineIneligibleRate, c.BaselineShortRate)
			}
			fmt.Fprintln(tw)
			fmt.Fprintln(tw, "chunks\tscopes\tscope build s\tscope rows MB\tscope indexes MB\tunreached\tgraphs rebuilt\treference scan ms\t")
			for i, c := range cases {
				if i == 0 || cases[i-1].Chunks != c.Chunks {
					fmt.Fprintf(tw, "%d\t%d\t%.1f\t%.0f\t%.0f\t%d\t%d\t%.2f\t\n", c.Chunks, c.Scopes, c.ScopeBuildS, c.ScopeTableMB, c.ScopeIndexMB, c.Unreached, c.Rebuilt, c.ReferenceScanMs)
				}
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			for _, c := range cases {
				if len(c.Plan) > 0 {
					fmt.Fprintf(out, "\nplan at %d chunks, selectivity %g, ef_search %d:\n  %s\n", c.Chunks, c.Selectivity, c.EFSearch, strings.Join(c.Plan, "\n  "))
				}
			}
			for _, c := range cases {
				for _, m := range c.Misses {
					fmt.Fprintf(out, "\nmissed at %d chunks, selectivity %g, ef_search %d: %q\n", c.Chunks, c.Selectivity, c.EFSearch, m.Query)
					printMiss(out, m)
				}
			}
			return nil
		},
	}
	cmd.Flags().IntSliceVar(&chunks, "chunks", []int{10_000, 100_000, 1_000_000}, "corpus sizes to run, comma-separated")
	cmd.Flags().IntVar(&queries, "queries", 100, "timed queries per case")
	cmd.Flags().IntVar(&recallQueries, "recall-queries", 50, "of those, how many are also checked against the exact reference")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"cases":[…]} as JSON`)
	cmd.Flags().BoolVar(&explain, "explain", false, "print each case's query plan (EXPLAIN ANALYZE)")
	cmd.Flags().IntSliceVar(&efSearch, "ef-search", []int{store.EFSearch}, "HNSW search breadths to compare, comma-separated")
	cmd.Flags().BoolVar(&keep, "keep", false, "leave each corpus's scratch schema in place and print its name")
	cmd.Flags().StringVar(&schema, "schema", "", "run on a scratch schema an earlier --keep left, without loading a corpus")
	return cmd
}

// printMiss lists a missed query's reference and returned top-k side by side, each chunk
// with its similarity; * marks a chunk the other list lacks.
func printMiss(out io.Writer, m bench.RecallMiss) {
	in := func(list []bench.ScoredChunk, id string) bool {
		return slices.ContainsFunc(list, func(c bench.ScoredChunk) bool { return c.ID == id })
	}
	cell := func(list, other []bench.ScoredChunk, i int) string {
		if i >= len(list) {
			return ""
		}
		mark := " "
		if !in(other, list[i].ID) {
			mark = "*"
		}
		return fmt.Sprintf("%s%s %.9f", mark, list[i].ID, list[i].Similarity)
	}
	fmt.Fprintf(out, "  %-52s %s\n", "reference: id similarity", "returned")
	for i := range max(len(m.Reference), len(m.Returned)) {
		fmt.Fprintf(out, "  %-52s %s\n", cell(m.Reference, m.Returned, i), cell(m.Returned, m.Reference, i))
	}
}

func newBenchWorkflowCmd() *cobra.Command {
	var n, concurrency, corpusCopies int
	var corpus string
	var asJSON, withCodec bool
	cmd := &cobra.Command{
		Use:   "workflow",
		Short: "Draft latency, throughput and send-check latency through the real stack",
		Long: `workflow drives --drafts tickets through the real Temporal dev server, an in-process
worker with the local providers, and the real HTTP API (in a scratch schema with the
sample corpus, or --corpus), then send-checks each draft five times with its own reply, as
an agent sends a draft as written. It prints p50/p95 draft latency as the sidebar sees
it, drafts per second, history events per workflow, and send-check p50/p99 as the send
hook sees it. The send-check judges the reply against every chunk eligible for the
account, so a larger --corpus, or --copies N of it, shows what it costs as a corpus
grows. Payloads are encrypted with a key made for the run, as in production; the codec's
work on one draft's history (payloads, size, time to encrypt and decrypt them) is printed
too. --codec=false runs the same in clear, to compare.

Two waves of --concurrency drafts run first and are not timed, each send-checked once: a
fresh process opens its connections, prepares its statements and reads the eligible
corpus for the guard on its first drafts and checks, which a running service did long ago
(the corpus: once after it last changed). The slowest of them are printed on a line of
their own.`,
		Example: `  supportdraft bench workflow --drafts 200 --json
  supportdraft bench workflow --copies 80 --drafts 100   # the sample corpus 80 times over`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			res, err := bench.Workflow(cmd.Context(), cfg.DatabaseURL, cfg.TemporalAddress, bench.WorkflowOptions{
				Drafts: n, Concurrency: concurrency, Corpus: corpus, Copies: corpusCopies, Progress: cmd.ErrOrStderr(), Codec: withCodec})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, res)
			}
			fmt.Fprintf(out, "drafts %d (concurrency %d)\ndraft latency p50 %.1f ms, p95 %.1f ms\nthroughput %.1f drafts/s\nhistory events per workflow %.0f\nsend-check p50 %.1f ms, p99 %.1f ms\n",
				res.Drafts, res.Concurrency, res.P50Ms, res.P95Ms, res.DraftsPerS, res.EventsPerWorkflow, res.SendCheckP50Ms, res.SendCheckP99Ms)
			fmt.Fprintf(out, "warm-up %d drafts and a send-check of each, not counted above: slowest draft %.1f ms, slowest send-check %.1f ms\n",
				res.WarmUpDrafts, res.WarmUpMaxMs, res.WarmUpCheckMaxMs)
			fmt.Fprintf(out, "workflow tasks %d: waiting for a worker p50 %.1f ms, p99 %.1f ms; on the worker p50 %.1f ms, p99 %.1f ms\n",
				res.Tasks.Tasks, res.Tasks.ScheduleToStartP50, res.Tasks.ScheduleToStartP99, res.Tasks.StartToCompleteP50, res.Tasks.StartToCompleteP99)
			if c := res.CodecCost; c != nil {
				fmt.Fprintf(out, "codec per draft: %d payloads, %.1f KB; encrypt %.3f ms, decrypt %.3f ms\n", c.Payloads, c.KB, c.EncryptMs, c.DecryptMs)
			} else {
				fmt.Fprintln(out, "codec off: payloads in clear")
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&n, "drafts", 100, "how many tickets to draft")
	cmd.Flags().IntVar(&concurrency, "concurrency", 4, "drafts in flight at once")
	cmd.Flags().StringVar(&corpus, "corpus", "corpus/sample", "policy corpus to draft from")
	cmd.Flags().IntVar(&corpusCopies, "copies", 1, "import the corpus this many times, each copy's documents renamed")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the figures as JSON")
	cmd.Flags().BoolVar(&withCodec, "codec", true, "encrypt payloads with the payload codec, as in production")
	return cmd
}

func newBenchWebCmd() *cobra.Command {
	var drafts, requests int
	var corpus string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "web",
		Short: "Time to first byte of the sidebar, review queue and admin view with 1,000 drafts stored",
		Long: `web stores --drafts drafts in a scratch schema (one real draft built through the
workflow, saved under as many tickets, all waiting in the review queue), then requests
the sidebar, the review dashboard and the admin view --requests times each, one at
a time, through the real HTTP handler with a signed session (token checked per request),
and prints p50/p99 time to first byte. The target is p99 < 50 ms.`,
		Example: `  supportdraft bench web --json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			res, err := bench.Web(cmd.Context(), cfg.DatabaseURL, cfg.TemporalAddress, bench.WebOptions{
				Drafts: drafts, Requests: requests, Corpus: corpus, Progress: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, res)
			}
			fmt.Fprintf(out, "%d drafts stored, %d requests per page\n", res.Drafts, res.Requests)
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "page\tTTFB p50 ms\tTTFB p99 ms")
			for _, p := range res.Pages {
				fmt.Fprintf(tw, "%s\t%.1f\t%.1f\n", p.Page, p.P50Ms, p.P99Ms)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().IntVar(&drafts, "drafts", 1000, "drafts stored before measuring")
	cmd.Flags().IntVar(&requests, "requests", 300, "requests per page")
	cmd.Flags().StringVar(&corpus, "corpus", "corpus/sample", "policy corpus to draft from")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the figures as JSON")
	return cmd
}

func newBenchInputCmd() *cobra.Command {
	var requests int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "input",
		Short: "Time and memory to refuse hostile request bodies (1 MB deep in brackets)",
		Long: `input serves the real API over a scratch schema and posts hostile bodies to
POST /v1/drafts with an agent token, --requests times each: a megabyte of nested brackets
streamed without a length (refused by the depth limit while it is read), the same with
its length declared (refused by the 256 KiB body limit), and the probe's 200 KB body.
It prints the status, p50 and maximum time, and the bytes allocated per request. The
target is a refusal under 100 ms with memory bounded by the limits, not by the body.`,
		Example: `  supportdraft bench input --json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if requests < 1 {
				return usagef("--requests must be at least 1 (got %d)", requests)
			}
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			res, err := bench.Input(cmd.Context(), cfg.DatabaseURL, cfg.TemporalAddress, requests)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, res)
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "body	bytes	status	p50 ms	max ms	KB allocated/request")
			for _, c := range res.Cases {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.2f\t%.0f\n", c.Case, c.BodyBytes, c.Status, c.P50Ms, c.MaxMs, c.AllocKBPerRq)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().IntVar(&requests, "requests", 50, "requests per body")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the figures as JSON")
	return cmd
}
