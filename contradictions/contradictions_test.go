package contradictions

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
)

// corpus reads the versions of the corpus in dir, with the default vocabulary that Find
// and Against read their sentences with.
func corpus(t *testing.T, dir string) (*guard.Vocabulary, []*policy.Version) {
	t.Helper()
	vocab, err := guard.DefaultVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	versions, err := policy.ParseDir(dir)
	if err != nil {
		t.Fatalf("parse %s: %v", dir, err)
	}
	return vocab, versions
}

// find runs Find over the corpus in dir, from since (RFC 3339).
func find(t *testing.T, dir, since string) []Finding {
	t.Helper()
	vocab, versions := corpus(t, dir)
	return Find(versions, at(t, since), vocab)
}

func at(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		dir   string
		since string
		want  int
	}{
		{"14 against one month, both eligible", filepath.Join("testdata", "lint-conflict"), "2026-06-01T00:00:00Z", 1},
		{"the overlap is history", filepath.Join("testdata", "lint-conflict"), "2027-02-01T00:00:00Z", 0},
		// Other regions, another locale, another area, a dissimilar sentence, a draft.
		{"nothing eligible together disagrees", filepath.Join("testdata", "lint-clean"), "2026-06-01T00:00:00Z", 0},
		{"outcome fixtures: the stale version was closed by its successor", filepath.Join("..", "provenance", "testdata", "outcomes"), "2000-01-01T00:00:00Z", 0},
		{"sample corpus today", filepath.Join("..", "corpus", "sample"), "2026-11-30T00:00:00Z", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := find(t, tt.dir, tt.since)
			if len(got) != tt.want {
				t.Fatalf("%d findings, want %d: %v", len(got), tt.want, got)
			}
		})
	}
}

func TestFindingNamesBothFilesAndTheWindow(t *testing.T) {
	t.Parallel()
	got := find(t, filepath.Join("testdata", "lint-conflict"), "2026-06-01T00:00:00Z")
	if len(got) != 1 {
		t.Fatalf("want one finding, got %v", got)
	}
	f := got[0]
	if f.A.Ref != "billing/refunds-annual@4" || f.B.Ref != "helpcenter/annual-plan-refunds@2" {
		t.Errorf("sides %s / %s", f.A.Ref, f.B.Ref)
	}
	if f.Term != "refund (days)" || f.A.Values[0] != "14 days" || f.B.Values[0] != `"one month" read as 30 days` {
		t.Errorf("term %q values %v / %v", f.Term, f.A.Values, f.B.Values)
	}
	if !f.From.Equal(at(t, "2026-03-01T00:00:00Z")) || f.To == nil || !f.To.Equal(at(t, "2027-01-01T00:00:00Z")) {
		t.Errorf("window %v – %v, want 2026-03-01 – 2027-01-01", f.From, f.To)
	}
	if strings.Join(f.Plans, ",") != "pro,business" || strings.Join(f.Regions, ",") != "eu,uk" || f.Locale != "en" {
		t.Errorf("scope %v %v %s", f.Plans, f.Regions, f.Locale)
	}
	msg := f.String()
	for _, want := range []string{"refunds.md", "helpcenter.md", "within 14 days", "within one month", "fix it at the document, not in the prompt"} {
		if !strings.Contains(msg, want) {
			t.Errorf("warning does not mention %q:\n%s", want, msg)
		}
	}
}

// TestFindHistory shows why lint looks forward by default: the sample corpus has one
// contradiction in the past, when the help-center article promised "one month" to every
// region while the US/APAC policy gave renewals 7 days.
func TestFindHistory(t *testing.T) {
	t.Parallel()
	got := find(t, filepath.Join("..", "corpus", "sample"), "2025-01-01T00:00:00Z")
	if len(got) != 1 || got[0].A.Ref != "billing/refunds-annual-us-apac@1" || got[0].B.Ref != "helpcenter/annual-plan-refunds@1" {
		t.Fatalf("findings %v", got)
	}
}

// Against keeps only what an approval brings, the incoming side first, and Unresolved
// drops what --supersedes resolves.
func TestAgainst(t *testing.T) {
	t.Parallel()
	vocab, versions := corpus(t, filepath.Join("testdata", "lint-conflict"))
	if len(versions) != 2 {
		t.Fatalf("fixture has %d versions, want 2", len(versions))
	}
	since := at(t, "2026-06-01T00:00:00Z")
	incoming, stored := versions[:1], versions[1:]
	got := Against(incoming, stored, since, vocab)
	if len(got) != 1 || got[0].A.Ref != incoming[0].Ref() || got[0].B.Ref != stored[0].Ref() {
		t.Fatalf("want one finding with the incoming version as A: %v", got)
	}
	if again := Against(incoming, versions, since, vocab); len(again) != 1 {
		t.Errorf("a stored copy of the incoming version is counted once: %v", again)
	}
	if none := Against(nil, versions, since, vocab); len(none) != 0 {
		t.Errorf("contradictions among stored versions only are lint's, not this approval's: %v", none)
	}
	if open := Unresolved(got, []string{stored[0].DocID}); len(open) != 0 {
		t.Errorf("superseding the other document resolves it: %v", open)
	}
	if open := Unresolved(got, []string{"billing/other"}); len(open) != 1 {
		t.Errorf("superseding another document does not: %v", open)
	}
}
