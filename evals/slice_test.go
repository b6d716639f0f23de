package evals

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/rubric"
)

// sliceSize is CI's slice of the shipped set: the first 80 tickets run from July to
// October 2025, past the Finnish VAT change of 2025-10-01, so they include tickets whose
// answer changed and a baseline that ignores time has stale versions to quote.
const sliceSize = 80

// TestEvalSlice is the eval gate CI runs on every change: the first tickets of the shipped
// set, replayed through the real workflow on the real Temporal dev server and Postgres.
// The system must cite no version that was not eligible at the ticket's time and keep
// unsupported material claims at or below 1%; the similarity-only baseline must show
// stale sources, or the metric would not be measuring anything.
func TestEvalSlice(t *testing.T) {
	dbURL, addr := os.Getenv("TEST_DATABASE_URL"), os.Getenv("TEMPORAL_ADDRESS")
	if dbURL == "" || addr == "" {
		t.Fatal("TEST_DATABASE_URL and TEMPORAL_ADDRESS must be set: run the tests with scripts/test.sh, which starts Postgres and the Temporal dev server and sets them")
	}
	requireSupersededTickets(t)

	// The timeout only stops a hung run. Speed is logged, not asserted: a loaded CI machine
	// must not turn a correct eval red.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	rep, err := Run(ctx, Options{Corpus: "corpus", Tickets: "tickets.jsonl", Limit: sliceSize,
		DatabaseURL: dbURL, TemporalAddress: addr, Concurrency: 16, Stderr: testWriter{t}, NoProgress: true})
	if err != nil {
		t.Fatalf("eval run: %v", err)
	}
	t.Logf("%d tickets in %.1f s: system unsupported %.4f stale %.4f useful-abstention %.3f precision %.3f recall %.3f must-include %.3f; baseline stale %.4f unsupported %.4f",
		rep.Tickets, time.Since(start).Seconds(), rep.UnsupportedClaimRate, rep.StaleSourceRate, rep.UsefulAbstentionRate,
		rep.CitationPrecision, rep.CitationRecall, rep.MustIncludeRate, rep.Baseline.StaleSourceRate, rep.Baseline.UnsupportedClaimRate)

	if rep.Tickets != sliceSize || rep.Baseline.Tickets != sliceSize || rep.SkippedLines != 0 {
		t.Fatalf("replayed %d/%d tickets with %d skipped lines, want %d each and none skipped",
			rep.Tickets, rep.Baseline.Tickets, rep.SkippedLines, sliceSize)
	}
	if len(rep.Run.Failures) > 0 {
		t.Fatalf("drafts failed: %+v", rep.Run.Failures)
	}
	if rep.Drafted == 0 || rep.Counts.MaterialSentences == 0 {
		t.Fatalf("the system drafted %d answers with %d material sentences: nothing was measured", rep.Drafted, rep.Counts.MaterialSentences)
	}
	if rep.StaleSourceRate != 0 {
		t.Errorf("system stale_source_rate = %.4f, want 0 (a metadata bug): %v", rep.StaleSourceRate, staleCases(rep.Cases))
	}
	if rep.UnsupportedClaimRate > 0.01 {
		t.Errorf("system unsupported_claim_rate = %.4f, want ≤ 0.01: %v", rep.UnsupportedClaimRate, unsupportedCases(rep.Cases))
	}
	if rep.Baseline.StaleSourceRate <= 0 {
		t.Errorf("baseline stale_source_rate = %.4f, want > 0: similarity-only retrieval over a slice with superseded policy should quote stale versions", rep.Baseline.StaleSourceRate)
	}
	checkRubricReported(t, rep)
}

// checkRubricReported reads the rubric from what `eval --json` writes and `eval` prints:
// every criterion of both arms, four scored in code on every draft built, human-sounding
// not scored with the local judge (never a made-up number), and each case's own scores.
func checkRubricReported(t *testing.T, rep *Report) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.json")
	if err := rep.WriteJSON(path, io.Discard); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Drafted   int              `json:"drafted"`
		Abstained int              `json:"abstained"`
		Rubric    []CriterionStats `json:"rubric"`
		Baseline  struct {
			Rubric []CriterionStats `json:"rubric"`
		} `json:"baseline"`
		Cases []struct {
			TicketID string              `json:"ticket_id"`
			Rubric   map[string]*float64 `json:"rubric"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	built := out.Drafted + out.Abstained
	if len(out.Rubric) != len(rubric.Criteria) || len(out.Baseline.Rubric) != len(rubric.Criteria) {
		t.Fatalf("rubric criteria in the JSON: system %d, baseline %d, want %d each", len(out.Rubric), len(out.Baseline.Rubric), len(rubric.Criteria))
	}
	for i, c := range out.Rubric {
		t.Logf("rubric %s: mean %.3f over %d scored, %d below 1, %d not scored", c.Criterion, c.Mean, c.Scored, c.Flagged, c.NotScored)
		if c.Criterion != rubric.Criteria[i] {
			t.Errorf("rubric criterion %d is %q, want %q", i, c.Criterion, rubric.Criteria[i])
		}
		want := CriterionStats{Criterion: c.Criterion, Scored: built}
		if c.Criterion == rubric.HumanSounding {
			want = CriterionStats{Criterion: c.Criterion, NotScored: built}
		}
		if c.Scored != want.Scored || c.NotScored != want.NotScored {
			t.Errorf("rubric %s: %d scored and %d not, want %d and %d", c.Criterion, c.Scored, c.NotScored, want.Scored, want.NotScored)
		}
		if c.Scored > 0 && (c.Mean <= 0 || c.Mean > 1) {
			t.Errorf("rubric %s: mean %.3f outside (0, 1]", c.Criterion, c.Mean)
		}
	}
	for _, c := range out.Cases {
		if _, ok := c.Rubric[rubric.Formatting]; !ok {
			t.Errorf("case %s has no rubric scores in the JSON", c.TicketID)
			break
		}
	}
	var table strings.Builder
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rubric criterion", rubric.ForbiddenPhrases, rubric.HumanSounding + "  ", "not scored"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the printed report lacks %q", want)
		}
	}
}

// requireSupersededTickets checks the slice's premise, so the baseline assertion cannot
// pass or fail for the wrong reason: some ticket in it cites version n ≥ 2 of a document
// whose version n−1 the corpus holds.
func requireSupersededTickets(t *testing.T) {
	t.Helper()
	versions, err := policy.ParseDir("corpus")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, v := range versions {
		have[v.Ref()] = true
	}
	tickets, _, err := ReadTickets("tickets.jsonl", sliceSize, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range tickets {
		if tk.Expect == nil {
			continue
		}
		for _, ref := range tk.Expect.Cite {
			doc, n, _ := strings.Cut(ref, "@")
			if v, err := strconv.Atoi(n); err == nil && v >= 2 && have[doc+"@"+strconv.Itoa(v-1)] {
				return
			}
		}
	}
	t.Fatalf("the first %d tickets cite no version that superseded another: pick a slice that does", sliceSize)
}

func staleCases(cases []Case) []string {
	var out []string
	for _, c := range cases {
		if len(c.StaleCited) > 0 {
			out = append(out, c.TicketID+" cites "+strings.Join(c.StaleCited, ", "))
		}
	}
	return out
}

func unsupportedCases(cases []Case) []string {
	var out []string
	for _, c := range cases {
		for _, s := range c.UnsupportedSentences {
			out = append(out, c.TicketID+": "+s)
		}
	}
	return out
}

// testWriter sends the run's stderr (skipped lines, failures) to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
