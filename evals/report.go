package evals

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"
)

// Report is the eval's output. The system's figures sit at the top level (the
// contract in docs/architecture.md), the baseline's under "baseline" with the same keys.
type Report struct {
	Metrics
	Baseline     Metrics       `json:"baseline"`
	Retrieval    Retrieval     `json:"retrieval"`
	SkippedLines int           `json:"skipped_lines"`
	Skipped      []SkippedLine `json:"skipped"`
	ElapsedS     float64       `json:"elapsed_s"`
	Run          RunInfo       `json:"run"`
	Reviews      *Agreement    `json:"reviews,omitempty"`
}

// RunInfo says what was evaluated, with what, and what failed.
type RunInfo struct {
	// Agent is the agent the run acted for: its context's (agent.IDs), the default
	// agent's unless --agent named one.
	Agent       string `json:"agent"`
	Corpus      string `json:"corpus"`
	Tickets     string `json:"tickets"`
	Versions    int    `json:"versions"`
	Concurrency int    `json:"concurrency"`
	Drafter     string `json:"drafter"`
	Judge       string `json:"judge"`
	Embedder    string `json:"embedder"`
	// Calibration names the confidence mapping the drafts were scored with, and the sets
	// it was fitted on: ECE on those sets is in sample.
	Calibration string    `json:"calibration"`
	StartedAt   time.Time `json:"started_at"`
	Failures    []Failure `json:"failures"`
}

// Failure is a ticket for which one arm built no draft.
type Failure struct {
	TicketID string `json:"ticket_id"`
	Arm      string `json:"arm"`
	Error    string `json:"error"`
}

// metricRow is one line of the comparison: how to read it from Metrics, and its target
// (from the issue: what the product promises on the shipped set).
type metricRow struct {
	key    string
	rate   bool // a share in [0,1], shown as a percentage
	fixed  bool // a score in [0,1] shown with two decimals (AUROC, ECE)
	get    func(m *Metrics) float64
	target string  // "" when the figure has no target
	goal   float64 // the target's value, for charts
	cmp    int     // -1: at most goal, 0: exactly goal, +1: at least goal
	// has reports whether an arm has a denominator for the figure (nil: always). A set
	// whose tickets name no must_include facts has no must_include_rate; it shows as "-",
	// not as a 0% miss.
	has func(m *Metrics) bool
}

// metricRows are the contract's figures in contract order, then the calibration figures.
var metricRows = []metricRow{
	{key: "tickets", get: func(m *Metrics) float64 { return float64(m.Tickets) }},
	{key: "drafted", get: func(m *Metrics) float64 { return float64(m.Drafted) }},
	{key: "abstained", get: func(m *Metrics) float64 { return float64(m.Abstained) }},
	{key: "unsupported_claim_rate", rate: true, get: func(m *Metrics) float64 { return m.UnsupportedClaimRate }, target: "≤ 1%", goal: 0.01, cmp: -1},
	{key: "stale_source_rate", rate: true, get: func(m *Metrics) float64 { return m.StaleSourceRate }, target: "= 0", goal: 0, cmp: 0},
	{key: "useful_abstention_rate", rate: true, get: func(m *Metrics) float64 { return m.UsefulAbstentionRate }, target: "≥ 90%", goal: 0.9, cmp: 1},
	{key: "citation_precision", rate: true, get: func(m *Metrics) float64 { return m.CitationPrecision }, target: "≥ 95%", goal: 0.95, cmp: 1},
	{key: "citation_recall", rate: true, get: func(m *Metrics) float64 { return m.CitationRecall }},
	{key: "must_include_rate", rate: true, get: func(m *Metrics) float64 { return m.MustIncludeRate }, target: "≥ 80%", goal: 0.8, cmp: 1,
		has: func(m *Metrics) bool { return m.Counts.FactsExpected > 0 }},
	{key: "must_not_include_violations", get: func(m *Metrics) float64 { return float64(m.MustNotIncludeViolations) }},
	{key: "abstention_recall", rate: true, get: func(m *Metrics) float64 { return m.AbstentionRecall }, target: "≥ 80%", goal: 0.8, cmp: 1},
	{key: "false_abstention_rate", rate: true, get: func(m *Metrics) float64 { return m.FalseAbstentionRate }, target: "≤ 10%", goal: 0.1, cmp: -1},
	{key: "confidence_auroc", get: func(m *Metrics) float64 { return m.ConfidenceAUROC }, target: "≥ 0.85", goal: 0.85, cmp: 1, fixed: true},
	{key: "expected_calibration_error", get: func(m *Metrics) float64 { return m.ExpectedCalibrationError }, fixed: true},
	{key: "raw_expected_calibration_error", get: func(m *Metrics) float64 { return m.RawCalibrationError }, fixed: true},
	{key: "failed", get: func(m *Metrics) float64 { return float64(m.Failed) }, target: "= 0", goal: 0, cmp: 0},
}

// meets reports whether v reaches the row's target (true when there is none).
func (row metricRow) meets(v float64) bool {
	switch {
	case row.target == "":
		return true
	case row.cmp < 0:
		return v <= row.goal
	case row.cmp > 0:
		return v >= row.goal
	default:
		return v == row.goal
	}
}

// missed reports whether m's figure is measured and falls short of the row's target.
func (row metricRow) missed(m *Metrics) bool {
	return row.measured(m) && !row.meets(row.get(m))
}

func (row metricRow) measured(m *Metrics) bool { return row.has == nil || row.has(m) }

