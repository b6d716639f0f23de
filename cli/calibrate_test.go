package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/calibration"
	"github.com/supportdraft/supportdraft/llm/local"
)

// writeReport writes cases as the JSON report of an eval over tickets, as `supportdraft
// eval --json` writes it, and returns its path.
func writeReport(t *testing.T, dir, tickets string, cases any) string {
	t.Helper()
	data, err := json.Marshal(map[string]any{"cases": cases, "run": map[string]string{"tickets": tickets}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, strings.ReplaceAll(tickets, "/", "_")+".json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeSignalsReport writes an eval JSON report of n labelled drafts whose relevance
// tells answerable from not, as `supportdraft eval --json` writes them.
func writeSignalsReport(t *testing.T, dir, tickets string, n int) string {
	t.Helper()
	type c struct {
		ID         string             `json:"ticket_id"`
		Label      string             `json:"label"`
		Answerable bool               `json:"answerable"`
		Signals    map[string]float64 `json:"signals"`
	}
	var cases []c
	for i := range n {
		rel := float64(i) / float64(n)
		answerable := rel >= 0.5
		label := "grounded"
		if !answerable {
			label = "unsupported"
		}
		cases = append(cases, c{ID: fmt.Sprintf("T-%d", i), Label: label, Answerable: answerable,
			Signals: map[string]float64{local.SignalRelevance: rel}})
	}
	return writeReport(t, dir, tickets, cases)
}

// crossReports writes with write the reports of three eval sets, the second in two
// reports, n drafts in each but nLast in the third, and returns the flags that give them
// to --cross: --report a, --report b,b2 (one set), --report c.
func crossReports(t *testing.T, dir string, write func(t *testing.T, dir, tickets string, n int) string, n, nLast int) []string {
	t.Helper()
	return []string{"--report", write(t, dir, "a.jsonl", n),
		"--report", write(t, dir, "b.jsonl", n) + "," + write(t, dir, "b2.jsonl", n),
		"--report", write(t, dir, "c.jsonl", nLast)}
}

// --cross prints one row per set left out; reports joined by a comma are one set, and the
// model written names every report's tickets.
func TestCalibrateAnswerabilityCross(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reports := crossReports(t, dir, writeSignalsReport, 20, 20)
	out := filepath.Join(dir, "answerability.json")
	got := mustRun(t, newCalibrateCmd(), append([]string{"--answerability", "--cross", "--version", "3", "--out", out}, reports...)...)
	assertPrints(t, got, "left out", "a.jsonl ", "b.jsonl+b2.jsonl", "c.jsonl ", "relevance", "fitted answerability v3")
	m := readOutput(t, out, local.ParseAnswerability)
	if strings.Join(m.FittedOn, " ") != "a.jsonl b.jsonl b2.jsonl c.jsonl" || m.Weights[local.SignalRelevance] <= 0 {
		t.Errorf("model fitted on %v with weights %v: want every report named and relevance weighed", m.FittedOn, m.Weights)
	}
	if _, _, code := run(t, newCalibrateCmd(), "--answerability", "--cross", reports[0], reports[1], "--out", out); code != 2 {
		t.Errorf("--cross over one set: exit %d, want 2", code)
	}
}

// writeConfidenceReport writes an eval JSON report of drafts at raw confidence 0.1 … 0.9,
// n at each, grounded about as often as their raw confidence says.
func writeConfidenceReport(t *testing.T, dir, tickets string, n int) string {
	t.Helper()
	type c struct {
		ID    string  `json:"ticket_id"`
		Label string  `json:"label"`
		Raw   float64 `json:"raw_confidence"`
	}
	var cases []c
	for i := 1; i <= 9; i++ {
		raw := float64(i) / 10
		for j := range n {
			label := "incomplete"
			if float64(j) < raw*float64(n) {
				label = "grounded"
			}
			cases = append(cases, c{ID: fmt.Sprintf("T-%d-%d", i, j), Label: label, Raw: raw})
		}
	}
	return writeReport(t, dir, tickets, cases)
}

// The confidence fit with --cross prints a row per set left out, then the sets in sample,
// and writes a logistic mapping that names its review threshold.
func TestCalibrateConfidenceCross(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reports := crossReports(t, dir, writeConfidenceReport, 10, 20)
	out := filepath.Join(dir, "confidence.json")
	got := mustRun(t, newCalibrateCmd(), append([]string{"--cross", "--precision", "0.75", "--version", "5", "--out", out}, reports...)...)
	assertPrints(t, got, "each set left out", "in sample, review threshold", "a.jsonl ", "b.jsonl+b2.jsonl", "grounded held back", "fitted logistic v5 on 450 drafts")
	m := readOutput(t, out, calibration.Parse)
	// Drafts at 0.6 … 0.9 let through are grounded at 0.75: 0.55 is the lowest threshold
	// of the grid that holds back everything below 0.6 on a curve close to the identity.
	if m.Method != calibration.MethodLogistic || m.Review == nil || m.Review.Threshold != 0.55 || m.Review.Precision != 0.75 {
		t.Errorf("wrote %s with review %+v: want logistic at threshold 0.55, precision 0.75", m.Method, m.Review)
	}
	if _, _, code := run(t, newCalibrateCmd(), "--cross", reports[0], reports[1], "--out", out); code != 2 {
		t.Errorf("--cross over one set: exit %d, want 2", code)
	}
	if _, _, code := run(t, newCalibrateCmd(), "--method", "platt", reports[0], reports[1], "--out", out); code != 2 {
		t.Errorf("an unknown --method: exit %d, want 2", code)
	}
}
