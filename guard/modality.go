package guard

import (
	"cmp"
	"slices"
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// Modality. "A late fee may be charged" and "a late fee will be charged" share every word
// the backing rule reads, but only one is a promise. A sentence that says a thing will
// happen (will, 'll, always, definitely, entitled) is not backed by a source that says it
// only may (may, might, usually, in some cases, at our discretion) in the clause that
// states it. A hedge of the customer's own act is permission, not doubt: "you may cancel
// at any time" backs "you'll be able to cancel at any time". German has no future worth
// reading here ("werden erstattet" is the present passive), so only its hedges are read.

// promiseWords say that something will certainly happen.
var promiseWords = map[string]bool{
	"will": true, "shall": true, "always": true, "definitely": true, "certainly": true, "guaranteed": true,
	"guarantee": true, "entitled": true, "surely": true, "immer": true, "garantiert": true,
}

// promiseMarks are what a promise word starts with, or holds: a sentence with none of
// them promises nothing, and is not read word by word.
var promiseMarks = []string{"will", "'ll", "’ll", "shall", "going to", "always", "definitely", "certainly",
	"guarantee", "entitled", "surely", "immer", "garantiert"}

// hasAny reports whether s holds one of marks.
func hasAny(s string, marks []string) bool {
	return slices.ContainsFunc(marks, func(m string) bool { return strings.Contains(s, m) })
}

// hedgeWords say that it may not.
var hedgeWords = map[string]bool{
	"may": true, "might": true, "could": true, "usually": true, "typically": true, "generally": true,
	"normally": true, "often": true, "sometimes": true, "occasionally": true, "possibly": true, "perhaps": true,
	"discretion": true, "likely": true, "unlikely": true, "eventuell": true, "gegebenenfalls": true, "ggf": true,
	"möglicherweise": true, "meist": true, "meistens": true, "normalerweise": true, "ermessen": true,
}

// hedgePhrases say it in several words.
var hedgePhrases = []string{"in some cases", "in most cases", "in certain cases", "case by case", "case-by-case",
	"not guaranteed", "no guarantee", "cannot guarantee", "can't guarantee", "can not guarantee", "depending on",
	"where possible", "if possible", "in der regel", "unter umständen", "in einzelfällen", "im einzelfall"}

// customers are the subjects whose "may" is a permission: "you may cancel at any time".
var customers = map[string]bool{
	"you": true, "customers": true, "customer": true, "users": true, "user": true, "members": true, "member": true,
	"subscribers": true, "owners": true, "owner": true, "admins": true, "admin": true, "they": true, "anyone": true,
}

// promises reports whether sentence body says that something will happen and hedges
// nothing. "Will" read as a courtesy ("I'll check whether a refund is possible") or
// in a condition ("if it will help") promises nothing.
func (v *Vocabulary) promises(body string) bool {
	if !hasAny(strings.ToLower(body), promiseMarks) {
		return false
	}
	words := scopedWords(body)
	if len(words) == 0 || strings.HasSuffix(strings.TrimSpace(body), "?") || hedged(body, words, allClauses) {
		return false
	}
	conditions := conditionClauses(body, words)
	for i, w := range words {
		word := lowerWord(body[w.start:w.end])
		if w.negated || conditions[w.clause] {
			continue
		}
		if strings.HasSuffix(word, "'ll") || strings.HasSuffix(word, "’ll") {
			word = "will"
		}
		if word == "going" && i+1 < len(words) && lowerWord(body[words[i+1].start:words[i+1].end]) == "to" {
			word = "will"
		}
		if promiseWords[word] && !v.courtesyAt(strings.TrimLeft(body[w.end:], " ")) && !afterBeAble(body, words, i) {
			return true
		}
	}
	return false
}

// afterBeAble reports whether the word at i is followed by "be able to" and a customer's
// act ("you'll be able to cancel"): an ability the customer has, which a permission backs.
func afterBeAble(body string, words []scoped, i int) bool {
	if i+3 >= len(words) {
		return false
	}
	next := func(k int) string { return lowerWord(body[words[i+k].start:words[i+k].end]) }
	return next(1) == "be" && next(2) == "able" && next(3) == "to" && i > 0 && customers[lowerWord(body[words[i-1].start:words[i-1].end])]
}

// allClauses asks hedged to read every clause.
const allClauses = -1

// hedged reports whether clause (or every clause, allClauses) of s says a thing only
// may happen: a hedge word or phrase, other than a customer's "may" before an active verb.
func hedged(s string, words []scoped, clause int) bool {
	lower := strings.ToLower(s)
	if len(lower) != len(s) {
		lower = s // a letter whose lower case is of another length: offsets must stay s's
	}
	for i, w := range words {
		if clause != allClauses && w.clause != clause {
			continue
		}
		word := lowerWord(s[w.start:w.end])
		if !hedgeWords[word] {
			continue
		}
		if (word == "may" || word == "could") && permission(s, words, i) {
			continue
		}
		return true
	}
	for _, p := range hedgePhrases {
		for at := 0; ; {
			k := strings.Index(lower[at:], p)
			if k < 0 {
				break
			}
			if clause == allClauses || clauseAt(words, at+k) == clause {
				return true
			}
			at += k + len(p)
		}
	}
	return false
}

// permission reports whether the modal at words[i] gives the customer leave to act ("you
// may cancel", "customers may request a refund") rather than saying something may be done
// to them ("you may be charged a late fee").
func permission(s string, words []scoped, i int) bool {
	if i == 0 || i+1 >= len(words) || !customers[lowerWord(s[words[i-1].start:words[i-1].end])] {
		return false
	}
	next := lowerWord(s[words[i+1].start:words[i+1].end])
	return next != "be" && next != "also" && next != "not"
}

// clauseAt returns the clause of the word at byte offset at, or -2 if no word is there.
func clauseAt(words []scoped, at int) int {
	for _, w := range words {
		if w.start <= at && at < w.end {
			return w.clause
		}
	}
	return -2
}

// hedgedBy returns the text of a unit of s that says only may of what c promises, when
// every unit of s that states c's quantities and commercial verbs (the units that could
// back it) hedges them; "" otherwise.
func (v *Vocabulary) hedgedBy(c view, s checkedSource) string {
	first := ""
	for _, u := range s.units {
		if !u.statesQuantities(c.analysis) || !containsAll(u.affirmed, c.affirmed) ||
			len(c.keys)+len(c.affirmed) == 0 && sharedWords(c.words, u.words) < minShared {
			continue
		}
		if !v.hedgesWhatItStates(u.text, c.analysis) {
			return ""
		}
		first = cmp.Or(first, u.text)
	}
	return first
}

// hedgesWhatItStates reports whether unit text hedges the clause that states one of a's
// commercial verbs or quantities; a clause that is a condition ("if an invoice is more than
// 14 days overdue") lends the hedge of the clause it conditions. With none of them in it,
// any hedge counts.
func (v *Vocabulary) hedgesWhatItStates(unit string, a analysis) bool {
	unit = text.Normalize(unit)
	words := scopedWords(unit)
	conditions := conditionClauses(unit, words)
	var anchors []int
	for _, m := range v.matches(unit) {
		if m.kind == KindCommercial && slices.Contains(a.affirmed, m.canonical) {
			anchors = append(anchors, clauseAt(words, m.start))
		}
	}
	for _, q := range text.Quantities(unit) {
		if slices.Contains(a.keys, q.Key()) {
			anchors = append(anchors, clauseAt(words, strings.Index(unit, q.Text)))
		}
	}
	if len(anchors) == 0 {
		return hedged(unit, words, allClauses)
	}
	for _, clause := range anchors {
		if conditions[clause] {
			for _, w := range words {
				if !conditions[w.clause] && hedged(unit, words, w.clause) {
					return true
				}
			}
			continue
		}
		if hedged(unit, words, clause) || clause > 0 && hedgedAside(unit, words, clause-1) {
			return true
		}
	}
	return false
}

// hedgedAside reports whether clause is a short hedge set off by commas before the clause
// it hedges: "we may, at our discretion, waive the charge" waives only at discretion.
func hedgedAside(s string, words []scoped, clause int) bool {
	n := 0
	for _, w := range words {
		if w.clause == clause {
			n++
		}
	}
	return n > 0 && n <= asideWords && hedged(s, words, clause)
}

// asideWords is how many words a clause set off by commas may hold to be an aside.
const asideWords = 4
