package local

import (
	"math"
	"testing"

	"github.com/supportdraft/supportdraft/policy"
)

// The readings agree when the fused order, the vector similarity and the drafter's own
// ranking put one document first; each reading that puts another first takes half away.
func TestArmsAgree(t *testing.T) {
	t.Parallel()
	evidence := []policy.Evidence{
		{DocID: "refunds", Score: 0.6},
		{DocID: "refunds", Score: 0.4},
		{DocID: "invoices", Score: 0.5},
	}
	rank := func(doc string) []rankedChunk { return []rankedChunk{{ev: policy.Evidence{DocID: doc}}} }
	if got := armsAgree(evidence, rank("refunds")); got != 1 {
		t.Errorf("every reading puts refunds first: agree %v, want 1", got)
	}
	if got := armsAgree(evidence, rank("invoices")); got != 0.5 {
		t.Errorf("the drafter ranks invoices first: agree %v, want 0.5", got)
	}
	closer := append([]policy.Evidence{}, evidence...)
	closer[2].Score = 0.9
	if got := armsAgree(closer, rank("invoices")); got != 0 {
		t.Errorf("fused order first refunds, similarity and drafter invoices: agree %v, want 0", got)
	}
	if got := armsAgree(nil, nil); got != 0 {
		t.Errorf("no evidence: agree %v, want 0", got)
	}
}

// One document clearly closer than every other stands out; a question several documents
// match about as well (near the knowledge base, answered by none) does not, even when
// its best section matches as well. Other sections of the best document are not the
// background.
func TestRelevanceStandout(t *testing.T) {
	t.Parallel()
	chunk := func(doc string, rel float64) rankedChunk {
		return rankedChunk{ev: policy.Evidence{DocID: doc}, relevance: rel}
	}
	answered := []rankedChunk{chunk("a", 0.8), chunk("a", 0.7), chunk("b", 0.2), chunk("c", 0.2)}
	near := []rankedChunk{chunk("a", 0.8), chunk("b", 0.7), chunk("c", 0.7), chunk("d", 0.6)}
	if got := relevanceStandout(answered); math.Abs(got-0.75) > 1e-12 {
		t.Errorf("one document far ahead: standout %v, want 0.75", got)
	}
	if a, n := relevanceStandout(answered), relevanceStandout(near); n >= a || n > 0.2 {
		t.Errorf("several documents about as close: standout %v, want at most 0.2 and below %v", n, a)
	}
	if got := relevanceStandout([]rankedChunk{chunk("a", 0.5), chunk("a", 0.1)}); got != 1 {
		t.Errorf("only one document ranked: standout %v, want 1", got)
	}
	if got := relevanceStandout([]rankedChunk{chunk("a", 0), chunk("b", 0)}); got != 0 {
		t.Errorf("nothing relevant: standout %v, want 0", got)
	}
}
