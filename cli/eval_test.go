package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// evalSet is the shipped labelled set, from the cli package's directory.
var (
	evalCorpus  = filepath.Join("..", "evals", "corpus")
	evalTickets = filepath.Join("..", "evals", "tickets.jsonl")
	// badCorpus is package policy's corpus whose files do not parse.
	badCorpus = filepath.Join("..", "policy", "testdata", "dir-bad")
)

func TestEvalUsageErrorsExit2(t *testing.T) {
	t.Parallel()
	badReviews := filepath.Join(t.TempDir(), "qa.jsonl")
	if err := os.WriteFile(badReviews, []byte(`{"ticket_id":"T-1","label":"grounded"}`+"\n"+`{"ticket_id":"T-2","label":"fine"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no corpus", []string{"--tickets", evalTickets}, "--corpus is required"},
		{"no tickets", []string{"--corpus", evalCorpus}, "--tickets is required"},
		{"corpus is not a directory", []string{"--corpus", evalTickets, "--tickets", evalTickets}, "is not a directory"},
		{"bad concurrency", []string{"--corpus", evalCorpus, "--tickets", evalTickets, "--concurrency", "0"}, "--concurrency is 0"},
		{"bad threshold", []string{"--corpus", evalCorpus, "--tickets", evalTickets, "--max-unsupported", "5"}, "--max-unsupported is 5"},
		{"bad reviews line", []string{"--corpus", evalCorpus, "--tickets", evalTickets, "--reviews", badReviews}, "qa.jsonl:2: field \"label\""},
		{"corpus that does not parse", []string{"--corpus", badCorpus, "--tickets", evalTickets}, "c-broken.md"},
		{"stray argument", []string{"--corpus", evalCorpus, "--tickets", evalTickets, "extra"}, "eval takes no arguments"},
		{"unknown flag", []string{"--corpus", evalCorpus, "--tickets", evalTickets, "--max-stales", "0"}, "unknown flag: --max-stales"},
		{"agent with no sample", []string{"--agent", "ledger"}, `agent "ledger" has no sample`},
		{"bad agent ID", []string{"--agent", "Pay Ments", "--corpus", evalCorpus, "--tickets", evalTickets}, `agent ID "Pay Ments"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err, code := run(t, newEvalCmd(), tc.args...)
			if code != 2 || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("exit %d, err = %v; want exit 2 and an error containing %q", code, err, tc.want)
			}
		})
	}
}

func TestEvalHelpTeaches(t *testing.T) {
	t.Parallel()
	cmd := newEvalCmd()
	for _, want := range []string{"--max-stale", "stale_source_rate", "similarity-only", "scratch schema", "Exit codes", "useful_abstention_rate"} {
		if !strings.Contains(cmd.Long, want) {
			t.Errorf("long help does not explain %q", want)
		}
	}
	if !strings.Contains(cmd.Example, "--corpus evals/corpus --tickets evals/tickets.jsonl") {
		t.Errorf("examples lack the shipped set:\n%s", cmd.Example)
	}
	for _, flag := range []string{"corpus", "tickets", "json", "html", "reviews", "limit", "concurrency", "max-stale", "max-unsupported"} {
		if cmd.Flags().Lookup(flag) == nil {
			t.Errorf("no --%s flag", flag)
		}
	}
}

// `eval --agent payments` from the repository's root replays the sample's own corpus and
// tickets and prints the agent on its figures. Not parallel: it sets DATABASE_URL and
// changes directory.
func TestEvalAgentSample(t *testing.T) {
	dbURL := os.Getenv("TEST_DATABASE_URL")
	if dbURL == "" || os.Getenv("TEMPORAL_ADDRESS") == "" {
		t.Fatal("TEST_DATABASE_URL and TEMPORAL_ADDRESS must be set: run the tests with scripts/test.sh")
	}
	t.Setenv("DATABASE_URL", dbURL)
	t.Chdir("..")
	jsonOut := filepath.Join(t.TempDir(), "eval.json")
	out := mustRun(t, newEvalCmd(), "--agent", "payments", "--limit", "4", "--json", jsonOut, "--no-progress")
	if !strings.HasPrefix(out, "agent: payments\n") {
		t.Errorf("stdout does not start with the agent:\n%s", out)
	}
	type report struct {
		Tickets int `json:"tickets"`
		Run     struct {
			Agent  string `json:"agent"`
			Corpus string `json:"corpus"`
		} `json:"run"`
	}
	rep := readOutput(t, jsonOut, decodeJSON[report])
	if rep.Tickets != 4 || rep.Run.Agent != "payments" || rep.Run.Corpus != filepath.Join("evals", "agents", "payments", "corpus") {
		t.Errorf("JSON: %+v, want 4 tickets of the payments sample", rep)
	}
}

// TestEvalCommandEndToEnd runs the command on the first tickets of the shipped set against
// the real services and reads what it wrote. Not parallel: it sets DATABASE_URL.
func TestEvalCommandEndToEnd(t *testing.T) {
	dbURL, addr := os.Getenv("TEST_DATABASE_URL"), os.Getenv("TEMPORAL_ADDRESS")
	if dbURL == "" || addr == "" {
		t.Fatal("TEST_DATABASE_URL and TEMPORAL_ADDRESS must be set: run the tests with scripts/test.sh")
	}
	t.Setenv("DATABASE_URL", dbURL) // the scratch schema goes into the test database
	dir := t.TempDir()
	jsonOut, htmlOut, reviews := filepath.Join(dir, "eval.json"), filepath.Join(dir, "eval.html"), filepath.Join(dir, "qa.jsonl")
	if err := os.WriteFile(reviews, []byte(`{"ticket_id":"T-10002","label":"abstained","note":"price matching is not covered"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err, code := run(t, newEvalCmd(), "--corpus", evalCorpus, "--tickets", evalTickets, "--limit", "6",
		"--json", jsonOut, "--html", htmlOut, "--reviews", reviews, "--no-progress")
	if err != nil || code != 0 {
		t.Fatalf("exit %d: %v\n%s", code, err, out)
	}
	assertPrints(t, out, "stale_source_rate", "QA label", "area (system)", "reviewer label", "wall time")
	rep := readOutput(t, jsonOut, decodeJSON[map[string]any])
	if rep["tickets"] != 6.0 || rep["baseline"].(map[string]any)["tickets"] != 6.0 || rep["reviews"] == nil {
		t.Errorf("JSON: tickets %v, baseline tickets %v, reviews %v; want 6, 6 and an agreement", rep["tickets"],
			rep["baseline"].(map[string]any)["tickets"], rep["reviews"])
	}
	page, err := os.ReadFile(htmlOut)
	if err != nil || !strings.Contains(string(page), "<svg") {
		t.Errorf("HTML report missing or without charts: %v", err)
	}
}

// A bad SUPPORTDRAFT_RUBRIC file is bad input: exit 2, the variable, the file and the
// field named, before anything is replayed.
func TestEvalBadRubricExits2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rubric.yaml")
	if err := os.WriteFile(path, []byte("name: team\nbrand_vocabulary:\n  - preferred: email\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SUPPORTDRAFT_RUBRIC", path)
	_, err, code := run(t, newEvalCmd(), "--corpus", evalCorpus, "--tickets", evalTickets)
	if code != 2 || err == nil {
		t.Fatalf("exit %d, err = %v; want exit 2", code, err)
	}
	for _, want := range []string{"SUPPORTDRAFT_RUBRIC", path, "brand_vocabulary[0].banned"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}
