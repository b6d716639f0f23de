package guard

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/supportdraft/supportdraft/text"
)

// Polarity. A sentence that restates a source with the opposite polarity ("credits are
// paid out as cash" beside "credits are never paid out as cash", "all fees" beside "none of
// the fees", "can" beside "cannot") shares its words and so passes every test of wording;
// only the scope of its negations tells them apart. Each word is read as in the scope of a
// negation or not. The sentence is cut into clauses (at punctuation, at "but", "unless",
// "if" and the like, and at "and"/"or" before a new subject). A negation of the predicate
// ("not", "never", "cannot", "-n't") reaches back to the start of its clause (or of its
// coordinated predicate, after "and"/"or") and forward a few words, so "seats are never
// credited" reads as "none of the seats are credited" while "stays active and is not
// refunded" negates only the refund; a negative quantifier or a denying verb ("no",
// "none", "nothing", "stops", "prevents") governs the few words after it, and "without"
// only the next one (and the word it governs is left out of the comparison: "without
// payment" says when, not whether). Two negations cancel.

// clauseBreaks end a clause: punctuation.
const clauseBreaks = ",;:.!?()[]\n—–"

// clauseNegators negate the predicate, and so the whole clause they stand in. Words
// ending in "n't" are clause negators too (isClauseNegator).
var clauseNegators = map[string]bool{
	"not": true, "never": true, "cannot": true, "nor": true, "neither": true,
	"unable": true, "impossible": true, // "we are unable to refund" denies the refund
	"nicht": true, "nie": true, "niemals": true, "unmöglich": true,
	"pas": true, "jamais": true, "niet": true, "nooit": true, "nunca": true, "non": true, "tampoco": true, // "ne s'applique pas"
	"neanche": true, "nemmeno": true, "neppure": true,
}

// forwardNegators govern the words after them (scopeWords content words, to the end of
// the clause): negative quantifiers and the verbs that deny what follows them ("stops the
// next charge" = no next charge).
var forwardNegators = map[string]int{
	"no": scopeWords, "none": scopeWords, "nothing": scopeWords, "nobody": scopeWords, "nowhere": scopeWords,
	"stop": scopeWords, "stops": scopeWords, "stopped": scopeWords, "prevent": scopeWords, "prevents": scopeWords,
	"cease": scopeWords, "ceases": scopeWords,
	"kein": scopeWords, "keine": scopeWords, "keinen": scopeWords, "keinem": scopeWords, "keiner": scopeWords,
	"keines": scopeWords, "nichts": scopeWords,
	"geen": scopeWords, "aucun": scopeWords, "aucune": scopeWords, "ningún": scopeWords, "ninguna": scopeWords,
	"nessun": scopeWords, "nessuna": scopeWords, "nessuno": scopeWords,
	// "after 60 days without payment the workspace is deleted" negates the payment only.
	"without": 1, "ohne": 1,
}

// scopeWords is how many content words after a forward negator it governs, as in
// NegEx-style scope windows.
const scopeWords = 5

// coreWords of them are what it denies (reached): the words after are mostly what the
// denial is about ("no exit fees on our Flex tariff" denies the fees, not the tariff),
// where two wordings of one denial end their windows differently.
const coreWords = 3

// scopeEnds are the conjunctions that start a new clause inside a sentence: a negation
// before "but" says nothing of the words after it.
var scopeEnds = map[string]bool{
	"but": true, "although": true, "though": true, "unless": true, "except": true, "while": true,
	"whereas": true, "however": true, "because": true, "since": true, "due": true, "if": true, "when": true, "once": true,
	"so": true, "aber": true, "sondern": true, "wenn": true, "falls": true, "weil": true,
	// A time adjunct says when, not what is denied: "it cannot be changed after purchase"
	// denies the change, not the purchase.
	"after": true, "before": true, "until": true, "during": true, "nach": true, "bevor": true,
}

// subjectStarts are the words that open a new subject: after "and" or "or" they start a
// new clause, so "won't be charged again and the plan stays active" leaves "plan" out of
// the negation.
var subjectStarts = map[string]bool{
	"the": true, "a": true, "an": true, "your": true, "our": true, "my": true, "their": true, "its": true,
	"you": true, "we": true, "i": true, "it": true, "they": true, "he": true, "she": true,
	"this": true, "that": true, "these": true, "those": true,
}

