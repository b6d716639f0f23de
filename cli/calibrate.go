package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/calibration"
	"github.com/supportdraft/supportdraft/evals"
	"github.com/supportdraft/supportdraft/llm/local"
)

func newCalibrateCmd() *cobra.Command {
	var reports []string
	var out string
	var version int
	var answerability, cross bool
	cmd := &cobra.Command{
		Use:   "calibrate --report EVAL.json [--report EVAL.json ...] --out FILE.json",
		Short: "Fit the confidence mapping (isotonic) on eval reports",
		Long: `calibrate fits the map from the judge's raw confidence to the probability that a draft
is grounded, on the system drafts of one or more eval JSON reports (supportdraft eval
--json), by isotonic regression, and writes it as a mapping file. The worker and the eval
read the mapping embedded from calibration/confidence.json: write there and rebuild to
ship a new one.

Fit on one set and check on others: run eval on the sets not used for fitting and read
expected_calibration_error (the mapping's) beside raw_expected_calibration_error (without
it) and the reliability table. The file names the sets it was fitted on.`,
		Example: `  supportdraft eval --corpus evals/corpus --tickets evals/tickets.jsonl --json shipped.json
  supportdraft calibrate --report shipped.json --version 2 --out calibration/confidence.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case len(reports) == 0:
				return usagef("--report is required: an eval JSON report (supportdraft eval --json FILE)")
			case out == "":
				return usagef("--out is required: the mapping file to write, e.g. calibration/confidence.json")
			case version < 1:
				return usagef("--version is %d: use 1 or more", version)
			}
			if cross && !answerability {
				return usagef("--cross checks the answerability model: use it with --answerability")
			}
			if answerability {
				return fitAnswerability(cmd, reports, out, version, cross)
			}
			var samples []calibration.Sample
			var sets []string
			for _, r := range reports {
				s, set, err := evals.CalibrationSamples(r)
				if err != nil {
					return usageError{err}
				}
				samples, sets = append(samples, s...), append(sets, set)
			}
			m := calibration.Fit(samples, sets, version)
			if err := writeFitted(out, m); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "fitted %s v%d on %d drafts (%d points) -> %s\n", m.Method, m.Version, m.Drafts, len(m.Points), out)
			return nil
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	cmd.Flags().StringArrayVar(&reports, "report", nil, "eval JSON report to fit on (repeatable)")
	cmd.Flags().StringVar(&out, "out", "", "mapping file to write")
	cmd.Flags().IntVar(&version, "version", 1, "version number written into the mapping")
	cmd.Flags().BoolVar(&answerability, "answerability", false,
		"fit the drafter's answerability model (llm/local/answerability.json) on the reports' labelled tickets instead;\n"+
			"reports joined by commas in one --report are one set (sets that share questions)")
	cmd.Flags().BoolVar(&cross, "cross", false,
		"with --answerability: before fitting, leave each set out in turn, fit on the others and print how the model reads the set left out")
	return cmd
}

// fitAnswerability fits the extractive drafter's answerability model (logistic, over the
// signals each draft of the reports carries, against the label's answerability) and
// writes it to out. Each --report is one set, its comma-joined reports read together;
// with cross, each set is first left out in turn and the model fitted on the others is
// read on it.
func fitAnswerability(cmd *cobra.Command, reports []string, out string, version int, cross bool) error {
	var sets []local.AnswerabilitySet
	var names []string
	for _, group := range reports {
		var set local.AnswerabilitySet
		var tickets []string
		for _, r := range strings.Split(group, ",") {
			s, name, err := evals.AnswerabilitySamples(r)
			if err != nil {
				return usageError{err}
			}
			set.Samples = append(set.Samples, s...)
			tickets = append(tickets, name)
		}
		set.Name = strings.Join(tickets, "+")
		sets, names = append(sets, set), append(names, tickets...)
	}
	w := cmd.OutOrStdout()
	if cross {
		folds, err := local.CrossFit(sets)
		if err != nil {
			return usageError{err}
		}
		printCrossFit(w, folds)
	}
	m, err := local.FitAnswerabilitySets(sets)
	if err != nil {
		return err
	}
	m.Version, m.FittedOn = version, names
	if err := writeFitted(out, m); err != nil {
		return err
	}
	fmt.Fprintf(w, "fitted answerability v%d on %d tickets (threshold %.3f) -> %s\n", m.Version, m.Samples, m.Threshold, out)
	return nil
}

// printCrossFit prints one row per fold: the set left out, how the model fitted on the
// others reads it, and that model's weights, so a weight that changes sign or size from
// fold to fold shows.
func printCrossFit(w io.Writer, folds []local.CrossFold) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "left out\tanswerable\tunanswerable\trecall\tfalse abstention\tAUROC\tthreshold\tweights")
	for _, f := range folds {
		var ws []string
		for _, name := range local.SignalNames() {
			if v := f.Model.Weights[name]; v != 0 {
				ws = append(ws, fmt.Sprintf("%s %.2f", name, v))
			}
		}
		c := f.Check
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.2f\t%.3f\t%.3f\t%s\n", f.Held, c.Answerable, c.Unanswerable, c.Recall, c.FalseAbstention, c.AUROC, f.Model.Threshold, strings.Join(ws, ", "))
	}
	tw.Flush()
}

// writeFitted writes a fitted file (a calibration map, an answerability model) as the
// indented JSON the binary embeds.
func writeFitted(out string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}
