package guard

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// srcUnit is one sentence, list item or table row of a source: the smallest text that can
// back a commitment, so that a number and what it is about are read together.
type srcUnit struct {
	analysis
	subjects map[string]string // canonical term → class
	words    map[string]bool
	text     string
	polarity polarities // content stem → in a negation's scope (see polarity)
	// universal: the unit speaks of every one of what it names (speaksOfAll); limits are
	// the words that limit it to one of a kind ("first", "only": limitsOf).
	universal bool
	limits    []string
	// always: it says a thing holds at any time (speaksOfAlways); occasions are the words
	// that bound when or how often (occasionsOf).
	always    bool
	occasions []string
	// sequence: the events it places something before or after (sequence).
	sequence map[string]bool
	// items are the names of the items of a list sentence (listItems), each also a unit of
	// its own: the whole backs only a sentence naming two of them or more (namesItems),
	// and an item none naming another item's names (otherItems, namesNone).
	items      []string
	otherItems []string
}

// view is a flagged sentence of the reply as the backing rule reads it.
type view struct {
	analysis
	subjects map[string]string
	words    map[string]bool
	// topic are its content words other than those of its quantities, timings and
	// commercial verbs: what it is about (sharesTopic). Read once, tried against every source.
	topic []string
	// universal: it speaks of all plans, customers or users (speaksOfAll), so a unit
	// that says it of fewer does not back it (widens); limits as a unit's.
	universal bool
	limits    []string
	// allPlans: it speaks of every plan (speaksOfAllPlans), so a source that names the
	// plans what it speaks of holds for does not back it (plansNamedFor).
	allPlans bool
	// always: it says a thing holds at any time or as often as asked (speaksOfAlways), so
	// a unit that bounds when or how often does not back it (timeBound); occasions as a
	// unit's.
	always    bool
	occasions []string
	// sequence as a unit's: a unit that reverses it does not back the sentence (reversedBy).
	sequence map[string]bool
	// denied are the words each negation denies first, stem → word as written ("lose" of
	// "you won't lose any data"): a promise of what will not happen is restated only by a
	// unit that names it.
	denied map[string]string
}

// lowerAfterComma ends the clause a plan name is read in: "If you rehome Max, his plan
// benefits …" names no plan Max, while "Solo, Team and Business plans" names three.
var lowerAfterComma = regexp.MustCompile(`[,;:]\s+\p{Ll}`)

// withOwnPlans adds to the sources' names the plan names body writes that no source
// writes with a capital ("your Enterprise plan" where the policy names Business only): a
// sentence about a plan the policy never names is about another plan than every unit's.
// A word a source capitalises ("Basic costs €8") is left as the sources read it.
func (v *Vocabulary) withOwnPlans(body string, ctx checkContext) map[string]string {
	names := ctx.names
	if !mentionsPlanWord(body) {
		return names
	}
	own := v.planNames(lowerAfterComma.Split(body, -1))
	first := ""
	if toks := wordTokens(body); len(toks) > 0 {
		first = toks[0].lower // capitalised as the sentence's first word, not as a name
	}
	var out map[string]string
	for w, class := range own {
		if _, named := names[w]; named || w == first ||
			slices.ContainsFunc(ctx.sources, func(s checkedSource) bool { return s.capitalised[w] }) {
			continue
		}
		if out == nil {
			out = maps.Clone(names)
		}
		out[w] = class
	}
	if out == nil {
		return names
	}
	return out
}

// newView reads the sentence body whose analysis is a for the backing rule.
func (v *Vocabulary) newView(body string, a analysis, ctx checkContext) view {
	c := view{analysis: a, subjects: v.subjectsOf(body, v.withOwnPlans(body, ctx)), words: contentWords(body), universal: speaksOfAll(body),
		allPlans: speaksOfAllPlans(body), limits: limitsOf(body), always: speaksOfAlways(body), occasions: occasionsOf(body), sequence: sequence(body)}
	commitment := map[string]bool{}
	for _, f := range a.flags {
		if f.Kind == KindNumber || f.Kind == KindTiming || f.Kind == KindCommercial {
			maps.Copy(commitment, contentWords(f.Match))
		}
	}
	for w := range c.words {
		if !commitment[w] {
			c.topic = append(c.topic, w)
		}
	}
	if slices.ContainsFunc(a.flags, func(f Flag) bool { return f.Kind == KindFuture }) {
		c.denied = deniedWords(body, c.words)
	}
	return c
}

