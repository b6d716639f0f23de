package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBenchGuardCommand(t *testing.T) {
	t.Parallel()
	out := mustRun(t, newBenchGuardCmd(), "--drafts", "50", "--json")
	var got map[string]float64
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got["sentences_per_s"] <= 0 || got["p99_ms_per_draft"] <= 0 || got["drafts"] != 50 {
		t.Errorf("unexpected figures: %s", out)
	}

	table := mustRun(t, newBenchGuardCmd(), "--drafts", "20")
	if !strings.Contains(table, "sentences/s") || !strings.Contains(table, "5 ms target") {
		t.Errorf("table output:\n%s", table)
	}
	if _, _, code := run(t, newBenchGuardCmd(), "--drafts", "0"); code != 2 {
		t.Errorf("--drafts 0: exit %d, want 2", code)
	}
}
