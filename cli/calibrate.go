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
	var out, method string
	var version int
	var precision float64
	var answerability, cross bool
	cmd := &cobra.Command{
		Use:   "calibrate --report EVAL.json [--report EVAL.json ...] --out FILE.json",
		Short: "Fit the confidence mapping and its review threshold on eval reports",
		Long: `calibrate fits the map from the judge's raw confidence to the probability that a draft
is grounded, on the system drafts of one or more eval JSON reports (supportdraft eval
--json), and writes it as a mapping file. --method logistic (Platt scaling, each set
weighing the same) or isotonic (pool-adjacent-violators over every draft). Reports joined
by a comma in one --report are one set (sets that share questions).

With the mapping it chooses the forced-review threshold on the same sets: the lowest
threshold at which the drafts it lets through are grounded at least --precision of the
time, the sets' precisions averaged. It prints, per set, ECE calibrated and raw, AUROC,
and at that threshold the grounded drafts held back, the other drafts caught and the
precision of the drafts let through. drafts.ReviewThreshold must equal the threshold the
file names.

--cross first leaves each set out, fits mapping and threshold on the others and prints
the same figures on the set left out: what a knowledge base nobody here has seen can
expect. The worker and the eval read the mapping embedded from
calibration/confidence.json: write there and rebuild to ship a new one.`,
		Example: `  supportdraft eval --corpus evals/corpus --tickets evals/tickets.jsonl --json shipped.json
  supportdraft calibrate --cross --report shipped.json --report hc.json --report sf.json,sfa.json --version 5 --out calibration/confidence.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case len(reports) == 0:
				return usagef("--report is required: an eval JSON report (supportdraft eval --json FILE)")
			case out == "":
				return usagef("--out is required: the mapping file to write, e.g. calibration/confidence.json")
			case version < 1:
				return usagef("--version is %d: use 1 or more", version)
			case method != calibration.MethodLogistic && method != calibration.MethodIsotonic:
				return usagef("--method is %q: use %s or %s", method, calibration.MethodLogistic, calibration.MethodIsotonic)
			case precision <= 0 || precision > 1:
				return usagef("--precision is %g: use a share in (0, 1]", precision)
			}
			if answerability {
				return fitAnswerability(cmd, reports, out, version, cross)
			}
			return fitConfidence(cmd, reports, out, method, version, precision, cross)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	cmd.Flags().StringArrayVar(&reports, "report", nil, "eval JSON report to fit on (repeatable; reports joined by commas are one set)")
	cmd.Flags().StringVar(&out, "out", "", "mapping file to write")
	cmd.Flags().IntVar(&version, "version", 1, "version number written into the mapping")
	cmd.Flags().StringVar(&method, "method", calibration.MethodLogistic, "confidence mapping: logistic (Platt, sets weighing the same) or isotonic")
	cmd.Flags().Float64Var(&precision, "precision", 0.80,
		"the review threshold is the lowest at which the drafts it lets through are grounded at this share (mean over the sets)")
	cmd.Flags().BoolVar(&answerability, "answerability", false,
		"fit the drafter's answerability model (llm/local/answerability.json) on the reports' labelled tickets instead")
	cmd.Flags().BoolVar(&cross, "cross", false,
		"before fitting, leave each set out in turn, fit on the others and print how the fit reads the set left out")
	return cmd
}

// fitConfidence fits the confidence mapping and chooses its review threshold on the
// reports' sets, prints how both read each set (after the cross-fit's folds, with cross)
// and writes the mapping to out.
func fitConfidence(cmd *cobra.Command, reports []string, out, method string, version int, precision float64, cross bool) error {
	sets, _, err := readSets(reports, evals.CalibrationSamples, func(name string, samples []calibration.Sample) calibration.Set {
		return calibration.Set{Name: name, Samples: samples}
	})
	if err != nil {
		return err
	}
	fit := func(sets []calibration.Set) (calibration.Mapping, error) {
		if method == calibration.MethodLogistic {
			return calibration.FitLogistic(sets, version)
		}
		var all []calibration.Sample
		var names []string
		for _, s := range sets {
			all, names = append(all, s.Samples...), append(names, s.Name)
		}
		return calibration.Fit(all, names, version), nil
	}
	w := cmd.OutOrStdout()
	if cross {
		folds, err := calibration.CrossFit(sets, fit, precision)
		if err != nil {
			return usageError{err}
		}
		fmt.Fprintln(w, "each set left out, mapping and threshold fitted on the others:")
		rows := make([]checkRow, len(folds))
		for i, f := range folds {
			rows[i] = checkRow{f.Held, f.Mapping.Review.Threshold, f.Check}
		}
		printChecks(w, rows)
		fmt.Fprintln(w)
	}
	m, err := fit(sets)
	if err != nil {
		return usageError{err}
	}
	r, err := calibration.ChooseThreshold(m, sets, precision)
	if err != nil {
		return usageError{err}
	}
	m.Review = &r
	fmt.Fprintf(w, "in sample, review threshold %.2f (drafts let through grounded at %.2f or more, sets weighing the same):\n", r.Threshold, precision)
	rows := make([]checkRow, len(sets))
	for i, s := range sets {
		rows[i] = checkRow{s.Name, r.Threshold, calibration.CheckSet(m, s, r.Threshold)}
	}
	printChecks(w, rows)
	if err := writeFitted(out, m); err != nil {
		return err
	}
	fmt.Fprintf(w, "fitted %s v%d on %d drafts, review threshold %.2f -> %s\n", m.Method, m.Version, m.Drafts, r.Threshold, out)
	return nil
}

// checkRow is one set's line of a calibration table.
type checkRow struct {
	set       string
	threshold float64
	check     calibration.Check
}

func printChecks(w io.Writer, rows []checkRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "set\tdrafts\tgrounded\tECE\traw ECE\tAUROC\tthreshold\tgrounded held back\tothers caught\tprecision let through")
	for _, r := range rows {
		c := r.check
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.2f\t%.2f\t%.2f\t%.2f\n", r.set, c.Drafts, c.Grounded, c.ECE, c.RawECE, c.AUROC, r.threshold, c.HeldBack, c.Caught, c.Precision)
	}
	tw.Flush()
}

// fitAnswerability fits the extractive drafter's answerability model (logistic, over the
// signals each draft of the reports carries, against the label's answerability) and
// writes it to out. Each --report is one set, its comma-joined reports read together;
// with cross, each set is first left out in turn and the model fitted on the others is
// read on it.
func fitAnswerability(cmd *cobra.Command, reports []string, out string, version int, cross bool) error {
	sets, names, err := readSets(reports, evals.AnswerabilitySamples, func(name string, samples []local.AnswerabilitySample) local.AnswerabilitySet {
		return local.AnswerabilitySet{Name: name, Samples: samples}
	})
	if err != nil {
		return err
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

// readSets reads every --report with read and returns its fitting sets, each made by set
// from its name and samples, and the tickets file of every report read. A set is the
// samples of one --report, or of several joined by a comma, named by their tickets files
// joined with "+".
func readSets[S, T any](reports []string, read func(path string) ([]S, string, error), set func(name string, samples []S) T) ([]T, []string, error) {
	var sets []T
	var all []string
	for _, joined := range reports {
		var samples []S
		var tickets []string
		for _, r := range strings.Split(joined, ",") {
			s, name, err := read(r)
			if err != nil {
				return nil, nil, usageError{err}
			}
			samples = append(samples, s...)
			tickets = append(tickets, name)
		}
		sets, all = append(sets, set(strings.Join(tickets, "+"), samples)), append(all, tickets...)
	}
	return sets, all, nil
}
