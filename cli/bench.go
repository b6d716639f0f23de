package cli

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/bench"
)

func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure retrieval, drafting and the guard, and print the figures",
		Long: `bench runs a benchmark against the real services and prints its figures. Benchmarks
work in scratch schemas they create and drop; the live policy store is never touched.`,
	}
	cmd.AddCommand(newBenchRetrievalCmd())
	return cmd
}

func newBenchRetrievalCmd() *cobra.Command {
	var chunks, queries int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "retrieval",
		Short: "Latency and recall of eligible-only retrieval on synthetic corpora",
		Long: `retrieval loads synthetic corpora (10k and 100k chunks by default) whose filters match
about 50%, 10%, 1% and 0.1% of the chunks, and for each case prints p50/p95 latency of
the eligible-only query, recall@10 against an independent exact scan with the same
filters, and how often a similarity-only baseline (top-k first, filters after) returns
ineligible chunks or fewer than k eligible ones.`,
		Example: `  supportdraft bench retrieval
  supportdraft bench retrieval --chunks 20000 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			sizes := []int{10_000, 100_000}
			if chunks > 0 {
				sizes = []int{chunks}
			}
			cases, err := bench.Retrieval(cmd.Context(), cfg.DatabaseURL, bench.RetrievalOptions{
				Sizes: sizes, Queries: queries, RecallQueries: min(queries, 20), Progress: cmd.ErrOrStderr(),
			})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(map[string]any{"cases": cases})
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "chunks\tselectivity\teligible\tp50 ms\tp95 ms\trecall@10\tbaseline ineligible\tbaseline short\t")
			for _, c := range cases {
				fmt.Fprintf(tw, "%d\t%g\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n", c.Chunks, c.Selectivity, c.EligibleChunks,
					c.P50Ms, c.P95Ms, c.RecallAt10, c.BaselineIneligibleRate, c.BaselineShortRate)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().IntVar(&chunks, "chunks", 0, "run one corpus of this many chunks instead of 10k and 100k")
	cmd.Flags().IntVar(&queries, "queries", 100, "timed queries per case (the first 20 are also checked for recall)")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"cases":[…]} as JSON`)
	return cmd
}