// deniedWords returns the first of words each negation of body denies, stem → word as
// written. Only a promise needs them (restatedBy), and reading negation is costly.
func deniedWords(body string, words map[string]bool) map[string]string {
	var denied map[string]string
	clause := -1
	scoped := scopedWords(body)
	conditions := conditionClauses(body, scoped) // "if you haven't picked a plan by then" says when
	for _, w := range scoped {
		if !w.negated || !w.reached || w.clause == clause || conditions[w.clause] {
			continue
		}
		for _, st := range text.ContentStems(body[w.start:w.end]) {
			if words[st] {
				if denied == nil {
					denied = map[string]string{}
				}
				denied[st], clause = body[w.start:w.end], w.clause
			}
		}
	}
	return denied
}

// pointsBack reports whether a sentence opens by pointing back at the one before it
// ("They reset monthly", "After that, the plan stays active"): what it says is said of
// that one's subject, so the two read together are a unit too (units).
func pointsBack(sentence string) bool {
	lower := strings.ToLower(strings.TrimSpace(sentence))
	for _, p := range backPointers {
		if rest, ok := strings.CutPrefix(lower, p); ok && (rest == "" || !isWordByte(rest[0])) {
			return true
		}
	}
	return false
}

// namesOtherThan reports whether subjects name a term of a class that before names with
// another term: "It does not apply to monthly billing" after "The discount applies to
// annual billing" speaks of another period, not more of the same one.
func namesOtherThan(subjects, before map[string]string) bool {
	for term, class := range subjects {
		if _, same := before[term]; same {
			continue
		}
		for other, c := range before {
			if c == class && other != term {
				return true
			}
		}
	}
	return false
}

// backPointers open a sentence that speaks of what the one before it named.
var backPointers = []string{"they", "it", "these", "this", "those", "after that", "beyond that", "after this",
	"sie", "es", "diese", "dies", "danach"}

// units splits a source into its units. A heading ("Combining discounts", "Proration
// credits") is no unit: it names the section's subject (checkedSource.topic) and states
// nothing, so its words neither back a sentence nor say what the sentence denies. A
// sentence that points back (pointsBack) is read with the one before it as well.
func (v *Vocabulary) units(chunk string, names map[string]string) []srcUnit {
	var out []srcUnit
	lines := strings.Split(chunk, "\n")
	if heading(chunk) != "" {
		lines = lines[1:]
	}
	for _, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		var prev srcUnit
		for i, s := range text.Split(line) {
			whole := v.unit(s.Text, s.Text, names)
			if i > 0 && pointsBack(s.Text) && !namesOtherThan(whole.subjects, prev.subjects) {
				joined := prev.text + " " + s.Text
				out = append(out, v.unit(joined, joined, names))
			}
			prev = whole
			items := v.listItems(s.Text, names)
			all := listNames(items)
			whole.items = all
			out = append(out, whole)
			for _, item := range items {
				u := v.unit(s.Text, item.statement, names)
				u.otherItems = without(all, item.names)
				out = append(out, u)
			}
			for _, p := range predicates(s.Text) {
				out = append(out, v.unit(s.Text, p, names))
			}
		}
	}
	return out
}

// unit reads statement, a sentence of a source or one of its predicates, as a srcUnit
// whose text (what reasons quote) is the sentence.
func (v *Vocabulary) unit(sentence, statement string, names map[string]string) srcUnit {
	return srcUnit{analysis: v.analyse(statement), subjects: v.subjectsOf(statement, names), words: contentWords(statement),
		text: sentence, polarity: statementPolarity(statement), universal: speaksOfAll(statement), limits: limitsOf(statement),
		always: speaksOfAlways(statement), occasions: occasionsOf(statement), sequence: sequence(statement)}
}

// auxiliaries open a predicate: after "and" or "or" one starts a second predicate of the
// same subject.
var auxiliaries = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "be": true, "can": true, "cannot": true, "will": true,
	"may": true, "must": true, "should": true, "do": true, "does": true, "has": true, "have": true, "never": true,
	"ist": true, "sind": true, "kann": true, "können": true, "wird": true, "werden": true,
}

