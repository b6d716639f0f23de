package guard

import (
	"fmt"
	"slices"
	"strings"
)

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

// limitWords limit a statement to one of a kind: the first payment, an introductory
// price, only annual billing, a one-time code, the original payment, new customers.
var limitWords = map[string]bool{
	"first": true, "only": true, "initial": true, "introductory": true, "single": true, "once": true,
	"original": true, "new": true, "neue": true, "neuen": true, "ursprünglich": true, "ursprünglichen": true,
	"erste": true, "ersten": true, "erster": true, "erstes": true, "einmalig": true, "einmalige": true,
	"einmaligen": true, "nur": true,
}

// limitsOf lists the limiting words of s, "one-time" included.
func limitsOf(s string) []string {
	lower := strings.ToLower(s)
	var out []string
	for _, w := range wordsOf(lower) {
		if limitWords[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	if strings.Contains(lower, "one-time") {
		out = append(out, "one-time")
	}
	return out
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

// widens reports whether a sentence speaking of all (subjects: its subject terms, limits:
// its limiting words) is wider than source unit u: u names a subject of a class the
// sentence names nothing of ("All plans" beside "Annual Pro plans") or limits what it says
// with a word the sentence lacks ("every payment" beside "your first payment"), and does
// not speak of all itself. A sentence that names one of the unit's plans ("anyone on Team"
// beside "on Solo or Team") has already narrowed that class.
func widens(subjects map[string]string, limits []string, u srcUnit) bool {
	if u.universal {
		return false
	}
	for _, w := range u.limits {
		if !slices.Contains(limits, w) {
			return true
		}
	}
	named := namedClasses(subjects)
	for term, class := range u.subjects {
		if _, ok := subjects[term]; !ok && !named[class] {
			return true
		}
	}
	return false
}

// namedClasses are the classes of subjects: a sentence naming a plan has narrowed plans.
func namedClasses(subjects map[string]string) map[string]bool {
	named := map[string]bool{}
	for _, class := range subjects {
		named[class] = true
	}
	return named
}

// narrower is the reason a universal sentence c is struck: whom or what the unit stating
// what it states (its quantities and verbs; for a sentence with none, minShared of its
// words) in most of its words limits it to ("of owner" for "anyone can cancel", "with
// \"first\"" for "every payment"). It is "" when no such unit widens c.
func narrower(c view, candidates []checkedSource) string {
	if !c.universal {
		return ""
	}
	var best *srcUnit
	most := -1
	terms := len(c.keys)+len(c.verbs) > 0 // else it must share minShared words with the unit
	for _, s := range candidates {
		for i, u := range s.units {
			n := sharedWords(c.words, u.words)
			if n > most && (terms || n >= minShared) && containsAll(u.keys, c.keys) && containsAll(u.verbs, c.verbs) {
				best, most = &s.units[i], n
			}
		}
	}
	if best == nil || !widens(c.subjects, c.limits, *best) {
		return ""
	}
	named := namedClasses(c.subjects)
	extra := map[string]string{}
	for term, class := range best.subjects {
		if !named[class] {
			extra[term] = class
		}
	}
	var only []string
	if len(extra) > 0 {
		only = append(only, "of "+subjectNames(extra))
	}
	for _, w := range best.limits {
		if !slices.Contains(c.limits, w) {
			only = append(only, fmt.Sprintf("with %q", w))
		}
	}
	return "it says this of all, but the eligible sources say it only " + strings.Join(only, ", ")
}