func isClauseNegator(word string) bool {
	return clauseNegators[word] || strings.HasSuffix(strings.ReplaceAll(word, "’", "'"), "n't")
}

// deniesPermission reports whether the negator at words[i] denies that something may be
// done ("can't cancel", "are not able to", "may not"), which a following "until" does not
// turn into a time: "you can't cancel until the term ends" still denies cancelling now,
// while "your downgrade won't take effect until the next cycle" says when it does.
func deniesPermission(words []string, i int) bool {
	w := strings.ReplaceAll(words[i], "’", "'")
	switch w {
	case "can't", "cannot", "couldn't", "mustn't", "unable":
		return true
	}
	prev, next := "", ""
	if i > 0 {
		prev = words[i-1]
	}
	if i+1 < len(words) {
		next = words[i+1]
	}
	return prev == "can" || prev == "could" || prev == "may" || prev == "must" || next == "able" || next == "allowed" || next == "permitted"
}

// joinsClauses reports whether the last of words is an "and" or "or" that joins two
// clauses, so a negation after it does not reach back past it: "the plan stays active and
// you won't be charged". One that joins the nouns of a subject ("wire transfers and
// cryptocurrency can't be accepted") has no verb on either side and at most two content
// words before it, and the negation denies both.
func joinsClauses(words []string, next string) bool {
	last := words[len(words)-1]
	if last != "and" && last != "or" {
		return false
	}
	before := words[:len(words)-1]
	content := 0
	for _, w := range before {
		if !text.IsStopword(w) {
			content++
		}
	}
	return isAuxiliary(next) || content > 2 || slices.ContainsFunc(before, isAuxiliary)
}

// scoped is one word of a text at text[start:end], the clause it is in, and whether it
// lies in a negation's scope. Negators themselves are left out.
type scoped struct {
	start, end int
	clause     int
	negated    bool
	local      bool // governed by "without": negated, but no statement of its own
	// reached: within the forward reach of a negator, where what is denied stands; a word
	// negated only from behind ("monthly plans" in "monthly plans are not refunded") is
	// the topic, which a title saying "Monthly plans" does not contradict.
	reached bool
	// prefix is the length of the word's negative prefix ("un" of "unused"), 0 if none.
	prefix int
}

// scopedWords reads every word of s with its clause and polarity (see the comment above).
func scopedWords(s string) []scoped {
	var out []scoped
	var locs [][]int // the words of the current clause
	clause := 0
	flush := func() {
		for len(locs) > 0 {
			end := len(locs)
			for i := 1; i < len(locs); i++ {
				if opensClause(s, locs, i) {
					end = i
					break
				}
			}
			until := end < len(locs) && lowerWord(s[locs[end][0]:locs[end][1]]) == "until"
			out = append(out, clauseWords(s, locs[:end], clause, until)...)
			locs, clause = locs[end:], clause+1
		}
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			start := i
			for i += size; i < len(s); i += size {
				r, size = utf8.DecodeRuneInString(s[i:])
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' && r != '-' {
					break
				}
			}
			locs = append(locs, []int{start, i})
			continue
		case strings.ContainsRune(clauseBreaks, r):
			flush()
		}
		i += size
	}
	flush()
	return out
}

// opensClause reports whether the word at locs[i] starts a new clause.
func opensClause(s string, locs [][]int, i int) bool {
	w := lowerWord(s[locs[i][0]:locs[i][1]])
	if scopeEnds[w] {
		return true
	}
	return (w == "and" || w == "or") && i+1 < len(locs) && subjectStarts[lowerWord(s[locs[i+1][0]:locs[i+1][1]])]
}

// opensPredicate reports whether words[j] is "and" or "or" before an auxiliary or a
// negator: a second predicate of the same subject, which a negation before it does not
// reach ("are not available on any lower plan and cannot be purchased as add-ons" denies
// the purchase once, not twice).
func opensPredicate(words []string, j int) bool {
	return (words[j] == "and" || words[j] == "or") && j+1 < len(words) && (auxiliaries[words[j+1]] || isClauseNegator(words[j+1]))
}