// predicates are the statements of a sentence whose subject has two predicates or more,
// each with the subject: "Proration credits are applied to the next invoice and are never
// paid out as cash" states "Proration credits are applied to the next invoice" and
// "Proration credits are never paid out as cash", each of which a sentence may restate
// whole. None for a sentence with one predicate.
func predicates(s string) []string {
	words := strings.Fields(s)
	first := slices.IndexFunc(words, func(w string) bool { return isAuxiliary(w) })
	if first < 1 {
		return nil
	}
	var cuts []int // the index of each "and"/"or" that opens another predicate
	for i := first + 1; i+1 < len(words); i++ {
		if w := lowerWord(words[i]); (w == "and" || w == "or") && isAuxiliary(words[i+1]) {
			cuts = append(cuts, i)
		}
	}
	if len(cuts) == 0 {
		return nil
	}
	subject := words[:first]
	out := []string{strings.Join(words[:cuts[0]], " ")}
	for k, c := range cuts {
		end := len(words)
		if k+1 < len(cuts) {
			end = cuts[k+1]
		}
		out = append(out, strings.Join(slices.Concat(subject, words[c+1:end]), " "))
	}
	return out
}

func isAuxiliary(w string) bool {
	w = lowerWord(w)
	return auxiliaries[w] || isClauseNegator(w) && strings.HasSuffix(w, "n't")
}

// Thresholds of the paraphrase rule for promises and eligibility, as shares of the
// sentence's content words found in one source srcUnit.
const (
	// sameStatement: a promise ("we will retry your card 4 times") restates a policy
	// when at least half its content words are in one srcUnit of it.
	sameStatement = 0.5
	// minShared: an eligibility sentence shares at least two content words with the srcUnit,
	// so "you are eligible for a refund" is not backed by any sentence that says "refund".
	minShared = 2
)

// backs reports whether source s backs the sentence c: every quantity and commercial verb
// (with its polarity) of c is stated by a srcUnit of s about the same subject, every
// eligibility phrase is restated by a srcUnit of s about the same subject (the phrase word
// for word is not enough: "includes" is in many sources, about many things), and every
// promise is in s word for word or restated the same way. When it happens in words
// ("immediately", "at the end of the period") s must say too, anywhere in it: a downgrade
// that takes effect at the end of the period does not take effect immediately. Legal
// positions need the source's own words. known holds the content words of every source
// of the check.
func (c view) backs(s checkedSource, known map[string]bool) bool {
	agree := func(u srcUnit) bool {
		return subjectsAgree(c.subjects, c.regionsPriced(u), s.subjects) && !c.widenedBy(u) && !c.reversedBy(u) &&
			(u.items == nil || namesItems(c.subjects, u.items)) && namesNone(c.subjects, u.otherItems)
	}
	if c.allPlans && plansNamedFor(c, s) != nil {
		return false
	}
	stated := func(has func(u srcUnit) bool) bool {
		return slices.ContainsFunc(s.units, func(u srcUnit) bool { return has(u) && agree(u) })
	}
	// Every quantity and verb in one unit: a window stated for one request and a refund
	// stated in the next sentence do not make "you get a refund within 60 days".
	// A verb said only as a condition ("after you cancel, backups are kept for 30 days")
	// needs the source to name it, not the unit that states the rest; that unit must then
	// name something else the sentence names, since the condition no longer ties them ("if
	// you don't upgrade within a month, dashboards are locked" is not backed by "a single
	// month over your limit requires no action").
	// A verb the section's heading names ("Who can request a refund") is stated by a unit
	// of it that restates the rest of the sentence (restatesTopic) and states no verb the
	// sentence lacks: "the request comes from the account owner or a billing admin", but
	// not "an upgrade takes effect immediately" under "Upgrades and downgrades". The heading alone states
	// nothing (units).
	affirmed, negated := without(c.affirmed, c.conditions), without(c.negated, c.conditions)
	headed := without(affirmed, s.headingVerbs)
	if len(c.keys)+len(affirmed)+len(negated) > 0 && !stated(func(u srcUnit) bool {
		return u.statesQuantities(c.analysis) && containsAll(u.negated, negated) &&
			(containsAll(u.affirmed, affirmed) || containsAll(u.affirmed, headed) && containsAll(c.verbs, u.verbs) && c.restatesTopic(u)) &&
			(len(c.conditions) == 0 || slices.ContainsFunc(c.topic, func(w string) bool { return u.words[w] }))
	}) || !c.sharesTopic(s, known) || !c.timedBy(s) || !containsAll(s.verbs, c.conditions) {
		return false
	}
	for _, f := range c.flags {
		// A phrase the source states word for word backs itself, unless it names nothing: "we'll"
		// in a source does not back every promise that opens with it.
		if f.Kind == KindNumber || f.Kind == KindTiming || f.Kind == KindCommercial ||
			(f.Kind != KindEligibility && len(contentWords(f.Match)) > 0 && s.hasPhrase(f)) {
			continue
		}
		if f.Kind == KindLegal {
			return false
		}
		marker := contentWords(f.Match)
		if !stated(func(u srcUnit) bool { return c.restatedBy(u, f.Kind, marker, known, s, agree) }) {
			return false
		}
	}
	return true
}

