package evals

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/evals/dataset"
)

// sampleReport is a report over the hand-made corpus: the system answers from the current
// version, the baseline quotes the superseded one.
func sampleReport() *Report {
	src := testSources()
	current := "Annual plans can be refunded in full within 14 days of purchase."
	stale := "Annual plans can be refunded in full within 30 days of purchase."
	sys := []Case{
		Assess(Outcome{Ticket: tk("T-1", refundsExpect()), Iteration: answer(current, chunkV2, 2, 0.9)}, src),
		Assess(Outcome{Ticket: tk("T-2", refundsExpect()), Iteration: abstention(0.2)}, src),
	}
	base := []Case{
		Assess(Outcome{Ticket: tk("T-1", refundsExpect()), Iteration: answer(stale, chunkV1, 1, 0.9)}, src),
		Assess(Outcome{Ticket: tk("T-2", refundsExpect()), Iteration: answer(current, chunkV2, 2, 0.9)}, src),
	}
	return &Report{Metrics: Summarise(sys), Baseline: Summarise(base), SkippedLines: 1,
		Skipped: []SkippedLine{{Line: 3, Reason: "not a JSON ticket"}}, ElapsedS: 1.5,
		Run: RunInfo{Corpus: "corpus", Tickets: "t.jsonl", Failures: []Failure{}}}
}

func TestReportJSONKeepsTheContract(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := sampleReport().WriteJSON("-", &buf); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	contract := []string{"tickets", "drafted", "abstained", "unsupported_claim_rate", "stale_source_rate",
		"useful_abstention_rate", "citation_precision", "citation_recall", "must_include_rate", "must_not_include_violations"}
	baseline, ok := got["baseline"].(map[string]any)
	if !ok {
		t.Fatalf("no baseline object in %s", buf.String())
	}
	for _, k := range append(contract, "labels", "per_area", "confidence_by_label") {
		if _, ok := got[k]; !ok {
			t.Errorf("top level lacks %q", k)
		}
		if _, ok := baseline[k]; !ok {
			t.Errorf("baseline lacks %q", k)
		}
	}
	for _, k := range []string{"skipped_lines", "elapsed_s"} {
		if _, ok := got[k]; !ok {
			t.Errorf("top level lacks %q", k)
		}
	}
	if got["stale_source_rate"] != 0.0 || baseline["stale_source_rate"] != 0.5 || got["skipped_lines"] != 1.0 {
		t.Errorf("stale %v / baseline %v / skipped %v; want 0, 0.5, 1", got["stale_source_rate"], baseline["stale_source_rate"], got["skipped_lines"])
	}
}

func TestGate(t *testing.T) {
	t.Parallel()
	r := sampleReport()
	if err := r.Gate(0, 0.01); err != nil {
		t.Fatalf("clean system failed the gate: %v", err)
	}
	r.StaleSourceRate, r.UnsupportedClaimRate = 0.02, 0.05
	err := r.Gate(0, 0.01)
	if err == nil || !strings.Contains(err.Error(), "stale_source_rate 0.0200 > --max-stale 0") ||
		!strings.Contains(err.Error(), "unsupported_claim_rate 0.0500 > --max-unsupported 0.01") {
		t.Fatalf("err = %v, want both gates named with their figures", err)
	}
	if err := r.Gate(0.05, 0.05); err != nil {
		t.Fatalf("rates equal to the thresholds must pass: %v", err)
	}
}

