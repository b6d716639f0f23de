package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/bench"
)

// newBenchDrafterCmd returns `bench drafter`, wired under the bench command.
func newBenchDrafterCmd() *cobra.Command {
	var sizes []int
	var rounds int
	var vocabularyPath string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "drafter",
		Short: "Time per ticket of the local drafter, judge and guard at 1×, 10× and 100× a normal ticket",
		Long: `drafter builds tickets 1, 10 and 100 times the size of a normal one (two sentences, one
question, about 180 characters, repeated) and times one build's local model steps on
each: the extractive drafter, the rule judge on every claim and on the reply, and the
guard, against eight fixed source chunks. "capped" is what a draft build costs: the
drafter's input caps (characters, sentences, questions) applied first, as every build
does; "uncapped" runs the same steps on the whole ticket, to show how the steps scale
with their input. Ratios are over the 1× time. No database or model is needed.`,
		Example: `  supportdraft bench drafter
  supportdraft bench drafter --sizes 1,10,100,1000 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if rounds < 1 || len(sizes) == 0 || sizes[0] < 1 {
				return usagef("--rounds must be at least 1 and --sizes start at 1 or more (got %d and %v)", rounds, sizes)
			}
			vocab, err := vocabulary(vocabularyPath)
			if err != nil {
				return err
			}
			res, err := bench.Drafter(vocab, bench.DrafterOptions{Sizes: sizes, Rounds: rounds})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, res)
			}
			fmt.Fprintf(out, "caps: %d characters, %d sentences, %d questions\n", res.Limits.Chars, res.Limits.Sentences, res.Limits.Questions)
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "size\tchars\tread\tcapped ms\tratio\tuncapped ms\tratio\t")
			for _, s := range res.Sizes {
				fmt.Fprintf(tw, "%d×\t%d\t%d\t%.3f\t%.1f\t%.3f\t%.1f\t\n", s.Multiple, s.Chars, s.ReadChars, s.CappedMs, s.CappedRatio, s.UncappedMs, s.UncappedRatio)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().IntSliceVar(&sizes, "sizes", []int{1, 10, 100}, "ticket sizes, as multiples of a normal ticket")
	cmd.Flags().IntVar(&rounds, "rounds", 20, "builds timed per size")
	cmd.Flags().StringVar(&vocabularyPath, "vocabulary", "", "extra commitment vocabulary file (extends the built-in one)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