// timedBy reports whether source s says when c says it happens: every timing of c in a
// unit of s that states a commercial verb of c or none, so "Upgrades take effect
// immediately" does not lend "immediately" to "Downgrades take effect immediately" from the
// next sentence, while "This takes effect immediately" lends it to any. A sentence with no
// verb takes its timing from anywhere in s.
func (c view) timedBy(s checkedSource) bool {
	if len(c.verbs) == 0 {
		return containsAll(s.timings, c.timings)
	}
	for _, t := range c.timings {
		if !slices.ContainsFunc(s.units, func(u srcUnit) bool {
			return slices.Contains(u.timings, t) && (len(u.verbs) == 0 || slices.ContainsFunc(u.verbs, func(v string) bool { return slices.Contains(c.verbs, v) }))
		}) {
			return false
		}
	}
	return true
}

// restatesTopic reports whether unit u holds most of the sentence's topic words
// (restatesShare, and minShared at least).
func (c view) restatesTopic(u srcUnit) bool {
	n := 0
	for _, w := range c.topic {
		if u.words[w] {
			n++
		}
	}
	return n >= minShared && float64(n) >= restatesShare*float64(len(c.topic))
}

// sharesTopic reports whether source s (its title, heading and text) names something
// sentence c names: a word of c that some source of the check uses (known), other than
// the words of its quantities ("days"), timings and commercial verbs ("refund").
// "Enterprise invoices are payable within 30 days" is not backed by "Unused hardware can
// be returned within 30 days of delivery", which states the same number about something
// else, nor "Storage packs stop immediately" by an upgrade that takes effect immediately.
// Words no source uses ("Good news: …") name nothing to check; a sentence with no
// quantity, commercial verb or timing is bound by its phrases alone. A subject term both
// name is shared in any language: "annual plans" and "Jahrespläne" are one subject.
func (c view) sharesTopic(s checkedSource, known map[string]bool) bool {
	if len(c.keys)+len(c.verbs)+len(c.timings) == 0 {
		return true
	}
	for term := range c.subjects {
		if _, ok := s.subjects[term]; ok {
			return true
		}
	}
	named := false
	for _, w := range c.topic {
		if !known[w] {
			continue
		}
		if s.words[w] {
			return true
		}
		named = true
	}
	return !named
}