func (row metricRow) format(m *Metrics) string {
	v := row.get(m)
	switch {
	case !row.measured(m):
		return "-"
	case row.rate:
		return fmt.Sprintf("%.1f%%", 100*v)
	case row.fixed:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%d", int(v))
}

// WriteJSON writes the report, indented, to path ("-" = w).
func (r *Report) WriteJSON(path string, w io.Writer) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if path == "-" {
		_, err = w.Write(b)
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	return nil
}

// WriteTable prints the comparison, the labels with their mean confidence, the abstention
// rate per area and, if reviews were given, the agreement with the reviewer.
func (r *Report) WriteTable(w io.Writer) error {
	if r.Run.Agent != "" {
		fmt.Fprintf(w, "agent: %s\n\n", r.Run.Agent)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\tsystem\tbaseline\ttarget")
	for _, row := range metricRows {
		target := row.target
		if row.missed(&r.Metrics) {
			target += "  MISSED"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", row.key, row.format(&r.Metrics), row.format(&r.Baseline), target)
	}
	fmt.Fprintln(tw, "\t\t\t")
	fmt.Fprintln(tw, "QA label\tsystem\tbaseline\tmean confidence (system / baseline)")
	for _, l := range Labels {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s / %s\n", l, r.Labels[l], r.Baseline.Labels[l],
			meanConfidence(r.ConfidenceByLabel, l), meanConfidence(r.Baseline.ConfidenceByLabel, l))
	}
	fmt.Fprintf(tw, "  useful abstentions\t%d of %d\t%d of %d\t\n", r.Counts.UsefulAbstentions, r.Counts.LabelledAbstentions,
		r.Baseline.Counts.UsefulAbstentions, r.Baseline.Counts.LabelledAbstentions)
	if err := tw.Flush(); err != nil {
		return err
	}

	for _, section := range []func(io.Writer) error{r.writeRubric, r.Retrieval.WriteTable, r.writeCalibration} {
		fmt.Fprintln(w)
		if err := section(w); err != nil {
			return err
		}
	}

	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "area (system)\ttickets\tanswerable\tabstained\tabstention rate\tuseful")
	for _, a := range r.PerArea {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.1f%%\t%d\n", a.Area, a.Tickets, a.Answerable, a.Abstained, 100*a.AbstentionRate, a.UsefulAbstentions)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Reviews != nil {
		fmt.Fprintln(w)
		if err := r.Reviews.WriteTable(w); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nconfidence mapping: %s\n", r.Run.Calibration)
	fmt.Fprintf(w, "\nskipped lines: %d   failed drafts: %d   wall time: %.1f s\n", r.SkippedLines, len(r.Run.Failures), r.ElapsedS)
	return nil
}

// writeRubric prints the draft-quality rubric per criterion for both arms: the mean of the
// drafts scored, how many fell short, and how many nothing scored.
func (r *Report) writeRubric(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "rubric criterion\tsystem mean\tbelow 1\tnot scored\tbaseline mean\tbelow 1\tnot scored")
	for i, s := range r.Rubric {
		b := CriterionStats{}
		if i < len(r.Baseline.Rubric) {
			b = r.Baseline.Rubric[i]
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t%d\n", s.Criterion, criterionMean(s), s.Flagged, s.NotScored,
			criterionMean(b), b.Flagged, b.NotScored)
	}
	return tw.Flush()
}

func criterionMean(s CriterionStats) string {
	if s.Scored == 0 {
		return "not scored"
	}
	return fmt.Sprintf("%.2f", s.Mean)
}

// writeCalibration prints the reliability bins of both arms (drafts per bin, mean
// confidence, grounded share) and what each forced-review threshold would do to the system.
func (r *Report) writeCalibration(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "confidence bin	system n	mean conf.	grounded	baseline n	mean conf.	grounded")
	for i, b := range r.Reliability {
		bb := r.Baseline.Reliability[i]
		fmt.Fprintf(tw, "[%.1f, %.1f)\t%d\t%s\t%s\t%d\t%s\t%s\n", b.Lo, b.Hi,
			b.N, binValue(b.N, b.MeanConfidence), binValue(b.N, b.GroundedShare),
			bb.N, binValue(bb.N, bb.MeanConfidence), binValue(bb.N, bb.GroundedShare))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "forced review below (system)\tdrafts forced\tnot-grounded caught\tgrounded held back")
	for _, t := range r.Thresholds {
		fmt.Fprintf(tw, "%.2f\t%.1f%%\t%.1f%%\t%.1f%%\n", t.Threshold, 100*t.Forced, 100*t.Caught, 100*t.GroundedForced)
	}
	return tw.Flush()
}

func binValue(n int, v float64) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", v)
}

func meanConfidence(by map[string]ConfidenceStats, label string) string {
	cs, ok := by[label]
	if !ok || cs.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", cs.Mean)
}

// Gate checks the system's figures against CI's thresholds and says every one that fails.
func (r *Report) Gate(maxStale, maxUnsupported float64) error {
	var fails []string
	if r.StaleSourceRate > maxStale {
		fails = append(fails, fmt.Sprintf("stale_source_rate %.4f > --max-stale %g (%d of %d answers cite a version not eligible at the ticket's time: a metadata bug)",
			r.StaleSourceRate, maxStale, r.Counts.StaleAnswers, r.Drafted))
	}
	if r.UnsupportedClaimRate > maxUnsupported {
		fails = append(fails, fmt.Sprintf("unsupported_claim_rate %.4f > --max-unsupported %g (%d of %d material sentences not backed by an eligible cited chunk)",
			r.UnsupportedClaimRate, maxUnsupported, r.Counts.UnsupportedSentences, r.Counts.MaterialSentences))
	}
	if len(fails) == 0 {
		return nil
	}
	return fmt.Errorf("eval gate failed for the system: %s", strings.Join(fails, "; "))
}
