package provenance

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/statements"
	"github.com/supportdraft/supportdraft/text"
)

func vocab(t testing.TB) *guard.Vocabulary {
	t.Helper()
	v, err := guard.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func corpus(t testing.TB, dir string) []*policy.Version {
	t.Helper()
	vs, err := policy.ParseDir(dir)
	if err != nil {
		t.Fatalf("parse %s: %v", dir, err)
	}
	return vs
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// match is the part of a Match a test pins down.
type match struct{ ref, whyNot string }

func TestTraceOutcomes(t *testing.T) {
	t.Parallel()
	versions := corpus(t, filepath.Join("testdata", "outcomes"))
	v := vocab(t)
	tests := []struct {
		name     string
		term     string
		account  Account
		want     Outcome
		matches  []match  // every match, in order
		eligible []string // refs of eligible statements, each once
	}{
		{
			name: "invented window is absent; current policy shown", term: "90-day refund window",
			account: Account{Plan: "pro", Region: "eu", Locale: "en", At: at("2026-06-01T00:00:00Z")},
			want:    Absent, eligible: []string{"billing/refunds@2"},
		},
		{
			name: "only in another plan's policy", term: "60-day refund window",
			account: Account{Plan: "business", Region: "us", At: at("2026-06-01T00:00:00Z")},
			want:    PresentNotEligible, matches: []match{{"billing/refunds-us@1", "for plans pro only"}},
		},
		{
			name: "only in a draft", term: "loyalty credit of 10%",
			account: Account{Plan: "pro", Region: "eu", At: at("2026-06-01T00:00:00Z")},
			want:    PresentNotEligible, matches: []match{{"billing/loyalty@1", "draft (never approved)"}},
		},
		{
			name: "stale version contradicted by the current one", term: "30-day refund window",
			account: Account{Plan: "pro", Region: "eu", Locale: "en", At: at("2026-06-01T00:00:00Z")},
			want:    PresentContradicted,
			// refunds@1 has no effective_to in its file: v2 closes it, as the store would.
			matches:  []match{{"billing/refunds@1", "superseded on 2026-01-01 by version 2"}},
			eligible: []string{"billing/refunds@2", "helpcenter/refunds@1"},
		},
		{
			name: "the same version was eligible at the time", term: "30-day refund window",
			account: Account{Plan: "pro", Region: "eu", Locale: "en", At: at("2025-06-01T00:00:00Z")},
			want:    PresentEligible, matches: []match{{"billing/refunds@1", ""}},
		},
		{
			name: "one month is a source for 30 days here", term: "refund within one month",
			account: Account{Plan: "pro", Region: "eu", At: at("2025-06-01T00:00:00Z")},
			want:    PresentEligible, matches: []match{{"billing/refunds@1", ""}},
		},
		{
			name: "two weeks, 14 days and German 14 Tagen are one term", term: "two-week refund window",
			account: Account{Plan: "pro", Region: "eu", Locale: "en", At: at("2026-06-01T00:00:00Z")},
			want:    PresentEligible,
			matches: []match{{"billing/refunds@2", ""}, {"helpcenter/refunds@1", ""}, {"billing/refunds-de@1", "locale de"}},
		},
		{
			name: "the localised copy is the eligible one for a German account", term: "14-day refund window",
			account: Account{Plan: "pro", Region: "eu", Locale: "de", At: at("2026-06-01T00:00:00Z")},
			want:    PresentEligible,
			matches: []match{{"billing/refunds-de@1", ""}, {"billing/refunds@2", "locale en"}, {"helpcenter/refunds@1", "locale en"}},
		},
		{
			name: "macro wording counts", term: "goodwill credit of €20",
			account: Account{At: at("2026-06-01T00:00:00Z")},
			want:    PresentEligible, matches: []match{{"macros/goodwill@1", ""}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := Trace(versions, nil, tt.term, tt.account, v)
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tt.want {
				t.Errorf("outcome = %s, want %s", res.Outcome, tt.want)
			}
			var got []match
			for _, m := range res.Matches {
				got = append(got, match{m.Ref, m.WhyNot})
				if m.Eligible != (m.WhyNot == "") {
					t.Errorf("%s: eligible=%v with why_not %q", m.ChunkID, m.Eligible, m.WhyNot)
				}
			}
			if !slices.Equal(got, tt.matches) {
				t.Errorf("matches = %v, want %v", got, tt.matches)
			}
			var refs []string
			for _, s := range res.EligibleStatements {
				if !slices.Contains(refs, s.Ref) {
					refs = append(refs, s.Ref)
				}
			}
			if !slices.Equal(refs, tt.eligible) {
				t.Errorf("eligible statements from %v, want %v", refs, tt.eligible)
			}
			if res.Explanation == "" || res.Remedy == "" {
				t.Error("explanation or remedy is empty")
			}
		})
	}
}

// TestTraceSampleCorpus pins the seed's example on the shipped corpus. For a pro account
// in the EU today, "30 days" is written in the superseded v3, the superseded help-center
// article ("one month") and the US/APAC policy, while the eligible v4 says 14 days: an
// eligible version states another value, which is present_contradicted by the rules (the
// why_not of each match still says that it is stale or out of scope).
func TestTraceSampleCorpus(t *testing.T) {
	t.Parallel()
	versions := corpus(t, filepath.Join("..", "corpus", "sample"))
	v := vocab(t)
	now := at("2026-11-30T00:00:00Z")
	tests := []struct {
		account Account
		want    Outcome
	}{
		{Account{Plan: "pro", Region: "eu", At: now}, PresentContradicted},
		{Account{Plan: "pro", Region: "eu", At: at("2026-01-15T00:00:00Z")}, PresentEligible},
		{Account{Plan: "pro", Region: "us", At: now}, PresentEligible},
		// The help-center article (every plan, 30 days) was superseded: enterprise could
		// read it once, and no current version speaks to enterprise.
		{Account{Plan: "enterprise", Region: "eu", At: now}, PresentStale},
		{Account{Plan: "enterprise", Region: "eu", At: at("2025-07-01T00:00:00Z")}, PresentEligible},
		// For any account the US/APAC policy is eligible somewhere, and the EU policy's
		// 14 days never reaches the same customer: grounded, not contradicted.
		{Account{At: now}, PresentEligible},
	}
	for _, tt := range tests {
		res, err := Trace(versions, nil, "30-day refund window", tt.account, v)
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != tt.want {
			t.Errorf("%s at %s: outcome %s, want %s", tt.account, tt.account.At.Format(time.DateOnly), res.Outcome, tt.want)
		}
	}

	res, err := Trace(versions, nil, "30-day refund window", tests[0].account, v)
	if err != nil {
		t.Fatal(err)
	}
	whyNot := map[string]string{}
	for _, m := range res.Matches {
		whyNot[m.Ref] = m.WhyNot
	}
	for ref, want := range map[string]string{
		"billing/refunds-annual@3":         "superseded on 2026-03-01 by version 4",
		"helpcenter/annual-plan-refunds@1": "superseded on 2026-03-01",
		"billing/refunds-annual-us-apac@1": "for regions us,apac only",
	} {
		if whyNot[ref] != want {
			t.Errorf("%s: why_not %q, want %q", ref, whyNot[ref], want)
		}
	}
	if len(res.EligibleStatements) == 0 || !strings.Contains(res.EligibleStatements[0].Quote, "14 days") {
		t.Errorf("eligible statements do not quote v4's 14 days: %+v", res.EligibleStatements)
	}
}

func TestTraceTwoEligibleDocumentsDisagree(t *testing.T) {
	t.Parallel()
	versions := corpus(t, filepath.Join("..", "contradictions", "testdata", "lint-conflict"))
	res, err := Trace(versions, nil, "30-day refund window", Account{Plan: "pro", Region: "eu", At: at("2026-06-01T00:00:00Z")}, vocab(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != PresentContradicted || len(res.Matches) != 1 || !res.Matches[0].Eligible {
		t.Fatalf("outcome %s, matches %+v: want present_contradicted with the eligible help-center match", res.Outcome, res.Matches)
	}
	if !strings.Contains(res.Explanation, "Two eligible documents disagree") {
		t.Errorf("explanation %q does not say that two eligible documents disagree", res.Explanation)
	}
}

func TestTraceRefusesEmptyTerm(t *testing.T) {
	t.Parallel()
	_, err := Trace(nil, nil, "the", Account{At: time.Now()}, vocab(t))
	if err == nil || !strings.Contains(err.Error(), `"the"`) {
		t.Fatalf("err = %v, want one naming the term", err)
	}
}

func TestAmountReading(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		same bool
	}{
		{"30 days", "one month", true},
		{"30-day", "1 month", true},
		{"12 months", "one year", true},
		{"14 days", "two weeks", true},
		{"31 days", "one month", false},
		{"5 days", "5 business days", false},
		{"€12.00", "€12.20", false},
	}
	for _, tt := range tests {
		qa, qb := text.Quantities(tt.a), text.Quantities(tt.b)
		if len(qa) != 1 || len(qb) != 1 {
			t.Fatalf("%q / %q: want one quantity each, got %v / %v", tt.a, tt.b, qa, qb)
		}
		if got := statements.AmountOf(qa[0]).Same(statements.AmountOf(qb[0])); got != tt.same {
			t.Errorf("%q same as %q = %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}

// The probe's finding: "a refund for the hardware kit" came back present_eligible on the
// verb alone. The subject (the kit) is nowhere in the corpus: absent. A term naming a
// subject the corpus has still matches.
func TestTraceMatchesTheSubjectNotTheVerbAlone(t *testing.T) {
	t.Parallel()
	versions := corpus(t, filepath.Join("..", "corpus", "sample"))
	account := Account{Plan: "pro", Region: "eu", At: at("2026-11-30T00:00:00Z")}
	for term, want := range map[string]Outcome{
		"a refund for the hardware kit":    Absent,
		"refund of the annual plan":        PresentEligible,
		"a refund for the disputed charge": PresentEligible,
	} {
		res, err := Trace(versions, nil, term, account, vocab(t))
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != want {
			t.Errorf("%q: outcome %s, want %s (matches %+v)", term, res.Outcome, want, res.Matches)
		}
	}
}