// without returns list less the entries of drop.
func without(list, drop []string) []string {
	if len(drop) == 0 {
		return list
	}
	var out []string
	for _, s := range list {
		if !slices.Contains(drop, s) {
			out = append(out, s)
		}
	}
	return out
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// restatedBy reports whether srcUnit u of s says what c says in other words (kind: of the
// phrase that flagged c; marker: that phrase's words). A promise needs half of c's content words in u. An eligibility sentence
// needs two words shared with u, and every other word of c that any source uses (known)
// in u or in another unit of s about the same subject (agree): "the Pro plan includes
// phone support" is not backed by "the Pro plan includes priority email support" in a
// chunk that names phone support only for Business, while "the Team plan includes 2 TB of
// storage" is backed by "Team includes 2 TB per workspace" in a chunk about Team's storage.
// The flag's own words, the plan word ("plan", "tier") and the words of the source's title
// and heading, which every unit of it is about, need no backing.
func (c view) restatedBy(u srcUnit, kind Kind, marker, known map[string]bool, s checkedSource, agree func(srcUnit) bool) bool {
	shared := sharedWords(c.words, u.words)
	if kind != KindEligibility {
		return len(c.words) > 0 && float64(shared)/float64(len(c.words)) >= sameStatement && c.namesDenied(u)
	}
	priced := slices.ContainsFunc(c.keys, func(k string) bool { return strings.Contains(k, " money:") })
	// A subject term the section names elsewhere is its subject too, as subjectsAgree
	// reads it: "Solo comes with 500 GB of storage" in a section about storage quotas.
	// (Not a name: the section may name it of another product.)
	var held map[string]bool
	for term, class := range c.subjects {
		if _, ok := s.subjects[term]; ok && class != classPlanName && class != classProperName {
			if held == nil {
				held = map[string]bool{}
			}
			maps.Copy(held, contentWords(term))
		}
	}
	for w := range c.words {
		if !u.words[w] && known[w] && !marker[w] && !held[w] && !isPlanWord(w) && !s.topic[w] && !(priced && priceWords[w]) &&
			!slices.ContainsFunc(s.units, func(o srcUnit) bool { return o.words[w] && agree(o) }) {
			return false
		}
	}
	// Eligibility phrases say one thing in many words: a unit whose "includes" the sentence
	// writes as "comes with" shares that word too.
	if sharedWords(marker, u.words) == 0 && slices.ContainsFunc(u.flags, func(f Flag) bool { return f.Kind == KindEligibility }) {
		shared++
	}
	return shared >= minShared
}

// priceWords say that an amount is a price: in a sentence whose amounts the unit states
// ("Starter costs £12 a month" beside "Starter at £12 per month") they need no backing of
// their own.
var priceWords = map[string]bool{"cost": true, "pric": true, "pay": true, "paid": true, "kost": true, "kostet": true}

// namesDenied reports whether unit u names every word the sentence denies.
func (c view) namesDenied(u srcUnit) bool {
	for st := range c.denied {
		if !u.words[st] {
			return false
		}
	}
	return true
}

// sharedWords counts the words of a that b holds too.
func sharedWords(a, b map[string]bool) int {
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return n
}

// hasPhrase reports whether s states the phrase flag f word for word.
func (s checkedSource) hasPhrase(f Flag) bool {
	return slices.ContainsFunc(s.flags, func(g Flag) bool {
		return g.Kind == f.Kind && strings.EqualFold(normalise(g.Match), normalise(f.Match))
	})
}

// subjectsAgree reports whether a srcUnit of a chunk is about what the sentence is about.
// Each subject term of the sentence must be in the srcUnit, or, when the srcUnit names nothing
// else of that class, anywhere in the chunk (its heading, or the sentence before that
// says which seats "they" are). A srcUnit about the Business plan never backs a sentence
// about the Pro plan; "Credits expire after 6 months" backs "seat credits expire after 6
// months" in a chunk about removed seats.
func subjectsAgree(sentence, unitSubjects, chunkSubjects map[string]string) bool {
	for term, class := range sentence {
		if _, ok := unitSubjects[term]; ok {
			continue
		}
		for other, otherClass := range unitSubjects {
			if _, shared := sentence[other]; otherClass == class && !shared {
				return false
			}
		}
		// A proper name only tells units apart: "Paddle charges a prorated amount" is
		// "you are charged a prorated amount" in a chunk that never names who charges. A
		// chunk that names another does not back it: "in Berlin" is not a chunk's "à Paris".
		if _, ok := chunkSubjects[term]; !ok && (class != classProperName || namesOther(chunkSubjects, sentence, class)) {
			return false
		}
	}
	return true
}

// currencyRegions are the regions whose own currency tells a price of theirs apart.
var currencyRegions = map[string]string{"GBP": "uk", "USD": "us", "AUD": "au", "NZD": "nz", "EUR": "eu", "CAD": "ca", "MXN": "mx"}

// regionsPriced is the subjects of unit u, with the region the sentence names whose
// currency u states the sentence's amount in, when u names no region: "The late fee for
// UK customers is £12" restates "a late fee of €15 (£12)".
func (c view) regionsPriced(u srcUnit) map[string]string {
	for _, class := range u.subjects {
		if class == classRegion {
			return u.subjects
		}
	}
	out := u.subjects
	for _, k := range c.keys {
		_, currency, ok := strings.Cut(k, " money:")
		region := currencyRegions[currency]
		if class, named := c.subjects[region]; !ok || !named || class != classRegion || !slices.Contains(u.keys, k) {
			continue
		}
		out = maps.Clone(out)
		out[region] = classRegion
	}
	return out
}

// namesOther reports whether subjects name a term of class that sentence does not.
func namesOther(subjects, sentence map[string]string, class string) bool {
	for term, c := range subjects {
		if _, shared := sentence[term]; c == class && !shared {
			return true
		}
	}
	return false
}

// subjectNames lists the subject terms of m, sorted, for reasons.
func subjectNames(m map[string]string) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}