// clauseWords reads the words of one clause: each negator flips the words it governs.
func clauseWords(s string, locs [][]int, clause int, until bool) []scoped {
	words := make([]string, len(locs))
	flip := make([]bool, len(locs))
	local := make([]bool, len(locs))
	reached := make([]bool, len(locs))
	for i, loc := range locs {
		words[i] = lowerWord(s[loc[0]:loc[1]])
	}
	for i, w := range words {
		reach, back := forwardReach(words, i)
		if isClauseNegator(w) {
			if until && !deniesPermission(words, i) {
				continue // "won't take effect until the next cycle": when, not whether
			}
			reach, back = scopeWords, true
		}
		local1 := reach == 1 && w != "free" // "without payment": the payment, not a statement
		if reach == 0 {
			continue
		}
		if deniesVerbBefore(words, i) { // the verb is the first of the words it governs
			flip[i-1], reached[i-1] = !flip[i-1], true
			reach--
		}
		modal := back && deniesPossibility(words[i+1:])
		for j := i - 1; back && j >= 0 && !joinsClauses(words[:j+1], words[j+1]); j-- {
			flip[j] = !flip[j]
			reached[j] = reached[j] || modal
		}
		for j, n := i+1, 0; j < len(words) && reach > 0 && !opensPredicate(words, j); j++ {
			flip[j], reached[j] = !flip[j], reached[j] || n < coreWords
			local[j] = local[j] || local1
			if !text.IsStopword(words[j]) && !permits[words[j]] {
				reach--
				n++
			}
		}
	}
	var out []scoped
	for i, loc := range locs {
		if !isClauseNegator(words[i]) && forwardNegators[words[i]] == 0 {
			out = append(out, scoped{start: loc[0], end: loc[1], clause: clause, negated: flip[i], local: local[i], reached: reached[i],
				prefix: negativePrefix(words[i])})
		}
	}
	return out
}

// forwardReach is how many content words the word at words[i] denies after it, and
// whether it denies its clause back to the start as "not" does. Beside forwardNegators:
// "free of charge" is "at no charge", "without any extra charge" "at no extra charge",
// "no later than" a bound, and "fees no longer apply" "fees do not apply any more".
func forwardReach(words []string, i int) (reach int, back bool) {
	next := ""
	if i+1 < len(words) {
		next = words[i+1]
	}
	switch {
	case words[i] == "free" && next == "of":
		return 1, false
	case words[i] == "without" && next == "any":
		return scopeWords, false
	case words[i] == "no" && comparatives[next]:
		return 0, false
	case words[i] == "no" && next == "longer":
		return scopeWords, true
	}
	return forwardNegators[words[i]], false
}

// quantifiedDenials deny the verb before them as well as what follows: "members pay no
// fee" is "members don't pay a fee", and the two must read alike.
// (German puts a noun there: "bei einem Downgrade keine Gutschrift".)
var quantifiedDenials = map[string]bool{"no": true, "none": true, "nothing": true}

// comparatives after "no" bound a quantity rather than deny: "refunded no later than 10
// days" is "within 10 days". ("No longer" still denies.)
var comparatives = map[string]bool{"later": true, "more": true, "less": true, "sooner": true,
	"earlier": true, "fewer": true, "greater": true}

// deniesVerbBefore reports whether the negative quantifier at words[i] denies the content
// word just before it: "pay no fee", "charge nothing".
func deniesVerbBefore(words []string, i int) bool {
	return quantifiedDenials[words[i]] && i > 0 && !text.IsStopword(words[i-1]) && !isClauseNegator(words[i-1]) &&
		forwardNegators[words[i-1]] == 0
}

// possibility are the predicates that only say whether what their subject names can be
// done: "Changing the country on an existing subscription isn't possible" denies the
// change itself, so the words before the negation are what is denied, not a topic.
var possibility = map[string]bool{"possible": true, "allowed": true, "permitted": true, "available": true,
	"supported": true, "option": true, "möglich": true, "erlaubt": true, "verfügbar": true}

// permits are verbs of permission, which a negation reaches through without spending its
// reach on them: "does not allow editing the VAT number on an existing subscription"
// denies as much as "can't edit the VAT number on an existing subscription".
var permits = map[string]bool{"allow": true, "allows": true, "permit": true, "permits": true, "let": true, "lets": true}

// deniesPossibility reports whether the words after a negation are a possibility
// predicate and nothing else of substance.
func deniesPossibility(after []string) bool {
	found := false
	for _, w := range after {
		switch {
		case possibility[w]:
			found = true
		case !text.IsStopword(w):
			return false
		}
	}
	return found
}

