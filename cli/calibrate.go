package cli

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/supportdraft/supportdraft/calibration"
	"github.com/supportdraft/supportdraft/evals"
	"github.com/supportdraft/supportdraft/llm/local"
)

func newCalibrateCmd() *cobra.Command {
	var reports []string
	var out string
	var version int
	var answerability bool
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
			if answerability {
				return fitAnswerability(cmd, reports, out, version)
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
		"fit the drafter's answerability model (llm/local/answerability.json) on the reports' labelled tickets instead")
	return cmd
}

// fitAnswerability fits the extractive drafter's answerability model (logistic, over the
// signals each draft of the reports carries, against the label's answerability) and
// writes it to out.
func fitAnswerability(cmd *cobra.Command, reports []string, out string, version int) error {
	var samples []local.AnswerabilitySample
	var sets []string
	for _, r := range reports {
		s, set, err := evals.AnswerabilitySamples(r)
		if err != nil {
			return usageError{err}
		}
		samples, sets = append(samples, s...), append(sets, set)
	}
	m, err := local.FitAnswerability(samples)
	if err != nil {
		return err
	}
	m.Version, m.FittedOn = version, sets
	if err := writeFitted(out, m); err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "fitted answerability v%d on %d tickets (threshold %.3f) -> %s\n", m.Version, m.Samples, m.Threshold, out)
	return nil
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
