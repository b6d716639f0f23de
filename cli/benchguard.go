package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/bench"
)

// guardTargetP99Ms is the latency budget of the guard per 2,000-character draft: it runs
// in every draft and at every send-check, where an agent is waiting on the button.
const guardTargetP99Ms = 5.0

// newBenchGuardCmd returns `bench guard`, wired under the bench command.
func newBenchGuardCmd() *cobra.Command {
	var drafts, chars int
	var seed uint64
	var vocabularyPath string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "guard",
		Short: "Throughput and p99 latency of the guard on generated drafts",
		Long: `guard generates support drafts of about 2,000 characters (greetings, paragraphs, lists,
sign-offs; sentences with backed and invented numbers, commercial verbs, eligibility and
future promises, legal positions and placeholders) and runs the guard on each one
against a fixed set of eight source chunks, one draft at a time, as a draft workflow and
a send-check do. It prints sentences per second and the p50, p99 and maximum time per
draft. The target is a p99 under 5 ms per draft. No database or model is needed.`,
		Example: `  supportdraft bench guard
  supportdraft bench guard --drafts 10000 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if drafts < 1 || chars < 100 {
				return usagef("--drafts must be at least 1 and --chars at least 100 (got %d and %d)", drafts, chars)
			}
			vocab, err := vocabulary(vocabularyPath)
			if err != nil {
				return err
			}
			res := bench.Guard(vocab, bench.GuardOptions{Drafts: drafts, Chars: chars, Seed: seed})
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, res)
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "drafts\tchars/draft\tsources\tsentences\tsentences/s\tp50 ms\tp99 ms\tmax ms\tstruck\t")
			fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.0f\t%.3f\t%.3f\t%.3f\t%.0f%%\t\n", res.Drafts, res.CharsPerDraft, res.Sources,
				res.Sentences, res.SentencesPerS, res.P50Ms, res.P99Ms, res.MaxMs, 100*res.StruckShare)
			if err := tw.Flush(); err != nil {
				return err
			}
			verdict := "within"
			if res.P99Ms >= guardTargetP99Ms {
				verdict = "OVER"
			}
			fmt.Fprintf(out, "p99 %.3f ms per draft: %s the %.0f ms target\n", res.P99Ms, verdict, guardTargetP99Ms)
			return nil
		},
	}
	cmd.Flags().IntVar(&drafts, "drafts", 2000, "timed drafts")
	cmd.Flags().IntVar(&chars, "chars", 2000, "characters per generated draft")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "generator seed (same seed, same drafts)")
	cmd.Flags().StringVar(&vocabularyPath, "vocabulary", "", "extra commitment vocabulary file (extends the built-in one)")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"sentences_per_s": …, "p99_ms_per_draft": …, …} as JSON`)
	return cmd
}