func lowerWord(w string) string { return strings.ToLower(strings.Trim(w, `"'“”‘’`)) }

// polarities is what the polarity check knows of a text: each content stem
// (text.ContentStems), whether it lies in the scope of a negation, and the clause it is
// in. A stem read with both polarities is left out: its position cannot say which one a
// restatement must keep.
type polarities struct {
	negated map[string]bool
	clause  map[string]int
	reached map[string]bool // within a negator's forward reach (see scoped)
	// condition: in a condition clause (conditionClauses), which says when, so its
	// polarity opposes nothing; its words still count as shared.
	condition map[string]bool
	// nothing: the text's subject is a negative pronoun ("Nothing is reset when you
	// upgrade"), which denies its predicate of every subject (deniesOfAll).
	nothing bool
}

func polarity(s string) polarities {
	p := polarities{negated: map[string]bool{}, clause: map[string]int{}, reached: map[string]bool{}, condition: map[string]bool{}}
	p.nothing = opensWithNegativeSubject(s)
	mixed := map[string]bool{}
	words := scopedWords(s)
	conditions := conditionClauses(s, words)
	for _, w := range words {
		if w.local {
			continue
		}
		negated, reached := w.negated, w.reached
		word := s[w.start+w.prefix : w.end]
		if w.prefix > 0 {
			negated, reached = !negated, true
		} else if opposite, ok := antonyms[strings.ToLower(word)]; ok {
			word, negated, reached = opposite, !negated, true
		}
		for _, st := range text.ContentStems(word) {
			if was, seen := p.negated[st]; seen && was != negated {
				mixed[st] = true
			}
			p.negated[st], p.clause[st] = negated, w.clause
			p.reached[st] = p.reached[st] || reached
			if conditions[w.clause] {
				p.condition[st] = true
			}
		}
	}
	for st := range mixed {
		delete(p.negated, st)
		delete(p.clause, st)
		delete(p.reached, st)
		delete(p.condition, st)
	}
	return p
}

// antonyms are words read as the denial of their opposite, as a negative prefix is: "past
// invoices" restates "future invoices" with the opposite polarity, "prices include VAT"
// "prices exclude VAT", "renews manually" "renews automatically". Only pairs where one
// side is simply not the other are listed: "add" and "remove", "before" and "after" often
// state one fact from its two sides.
var antonyms = map[string]string{
	"future": "past", "exclude": "include", "excludes": "includes", "excluded": "included", "excluding": "including",
	"exclusive": "inclusive", "manual": "automatic", "manually": "automatically", "minimum": "maximum",
	"prohibited": "permitted", "forbidden": "allowed", "disabled": "enabled", "disable": "enable",
	"zukünftige": "vergangene", "zukünftigen": "vergangenen", "exklusive": "inklusive", "manuell": "automatisch",
}

// negativePrefixes deny the word they open: "unused" hardware is hardware not used, a
// "non-refundable" pack one not refunded. Such a word is read as the rest of it, negated,
// so "used hardware can be returned" restates "unused hardware can be returned" with the
// opposite polarity. What follows the prefix must be a word of its own (minPrefixedRest
// letters at least): "under", "until" and "unit" are not denials.
var negativePrefixes = []string{"non-", "non", "un"}

const minPrefixedRest = 4

// negativePrefix is the length in bytes of the negative prefix word (lower case) opens
// with, 0 if none. A word that opens a clause ("unless") is not a denial of "less".
func negativePrefix(word string) int {
	if scopeEnds[word] {
		return 0
	}
	for _, p := range negativePrefixes {
		if rest, ok := strings.CutPrefix(word, p); ok && utf8.RuneCountInString(rest) >= minPrefixedRest {
			return len(p)
		}
	}
	return 0
}

// deniedInClause reports whether a clause negator ("not", "never", "n't") stands before
// s[start:] in its clause.
func deniedInClause(s string, start int) bool {
	return slices.ContainsFunc(wordsBefore(s, start), func(w string) bool { return isClauseNegator(lowerWord(w)) })
}

// wordsBefore returns the words of s before start, back to the last clause break.
func wordsBefore(s string, start int) []string {
	before := s[:start]
	if i := strings.LastIndexAny(before, clauseBreaks); i >= 0 {
		before = before[i+1:]
	}
	return strings.Fields(before)
}

