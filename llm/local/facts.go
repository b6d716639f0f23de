package local

import (
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// The local providers compare numbers as package text reads them, the same way the guard
// does: "14 days", "fourteen days" and "two weeks" are one fact, "one month" is not "30 days".

// conflictingFacts lists the quantities of the sentence that the other text states with
// the same unit but another value ("30 days" against "14 days"). A quantity the other text
// does not mention at all is missing, not conflicting.
func conflictingFacts(sentence, other []text.Quantity) []text.Quantity {
	var out []text.Quantity
	for _, q := range text.Missing(sentence, other) {
		for _, o := range other {
			if o.Unit == q.Unit && o.Value != q.Value {
				out = append(out, q)
				break
			}
		}
	}
	return out
}

// joinFacts lists quantities as written, for a judge's reasoning.
func joinFacts(qs []text.Quantity) string {
	parts := make([]string, len(qs))
	for i, q := range qs {
		parts[i] = q.Text
	}
	return strings.Join(parts, ", ")
}
