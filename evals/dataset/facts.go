package dataset

import (
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// Present reports whether a labelled fact is stated in body. A fact with a number is
// compared by meaning: every quantity in it (text.Quantities, so "14 days", "fourteen
// days", "two weeks" and "14 Tage" are the same fact, and "one month" is not "30 days")
// must occur among the quantities of body. A fact without a number is a case-insensitive
// phrase, whitespace collapsed.
func Present(fact, body string) bool {
	want := text.Quantities(fact)
	if len(want) == 0 {
		return strings.Contains(normalise(body), normalise(fact))
	}
	have := map[string]bool{}
	for _, q := range text.Quantities(body) {
		have[q.Key()] = true
	}
	for _, q := range want {
		if !have[q.Key()] {
			return false
		}
	}
	return true
}

// normalise lower-cases s and collapses runs of white space to one space.
func normalise(s string) string {
	return text.CollapseSpace(strings.ToLower(s))
}

// containsWord reports whether body holds term as a whole word or phrase (case-insensitive):
// "sla" matches "SLA credits" but not "translate".
func containsWord(body, term string) bool {
	body, term = normalise(body), normalise(term)
	for from := 0; ; {
		i := strings.Index(body[from:], term)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(term)
		if (start == 0 || !isWordByte(body[start-1])) && (end == len(body) || !isWordByte(body[end])) {
			return true
		}
		from = start + 1
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}