// negatedAt reports whether the word at start, among words (scopedWords of its text), lies
// in the scope of a negation: "may not waive", "is never refunded", "no refunds", "none of
// the seats are credited", "wird nicht erstattet". The commitment rule reads a verb's
// polarity with it, as the polarity check reads every word's.
func negatedAt(words []scoped, start int) bool {
	for _, w := range words {
		if w.start <= start && start < w.end {
			return w.negated != (w.prefix > 0 && start >= w.start+w.prefix)
		}
	}
	return false
}

// titleWords is the length below which a line without end punctuation is read as a title
// ("Partial refunds and duplicate charges"), not a statement.
const titleWords = 7

// statementPolarity is polarity for a source unit, and none for a title: a title names a
// topic, and a denial about that topic does not contradict it.
func statementPolarity(unit string) polarities {
	trimmed := strings.TrimSpace(unit)
	if r, _ := utf8.DecodeLastRuneInString(trimmed); !text.IsTerminator(r) && len(strings.Fields(trimmed)) < titleWords {
		return polarities{}
	}
	return polarity(unit)
}

// restatesShare is how much of a sentence's content words a source unit must hold for the
// sentence to be read as a restatement of it (and its polarity compared).
const restatesShare = 0.6

// restates reports how many content words the sentence (p) shares with the unit (u), and
// whether that makes it a restatement of u: at least two, most of the sentence's and half
// of the unit's.
func restates(p, u polarities) (int, bool) {
	shared := 0
	for st := range p.negated {
		if _, ok := u.negated[st]; ok {
			shared++
		}
	}
	return shared, shared >= minShared && float64(shared) >= restatesShare*float64(len(p.negated)) && 2*shared >= len(u.negated)
}

// opposes reports whether a restatement p of u (restates) says the opposite: a shared
// word is denied in one (within a negator's forward reach) and not negated in the other,
// in a clause that is itself mostly shared on both sides (so a negated aside, "credits are
// never paid out as cash, but they can be used…", or "it is not sent to a collection
// agency" at the end of a long statement, does not oppose a text that only shares the
// rest).
func opposes(p, u polarities) bool {
	// Under opposite conditions opposite outcomes agree: "once you upgrade, your dashboard
	// unlocks" restates "if you don't upgrade, your dashboards are locked".
	for st, negated := range p.negated {
		if uNegated, ok := u.negated[st]; ok && p.condition[st] && u.condition[st] && uNegated != negated {
			return false
		}
	}
	pShare, uShare := p.clauseShare(u), u.clauseShare(p)
	for st, negated := range p.negated {
		uNegated, ok := u.negated[st]
		denied := negated && p.reached[st] || uNegated && u.reached[st]
		if ok && uNegated != negated && denied && !p.condition[st] && !u.condition[st] && pShare[p.clause[st]] >= 0.5 && uShare[u.clause[st]] >= 0.5 {
			return true
		}
	}
	return false
}

// clauseShare is, for each clause of p, the share of its words that other has.
func (p polarities) clauseShare(other polarities) map[int]float64 {
	words, shared := map[int]int{}, map[int]int{}
	for st := range p.negated {
		words[p.clause[st]]++
		if _, ok := other.negated[st]; ok {
			shared[p.clause[st]]++
		}
	}
	out := make(map[int]float64, len(words))
	for c, n := range words {
		out[c] = float64(shared[c]) / float64(n)
	}
	return out
}

// contradicted returns the unit of sources the sentence (p) restates most closely with the
// opposite polarity, and its source, or ok false. A unit that restates it with the same
// polarity and shares more of its words outweighs it: a policy that states a rule and its
// exception ("Each workspace can start a single trial of each paid plan. A workspace that
// has already paid for a plan cannot start a trial of that plan.") is not contradicted by
// quoting the rule. A unit in the sentence's own words, no more and no fewer, always
// outweighs it: a source that states both bounds ("The maximum overdraft is Rs. 1 Lakh.
// The minimum overdraft amount is Rs. 25,000.") is not contradicted by quoting either.
func contradicted(p polarities, sources []checkedSource) (id, unit string, ok bool) {
	if len(p.negated) < minShared {
		return "", "", false
	}
	opposed, agreed := 0, 0 // the most words shared with an opposing and an agreeing unit
	for _, s := range sources {
		if !mayRestate(p, s.words) {
			continue
		}
		for _, u := range s.units {
			n, restated := restates(p, u.polarity)
			if !restated && deniesOfAll(p, u.polarity) {
				n, restated = len(p.negated), true
			}
			switch {
			case !restated:
			case !opposes(p, u.polarity):
				if n == len(p.negated) && n == len(u.polarity.negated) {
					return "", "", false
				}
				agreed = max(agreed, n)
			case n > opposed:
				opposed, id, unit = n, s.id, u.text
			}
		}
	}
	return id, unit, opposed > 0 && agreed <= opposed
}

