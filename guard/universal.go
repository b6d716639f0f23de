package guard

import "strings"

// A sentence that says a thing of everyone ("all plans include phone support", "anyone in
// the workspace can cancel") widens whatever the source says it of: a source unit that
// names a plan, a period or a role ("The Business plan includes phone support", "Owners
// can cancel") backs it only when the sentence names that subject too, or the unit itself
// speaks of every one ("Every new workspace gets a 14-day trial").

// universals are the quantifiers that speak of every member of what follows them.
var universals = map[string]bool{
	"all": true, "every": true, "any": true, "each": true, "anyone": true, "anybody": true,
	"everyone": true, "everybody": true, "whichever": true, "whatever": true, "regardless": true,
	"alle": true, "allen": true, "aller": true, "jede": true, "jeder": true, "jedes": true,
	"jeden": true, "jedem": true, "egal": true,
}

// timeNouns after a quantifier make it say when, not who: "at any time", "each month".
var timeNouns = map[string]bool{
	"time": true, "times": true, "point": true, "moment": true, "stage": true, "day": true,
	"days": true, "week": true, "weeks": true, "month": true, "months": true, "year": true,
	"years": true, "zeit": true, "zeitpunkt": true, "tag": true, "monat": true, "jahr": true,
}

// speaksOfAll reports whether s quantifies over everyone or everything of a kind.
func speaksOfAll(s string) bool {
	words := wordsOf(strings.ToLower(s))
	for i, w := range words {
		if !universals[w] || (w == "all" && i > 0 && words[i-1] == "at") {
			continue
		}
		if i+1 < len(words) && timeNouns[words[i+1]] {
			continue
		}
		return true
	}
	return false
}

// widens reports whether a sentence speaking of all (subjects: its subject terms) is
// wider than source unit u: u names a subject of a class the sentence names nothing of
// ("All plans" beside "Annual Pro plans"), and does not speak of all itself. A sentence
// that names one of the unit's plans ("anyone on Team" beside "on Solo or Team") has
// already narrowed that class.
func widens(subjects map[string]string, u srcUnit) bool {
	if u.universal {
		return false
	}
	named := map[string]bool{}
	for _, class := range subjects {
		named[class] = true
	}
	for term, class := range u.subjects {
		if _, ok := subjects[term]; !ok && !named[class] {
			return true
		}
	}
	return false
}
