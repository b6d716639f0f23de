package contradictions

import (
	"slices"
	"time"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
)

// Against returns the contradictions approving incoming would bring: Find over incoming
// and the stored versions together (a stored version incoming carries again, same
// doc_id@version, counted once), keeping the findings with an incoming version on a side,
// that side as A. A new version of a document never contradicts the version it
// supersedes: Find compares different documents only.
func Against(incoming, stored []*policy.Version, since time.Time, vocab *guard.Vocabulary) []Finding {
	isNew := map[string]bool{}
	for _, v := range incoming {
		isNew[v.Ref()] = true
	}
	all := slices.Clone(incoming)
	for _, v := range stored {
		if !isNew[v.Ref()] {
			all = append(all, v)
		}
	}
	var out []Finding
	for _, f := range Find(all, since, vocab) {
		switch {
		case isNew[f.A.Ref]:
			out = append(out, f)
		case isNew[f.B.Ref]:
			f.A, f.B = f.B, f.A
			out = append(out, f)
		}
	}
	return out
}

// Unresolved returns the findings whose other side (B) is not a document in supersedes:
// those an approval must not go through with unless the operator accepts them.
func Unresolved(findings []Finding, supersedes []string) []Finding {
	var out []Finding
	for _, f := range findings {
		if !slices.Contains(supersedes, policy.DocOf(f.B.Ref)) {
			out = append(out, f)
		}
	}
	return out
}