func TestWriteTable(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := sampleReport().WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	// Columns are aligned by tabwriter, whose widths follow the longest label; compare the
	// row's cells, not its spacing.
	if !regexp.MustCompile(`(?m)^stale_source_rate +0\.0% +50\.0% += 0$`).MatchString(out) {
		t.Errorf("table lacks the stale row with both arms' rates:\n%s", out)
	}
	for _, want := range []string{"useful_abstention_rate", "MISSED",
		"grounded", "refunds", "skipped lines: 1", "abstention_recall", "false_abstention_rate  ", "confidence_auroc", "[0.9, 1.0)", "forced review below",
		"rubric criterion", "forbidden_phrases"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestWriteTableShowsAnUnmeasuredRateAsUnmeasured: a set labelled without must_include
// facts (an outside FAQ set) has no must_include_rate; the table shows "-" and no miss,
// while a set with facts still shows its rate.
func TestWriteTableShowsAnUnmeasuredRateAsUnmeasured(t *testing.T) {
	t.Parallel()
	src := testSources()
	current := "Annual plans can be refunded in full within 14 days of purchase."
	noFacts := &dataset.Expect{Answerable: true, Area: "refunds", Cite: []string{"billing/refunds@2"}}
	cases := []Case{Assess(Outcome{Ticket: tk("T-1", noFacts), Iteration: answer(current, chunkV2, 2, 0.9)}, src)}
	r := &Report{Metrics: Summarise(cases), Baseline: Summarise(cases), Run: RunInfo{Failures: []Failure{}}}
	var buf bytes.Buffer
	if err := r.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^must_include_rate +- +- +≥ 80%$`).MatchString(buf.String()) {
		t.Errorf("must_include_rate without facts is not shown as unmeasured:\n%s", buf.String())
	}
	buf.Reset()
	if err := sampleReport().WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^must_include_rate +50\.0% +50\.0% +≥ 80%  MISSED$`).MatchString(buf.String()) {
		t.Errorf("must_include_rate with facts lost its figures:\n%s", buf.String())
	}
}

// TestHTMLIsSelfContained: the report must open offline and be safe to mail: no scripts,
// nothing fetched, every chart well-formed inline SVG, ticket data escaped.
func TestHTMLIsSelfContained(t *testing.T) {
	t.Parallel()
	r := sampleReport()
	r.Cases[0].TicketID = `T-<script>alert(1)</script>`
	r.Cases[0].Label = LabelIncomplete // so it is listed among the drafts to look at
	path := filepath.Join(t.TempDir(), "eval.html")
	if err := r.WriteHTML(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, banned := range []string{"<script", "<link", "src=", "http://", "https://", "@import"} {
		if strings.Contains(page, banned) {
			t.Errorf("report contains %q", banned)
		}
	}
	if !regexp.MustCompile(`(?s)Draft quality \(rubric\).*?<td>forbidden_phrases</td>.*?<td>tone</td>`).MatchString(page) {
		t.Error("the rubric table does not list the criteria")
	}
	if !strings.Contains(page, "T-&lt;script&gt;") {
		t.Error("ticket ID was not escaped")
	}
	svgs := regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAllString(page, -1)
	if want := len(metricRows) + 2 + len(r.PerArea); len(svgs) != want {
		t.Errorf("%d SVG charts, want %d (one per metric, the labels, the reliability diagram, one per area)", len(svgs), want)
	}
	for _, s := range svgs {
		if err := xml.Unmarshal([]byte(s), new(struct{})); err != nil {
			t.Errorf("SVG is not well-formed: %v\n%s", err, s)
		}
	}
	for _, row := range metricRows {
		if !strings.Contains(page, "<h3>"+row.key+"</h3>") {
			t.Errorf("no chart for %s", row.key)
		}
	}
	if !regexp.MustCompile(`(?s)What the baseline would have sent.*?<td>T-1</td>.*?stale source: billing/refunds@1`).MatchString(page) {
		t.Error("the baseline's stale draft T-1 is not listed with its stale source")
	}
	// The stale-source chart: system meets "= 0" (green), baseline at 50% of the bar.
	if !regexp.MustCompile(`stale_source_rate</h3>.*?class="system-ok"[^>]*width="0\.0".*?class="baseline"[^>]*width="85\.0"`).MatchString(strings.ReplaceAll(page, "\n", " ")) {
		t.Error("stale_source_rate chart does not draw system 0% and baseline 50%")
	}
}