// negativeSubjects are the pronouns that deny a predicate of every subject.
var negativeSubjects = []string{"nothing", "nobody", "no one", "nichts", "niemand"}

// opensWithNegativeSubject reports whether s opens with a negativeSubjects word.
func opensWithNegativeSubject(s string) bool {
	s = strings.TrimLeft(s, " \t\n\"'“‘")
	return slices.ContainsFunc(negativeSubjects, func(w string) bool {
		return len(s) > len(w) && strings.EqualFold(s[:len(w)], w) && !isWordByte(s[len(w)])
	})
}

// deniesOfAll reports whether unit u denies of every subject what the sentence p says of
// one: its subject is a negative pronoun and p holds each of its words, each within the
// denial or in a condition of both ("Nothing is reset when you upgrade" against "Your
// stats are reset when you upgrade"). A word outside both ("Nothing is charged until the
// trial ends") bounds the denial, and p, which says something else of that word, is not a
// restatement of it.
func deniesOfAll(p, u polarities) bool {
	if !u.nothing || len(u.negated) < minShared {
		return false
	}
	for st := range u.negated {
		if _, ok := p.negated[st]; !ok || !u.reached[st] && !(u.condition[st] && p.condition[st]) {
			return false
		}
	}
	return true
}

// mayRestate reports whether a source with these content words (contentWords: stems of
// three letters or more) can hold a unit that p restates: it holds minShared of p's words.
// Checked against every eligible chunk, most chunks are passed over here.
func mayRestate(p polarities, words map[string]bool) bool {
	n := 0
	for st := range p.negated {
		if len(st) < 3 || words[st] {
			if n++; n >= minShared {
				return true
			}
		}
	}
	return false
}

// conditionOpeners open a clause that is a condition of the rest of the sentence: "if you
// don't upgrade within a week, your dashboards are locked" states that dashboards are
// locked; the denial in its condition is no statement to oppose "your dashboard unlocks
// once you upgrade".
var conditionOpeners = map[string]bool{
	"if": true, "when": true, "whenever": true, "unless": true, "once": true,
	"wenn": true, "falls": true, "sobald": true,
}

// conditionClauses are the clauses of words (scopedWords of s) that open with a condition
// word, when s has another clause besides: a sentence that is all condition ("When a
// payment fails we retry it") keeps its polarity.
func conditionClauses(s string, words []scoped) map[int]bool {
	out := map[int]bool{}
	seen := map[int]bool{}
	for _, w := range words {
		if !seen[w.clause] {
			seen[w.clause] = true
			if conditionOpeners[lowerWord(s[w.start:w.end])] {
				out[w.clause] = true
			}
		}
	}
	if len(seen) < 2 {
		return nil
	}
	return out
}

// conditionWords open a clause that says when, not what: "after you cancel", "if you
// downgrade", "wenn Sie kündigen".
var conditionWords = map[string]bool{
	"after": true, "when": true, "whenever": true, "once": true, "if": true, "before": true,
	"until": true, "upon": true, "nach": true, "wenn": true, "sobald": true, "falls": true, "bevor": true,
}

// conditionReach is how many words before a verb a condition word may stand ("after you
// have cancelled").
const conditionReach = 3

// inCondition reports whether the word at start in s stands in a condition clause: a
// condition word is among the conditionReach words before it, with no punctuation between.
// "Of" after a time noun is one: "within an hour of cancelling" says when (after
// cancelling), as "within 14 days of purchase" does.
func inCondition(s string, start int) bool {
	words := wordsBefore(s, start)
	for i := len(words) - 1; i >= 0 && i >= len(words)-conditionReach; i-- {
		w := lowerWord(words[i])
		if conditionWords[w] || w == "of" && i > 0 && timeNouns[lowerWord(words[i-1])] {
			return true
		}
	}
	return false
}
