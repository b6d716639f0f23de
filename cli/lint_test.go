package cli

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

func TestPolicyLintCommand(t *testing.T) {
	t.Parallel()
	conflict := filepath.Join("..", "contradictions", "testdata", "lint-conflict")
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"sample corpus is consistent today", []string{sampleCorpus}, 0, []string{"0 found"}},
		{"sample corpus history", []string{"--since", "2025-01-01", sampleCorpus}, 1,
			[]string{"refunds-annual-us-apac/v1.md", "annual-plan-refunds/v1.md", "7 days", "one month", "fix it at the document, not in the prompt"}},
		{"contradiction", []string{"--since", "2026-06-01", conflict}, 1,
			[]string{"refunds.md and", "helpcenter.md disagree on refund (days)", "both eligible from 2026-03-01 until 2027-01-01", "regions eu,uk"}},
		{"bad directory", []string{"testdata/nope"}, 2, nil},
		{"bad --since", []string{"--since", "soon", sampleCorpus}, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err, code := run(t, newPolicyLintCmd(), tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d (%v), want %d\n%s", code, err, tt.code, out)
			}
			assertPrints(t, out, tt.want...)
		})
	}
}

func TestPolicyLintJSON(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, newPolicyLintCmd(), "--json", "--since", "2026-06-01", filepath.Join("..", "contradictions", "testdata", "lint-conflict"))
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	var got struct {
		Versions int `json:"versions"`
		Findings []struct {
			Term string `json:"term"`
			A    struct{ Path, Quote string }
			B    struct{ Path, Quote string }
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Versions != 2 || len(got.Findings) != 1 || got.Findings[0].Term != "refund (days)" || got.Findings[0].A.Quote == "" {
		t.Errorf("unexpected JSON: %s", out)
	}
}
