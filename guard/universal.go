package guard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// A sentence that says a thing of everyone ("all plans include phone support", "anyone in
// the workspace can cancel") widens whatever the source says it of: a source unit that
// names a plan, a period or a role ("The Business plan includes phone support", "Owners
// can cancel") backs it only when the sentence names that subject too, or the unit itself
// speaks of every one ("Every new workspace gets a 14-day trial").

// universals are the quantifiers that speak of every member of what follows them.
var universals = map[string]bool{
	"all": true, "every": true, "any": true, "each": true, "anyone": true, "anybody": true,
	"everyone": true, "everybody": true, "anything": true, "everything": true, "whichever": true, "whatever": true, "regardless": true,
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
	out := wordsIn(s, limitWords)
	if strings.Contains(strings.ToLower(s), "one-time") {
		out = append(out, "one-time")
	}
	return out
}

// wordsIn lists the words of s (lower case) that set holds, each once, in order.
func wordsIn(s string, set map[string]bool) []string {
	var out []string
	for _, w := range wordsOf(strings.ToLower(s)) {
		if set[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// timeNouns after a quantifier make it say when, not who: "at any time", "each month".
var timeNouns = map[string]bool{
	"time": true, "times": true, "point": true, "moment": true, "stage": true, "minute": true, "minutes": true,
	"hour": true, "hours": true, "day": true, "date": true,
	"days": true, "week": true, "weeks": true, "month": true, "months": true, "year": true,
	"years": true, "period": true, "periods": true, "cycle": true, "zeit": true, "zeitpunkt": true, "zeitraum": true,
	"tag": true, "monat": true, "jahr": true,
}

// isNumeric reports whether w is a number, in digits or words ("12", "six").
func isNumeric(w string) bool {
	return w != "" && strings.Trim(w, "0123456789") == "" || len(text.Quantities(w)) == 1
}

// speaksOfAll reports whether s quantifies over everyone or everything of a kind.
func speaksOfAll(s string) bool {
	words := wordsOf(strings.ToLower(s))
	for i, w := range words {
		if !universals[w] || (w == "all" && i > 0 && words[i-1] == "at") || (w == "any" || w == "anything") && deniedBefore(words[:i]) ||
			freeRelative(w, words[i+1:]) {
			continue
		}
		next := i + 1
		for next < len(words) && isNumeric(words[next]) {
			next++ // "any 12-month period", "every six months"
		}
		if next < len(words) && timeNouns[words[next]] {
			continue
		}
		return true
	}
	return false
}

// deniedBefore reports whether a negation stands among the last three of words: "any"
// after it means none, not every ("without entering any card details").
func deniedBefore(words []string) bool {
	for _, w := range words[max(len(words)-3, 0):] {
		if w == "without" || w == "not" || w == "never" || w == "no" || w == "cannot" || w == "t" || w == "ohne" || w == "kein" {
			return true
		}
	}
	return false
}

// freeRelative reports whether "whatever" or "whichever" opens a clause of its own rather
// than a noun it quantifies: "at whatever the price is then", "whichever is later".
func freeRelative(w string, after []string) bool {
	if w != "whatever" && w != "whichever" || len(after) == 0 {
		return false
	}
	switch after[0] {
	case "the", "your", "our", "its", "their", "is", "was", "comes", "happens", "applies", "der", "die", "das", "ist":
		return true
	}
	return false
}

// speaksOfAllPlans reports whether s speaks of every plan: a quantifier right before a
// plan word ("every plan", "all tiers", "jeder Tarif").
func speaksOfAllPlans(s string) bool {
	if !mentionsPlanWord(s) {
		return false
	}
	words := wordsOf(strings.ToLower(s))
	for i, w := range words[:max(len(words)-1, 0)] {
		if universals[w] && isPlanWord(words[i+1]) {
			return true
		}
	}
	return false
}

// plansNamedFor returns the plan names a unit of s gives to what sentence c speaks of
// (a subject of c other than a plan name), where c names none of them: "on Solo or Team"
// for "storage packs are available on every plan". A sentence about every plan is wider
// than any unit of the source that names them, not only the unit that restates it.
func plansNamedFor(c view, s checkedSource) map[string]string {
	for _, u := range s.units {
		if u.universal {
			continue
		}
		plans, shared := map[string]string{}, false
		for term, class := range u.subjects {
			_, named := c.subjects[term]
			switch {
			case class == classPlanName && !named:
				plans[term] = class
			case class != classPlanName && named:
				shared = true
			}
		}
		if shared && len(plans) > 0 {
			return plans
		}
	}
	return nil
}

// plansOnly is the reason a sentence about every plan is struck when no unit restating it
// is narrower, but a unit about the same thing names the plans it holds for.
func plansOnly(c view, candidates []checkedSource) string {
	if !c.allPlans {
		return ""
	}
	for _, s := range candidates {
		if plans := plansNamedFor(c, s); plans != nil {
			return "it says this of every plan, but the eligible sources say it only of " + subjectNames(plans)
		}
	}
	return ""
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
// what it states (closestStating) limits it to ("of owner" for "anyone can cancel", "with
// \"first\"" for "every payment"). It is "" when no such unit widens c.
func narrower(c view, candidates []checkedSource) string {
	if !c.universal {
		return ""
	}
	_, best := closestStating(c, candidates)
	if best == nil || !widens(c.subjects, c.limits, *best) {
		return plansOnly(c, candidates)
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

// widenedBy reports whether the sentence says more than unit u: of all where u says it of
// fewer (widens), or at any time or as often as asked where u bounds when or how often.
func (c view) widenedBy(u srcUnit) bool {
	return c.universal && widens(c.subjects, c.limits, u) || c.always && !u.always && timeBound(c, u) != ""
}

// alwaysPhrases say a thing holds at any time or as often as asked: "we refund a duplicate
// whenever you report it" is not backed by "when it is reported within 8 weeks", nor "we
// can extend your trial as often as you need" by "can extend a trial once".
var alwaysPhrases = []string{"at any time", "any time", "anytime", "whenever", "as often as", "as many times as",
	"any number of times", "no matter when", "jederzeit", "beliebig oft"}

// speaksOfAlways reports whether s says something holds at any time or as often as asked:
// an alwaysPhrases phrase, or "any" before a time noun ("from any date", "at any point").
func speaksOfAlways(s string) bool {
	lower := strings.ToLower(s)
	if slices.ContainsFunc(alwaysPhrases, func(p string) bool {
		i := strings.Index(lower, p)
		return i >= 0 && (i == 0 || !isWordByte(lower[i-1])) && !boundedAfter(lower[i+len(p):])
	}) {
		return true
	}
	words := wordsOf(lower)
	for i, w := range words[:max(len(words)-1, 0)] {
		if (w == "any" || w == "jedem" || w == "jeder") && timeNouns[words[i+1]] && !boundedAfter(strings.Join(words[i+2:], " ")) {
			return true
		}
	}
	return false
}

// withinBounds bound the "any time" they follow: "at any time within the retention
// period" holds within it, not at any time.
var withinBounds = []string{"within", "before", "until", "during", "up to", "innerhalb", "bis", "vor"}

// boundedAfter reports whether rest, the text after an "any time" phrase, opens with a
// withinBounds word.
func boundedAfter(rest string) bool {
	rest = strings.TrimLeft(rest, " ,")
	return slices.ContainsFunc(withinBounds, func(b string) bool {
		return strings.HasPrefix(rest, b) && (len(rest) == len(b) || !isWordByte(rest[len(b)]))
	})
}

// occasionBounds bound when or how often: "once", "only", "before", "after", "until",
// "within" ("within the retention period").
var occasionBounds = map[string]bool{"once": true, "only": true, "before": true, "after": true, "until": true,
	"within": true, "einmal": true, "nur": true, "bevor": true, "bis": true, "innerhalb": true}

// occasionsOf lists the occasionBounds words of s.
func occasionsOf(s string) []string { return wordsIn(s, occasionBounds) }

// timeBound is what in unit u bounds when or how often, that the sentence c does not say
// itself: a quantity with an upper bound ("within 8 weeks") or an occasionBounds word. ""
// when nothing does.
func timeBound(c view, u srcUnit) string {
	for i, k := range u.keys {
		if u.quals[i].bound == upper && !slices.Contains(c.keys, k) {
			return k
		}
	}
	for _, w := range u.occasions {
		if !slices.Contains(c.occasions, w) {
			return w
		}
	}
	return ""
}

// boundedInTime is the reason a sentence c that says a thing holds at any time is struck:
// the unit stating what it states (as narrower picks it) bounds when or how often. "" when
// no such unit does.
func boundedInTime(c view, candidates []checkedSource) string {
	if !c.always {
		return ""
	}
	id, best := closestStating(c, candidates)
	if best == nil || best.always {
		return ""
	}
	bound := timeBound(c, *best)
	if bound == "" {
		return ""
	}
	for _, q := range text.Quantities(best.text) {
		if q.Key() == bound {
			bound = q.Text // "8 weeks", not its key "56 day"
		}
	}
	return fmt.Sprintf("it says this holds at any time or as often as asked, but the eligible source %s bounds it (%s): %q", id, bound, best.text)
}

// closestStating is the unit of candidates that states what sentence c states (its
// quantities and verbs; for a sentence with none, minShared of its words) in most of its
// words, and its source's ID; nil when none does.
func closestStating(c view, candidates []checkedSource) (string, *srcUnit) {
	var best *srcUnit
	id, most := "", -1
	terms := len(c.keys)+len(c.verbs) > 0
	for _, s := range candidates {
		for i, u := range s.units {
			n := sharedWords(c.words, u.words)
			if n > most && (terms || n >= minShared) && containsAll(u.keys, c.keys) && containsAll(u.verbs, c.verbs) {
				best, id, most = &s.units[i], s.id, n
			}
		}
	}
	return id, best
}
