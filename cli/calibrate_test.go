package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/llm/local"
)

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

// --cross prints one row per set left out; reports joined by a comma are one set, and the
// model written names every report's tickets.
func TestCalibrateAnswerabilityCross(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := writeSignalsReport(t, dir, "a.jsonl", 20)
	b := writeSignalsReport(t, dir, "b.jsonl", 20)
	b2 := writeSignalsReport(t, dir, "b2.jsonl", 20)
	c := writeSignalsReport(t, dir, "c.jsonl", 20)
	out := filepath.Join(dir, "answerability.json")
	got, err, code := run(t, newCalibrateCmd(), "--answerability", "--cross", "--report", a, "--report", b+","+b2, "--report", c, "--version", "3", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d (%v)\n%s", code, err, got)
	}
	for _, want := range []string{"left out", "a.jsonl ", "b.jsonl+b2.jsonl", "c.jsonl ", "relevance", "fitted answerability v3"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	data, rerr := os.ReadFile(out)
	if rerr != nil {
		t.Fatal(rerr)
	}
	m, perr := local.ParseAnswerability(data)
	if perr != nil {
		t.Fatal(perr)
	}
	if strings.Join(m.FittedOn, " ") != "a.jsonl b.jsonl b2.jsonl c.jsonl" || m.Weights[local.SignalRelevance] <= 0 {
		t.Errorf("model fitted on %v with weights %v: want every report named and relevance weighed", m.FittedOn, m.Weights)
	}
	if _, _, code := run(t, newCalibrateCmd(), "--answerability", "--cross", "--report", a, "--out", out); code != 2 {
		t.Errorf("--cross over one set: exit %d, want 2", code)
	}
	if _, _, code := run(t, newCalibrateCmd(), "--cross", "--report", a, "--out", out); code != 2 {
		t.Errorf("--cross without --answerability: exit %d, want 2", code)
	}
}
