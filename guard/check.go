// Package guard is the deterministic pass between the drafter and the compose box. It
// splits a draft into sentences, flags the ones that could bind the company (numbers and
// durations, commercial verbs, eligibility, future promises, legal positions), and keeps
// a flagged sentence only when a source it may cite states the same numbers and verbs.
// A failing sentence is struck and the gap marked, never the whole draft, so the agent
// writes one line instead of learning to switch the check off. It also refuses outbound
// text with unresolved template placeholders.
//
// It is pattern matching on purpose: an agent can learn what will be flagged, and the
// same input always gives the same answer.
package guard

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// Mode says which sources may back a flagged sentence.
type Mode int

const (
	// ModeDraft is the drafting path: a flagged sentence may only be backed by the
	// sources of a surviving claim attached to it, because a source the model did not
	// cite for that sentence is not evidence that it meant what the source says.
	ModeDraft Mode = iota
	// ModeAnySource has no claims (the check command): any source may back any sentence.
	ModeAnySource
)

// Claim is the drafter's statement that Sentence rests on the sources SourceIDs, with a
// verbatim Quote. Failure is set when the claim checker already rejected it (unknown
// chunk, quote not verbatim, judge said contradicts or not_enough) and says why.
type Claim struct {
	Sentence  string
	SourceIDs []string
	Quote     string
	Failure   string
}

// Input is one draft to check.
type Input struct {
	Reply   string
	Sources []policy.Evidence // the eligible chunks the reply may rely on; a macro's exact wording backs itself
	// Read, when set, is Sources already read (Vocabulary.Read), and Sources is ignored.
	Read   *Sources
	Claims []Claim
	Mode   Mode
}

// Sources are policy chunks read once for the guard (Vocabulary.Read), for callers that
// check text after text against the same chunks: the send hook and the agent's edits are
// checked against every chunk eligible for the account, thousands in a real policy
// corpus, and reading them would otherwise be most of each check's work.
type Sources struct {
	ctx checkContext
}

// Read reads sources for the guard, as Check would read them.
func (v *Vocabulary) Read(sources []policy.Evidence) *Sources {
	return &Sources{ctx: v.readSources(sources)}
}

// Len is how many chunks were read.
func (s *Sources) Len() int { return len(s.ctx.sources) }

// Result is the checked draft: every sentence with its verdict, the reply with struck
// sentences removed, and the note that marks the gap (shown beside the reply).
type Result struct {
	Sentences []SentenceResult `json:"sentences"`
	Reply     string           `json:"reply"`
	Struck    int              `json:"struck"`
	Note      string           `json:"note,omitempty"`
}

// SentenceResult is the verdict on one sentence. Reason is a short human sentence saying
// why it was kept or struck; it is what the rejection log records.
type SentenceResult struct {
	Text         string   `json:"text"`
	Flagged      bool     `json:"flagged"`
	Kinds        []Kind   `json:"kinds"`
	Kept         bool     `json:"kept"`
	Reason       string   `json:"reason"`
	SourceID     string   `json:"source_id"`
	Placeholders []string `json:"placeholders,omitempty"`
	// Otherwise is what eligible policy says instead of a struck commitment, when checked
	// against any source (ModeAnySource: the agent's edits and the send hook). Drafting
	// leaves it out: a draft's strikes show their claims' own quotes, and a draft row
	// keeps no policy text.
	Otherwise *Otherwise `json:"otherwise,omitempty"`
}

// checkedSource is a source with its numbers and verbs read once per Check.
type checkedSource struct {
	id    string
	macro string // normalised text of fixed wording (a macro, a section marked fixed), "" otherwise
	// forAgents: a section written for support agents, never quoted to a customer.
	forAgents bool
	analysis
	units    []srcUnit
	subjects map[string]string // every subject term of the chunk, its title and heading included
	words    map[string]bool   // content words of its title, heading and text
	// topic are the content words of its document title and section heading: what every
	// unit of it is about ("Storage quotas" over "Team includes 2 TB per workspace").
	topic map[string]bool
	// headingVerbs are the commercial verbs its heading affirms ("Who can request a
	// refund"): what each of its units is about (backs).
	headingVerbs []string
	// capitalised are the words it writes with a capital, lower-cased: a plan a sentence
	// names is one of the policy's when a source writes it so (withOwnPlans).
	capitalised map[string]bool
}

// checkContext is what every sentence of one Check is judged against.
type checkContext struct {
	sources []checkedSource
	names   map[string]string // plan, product and other proper names the sources use, and their class
	known   map[string]bool   // content words of every source
	// byTerm lists, for each quantity key and verb with its polarity (unitTerms), the
	// indexes in sources of the chunks that state it in some unit, in increasing order.
	byTerm map[string][]int
}

// unitTerms are the terms of a's quantities and verbs as byTerm keys them.
func unitTerms(a analysis) []string {
	terms := make([]string, 0, len(a.keys)+len(a.affirmed)+len(a.negated))
	for _, k := range a.keys {
		terms = append(terms, "k "+k)
	}
	for _, verb := range a.affirmed {
		terms = append(terms, "+ "+verb)
	}
	for _, verb := range a.negated {
		terms = append(terms, "- "+verb)
	}
	return terms
}

// mayBack is the sources that can back a sentence analysed as a, in their order: a source
// backs a sentence only if one of its units states every quantity and verb of it (view.
// backs), so only the sources that state each somewhere are worth trying. With thousands
// of sources that is a few instead of all. A verb said only as a condition need not be in
// a unit (view.backs), so it narrows nothing.
func (ctx checkContext) mayBack(a analysis) []checkedSource {
	a.affirmed, a.negated = without(a.affirmed, a.conditions), without(a.negated, a.conditions)
	terms := unitTerms(a)
	if len(terms) == 0 {
		return ctx.sources
	}
	idx := ctx.byTerm[terms[0]]
	for _, t := range terms[1:] {
		idx = intersectSorted(idx, ctx.byTerm[t])
	}
	out := make([]checkedSource, len(idx))
	for i, j := range idx {
		out[i] = ctx.sources[j]
	}
	return out
}

// intersectSorted is the values in both a and b, two increasing lists.
func intersectSorted(a, b []int) []int {
	var out []int
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}

// readSources reads every source once: its numbers, verbs, units and subjects. It is
// most of a Check's work, and only a flagged sentence needs it.
func (v *Vocabulary) readSources(sources []policy.Evidence) checkContext {
	texts := make([]string, len(sources))
	for i, s := range sources {
		texts[i] = s.Text
	}
	ctx := checkContext{names: v.properNames(texts, v.planNames(texts)), known: map[string]bool{}, byTerm: map[string][]int{}}
	var named []string
	for _, w := range slices.Sorted(maps.Keys(ctx.names)) {
		named = append(named, w+"="+ctx.names[w])
	}
	names := strings.Join(named, ",")
	for i, s := range sources {
		// A source reads the same against the same names every time: remembered (v.read),
		// since the same chunks back draft after draft.
		key := s.ChunkID + "\x00" + s.Source + "\x00" + strconv.FormatBool(s.Fixed) + "\x00" + s.Audience + "\x00" + names + "\x00" + s.Title + "\x00" + s.Text
		cs := v.read.Get(key, func() checkedSource { return v.readSource(s, ctx.names) })
		terms := unitTerms(analysis{affirmed: cs.headingVerbs}) // stated by the units under it (view.backs)
		for _, u := range cs.units {
			for w := range u.words {
				ctx.known[w] = true
			}
			terms = append(terms, unitTerms(u.analysis)...)
		}
		for _, t := range terms {
			if p := ctx.byTerm[t]; len(p) == 0 || p[len(p)-1] != i {
				ctx.byTerm[t] = append(p, i)
			}
		}
		ctx.sources = append(ctx.sources, cs)
	}
	return ctx
}

// readSource reads one source's numbers, verbs, units and subjects against the plan
// names of every source of the check.
func (v *Vocabulary) readSource(s policy.Evidence, names map[string]string) checkedSource {
	cs := checkedSource{id: s.ChunkID, forAgents: s.ForAgents() || forAgentsSection(s.ChunkID), analysis: v.analyse(s.Text),
		units: v.units(s.Text, names), subjects: v.subjectsOf(s.Title+"\n"+s.Text, names), words: contentWords(s.Title + "\n" + s.Text),
		topic: contentWords(s.Title + "\n" + heading(s.Text)), headingVerbs: v.analyse(heading(s.Text)).affirmed,
		capitalised: map[string]bool{}}
	for _, w := range wordTokens(s.Text) {
		if isCapitalised(w.text) {
			cs.capitalised[w.lower] = true
		}
	}
	if s.FixedWording() {
		cs.macro = normalise(s.Text)
	}
	return cs
}

// heading is the first line of a chunk when it is its section's heading: marked with #,
// or followed by more lines and not ending like a sentence.
func heading(chunk string) string {
	first, rest, more := strings.Cut(chunk, "\n")
	first = strings.TrimSpace(first)
	if strings.HasPrefix(first, "#") {
		return strings.TrimLeft(first, "# ")
	}
	if r, _ := utf8.DecodeLastRuneInString(first); !more || strings.TrimSpace(rest) == "" || text.IsTerminator(r) {
		return ""
	}
	return first
}

// Check runs the guard over in.Reply. Per sentence, in order: a sentence with an
// unresolved placeholder is struck; a sentence whose attached claim failed is struck with
// the claim's reason; a flagged sentence is kept only if one source it may cite carries
// every quantity (by Key, so "fourteen days" = "14 days" but "one month" ≠ "30 days") and
// every commercial verb in it; any other sentence is kept unless it restates a source it
// may cite with the opposite polarity ("We accept wire transfers" beside "We're not able
// to accept wire transfers") or about other subjects (contradiction). The sources are
// read when the first sentence needs them.
func (v *Vocabulary) Check(in Input) Result {
	claims := make([]Claim, 0, len(in.Claims))
	for _, c := range in.Claims {
		c.Sentence = normalise(c.Sentence)
		if c.Sentence != "" {
			claims = append(claims, c)
		}
	}
	var ctx *checkContext
	sources := func() checkContext {
		switch {
		case in.Read != nil:
			ctx = &in.Read.ctx
		case ctx == nil:
			read := v.readSources(in.Sources)
			ctx = &read
		}
		return *ctx
	}
	sentences := text.Split(in.Reply)
	results := make([]SentenceResult, len(sentences))
	for i, s := range sentences {
		results[i] = v.checkSentence(s.Text, in.Mode, sources, claims)
	}
	return compose(in.Reply, sentences, results)
}

// sentenceBody is a sentence without the "1." that opens a list item: that is not a number.
func sentenceBody(sentence string) string {
	return sentence[text.ListMarker(sentence):]
}

// analyseSentence is analyse for a sentence of a reply: a question promises nothing by its
// tense ("Will that work for you?"), so its future flags are dropped.
func (v *Vocabulary) analyseSentence(body string) analysis {
	a := v.analyse(body)
	if strings.HasSuffix(strings.TrimSpace(body), "?") {
		a.flags = slices.DeleteFunc(a.flags, func(f Flag) bool { return f.Kind == KindFuture })
	}
	return a
}

// checkSentence gives the verdict on one sentence of the reply. claims are normalised.
func (v *Vocabulary) checkSentence(sentence string, mode Mode, sources func() checkContext, claims []Claim) SentenceResult {
	body := sentenceBody(sentence)
	a := v.analyseSentence(body)
	r := SentenceResult{Text: sentence, Flagged: len(a.flags) > 0, Kinds: kindsOf(a.flags), Placeholders: Placeholders(sentence)}
	if len(r.Placeholders) > 0 {
		r.Reason = "unresolved placeholder " + strings.Join(r.Placeholders, ", ")
		return r
	}
	attached := attachedClaims(sentence, claims)
	for _, c := range attached {
		if c.Failure != "" {
			r.Reason = c.Failure
			return r
		}
	}
	if done := v.reportsDone(body, a); done != "" && !v.reportedBy(done, sources().sources) {
		r.Reason = fmt.Sprintf("reports %q as done: policy says what may be done for a customer, never that it was", done)
		return r
	}
	if !r.Flagged {
		return v.contradiction(r, body, a, mode, sources, attached)
	}
	ctx := sources()
	if id := verbatimMacro(sentence, ctx.sources); id != "" {
		r.Kept, r.SourceID, r.Reason = true, id, "verbatim approved macro "+id
		return r
	}
	var candidates, tried []checkedSource // which may back the sentence; which are worth trying, in the same order
	switch {
	case mode == ModeAnySource:
		candidates, tried = ctx.sources, ctx.mayBack(a)
	case len(attached) == 0:
		r.Reason = "not backed by a claim"
		return r
	default:
		candidates = citedSources(attached, ctx.sources)
		tried = candidates
	}
	c := v.newView(body, a, ctx)
	if id, unit, ok := quotesAgents(c.words, candidates); ok {
		r.SourceID, r.Reason = id, fmt.Sprintf("quotes guidance written for support agents in %s (%q): it is never quoted to a customer", id, unit)
		return r
	}
	fixed := "" // a macro that backs the sentence in other words than its own
	promise := v.promises(body)
	var hedge *Otherwise // the first source that backs the sentence but says only "may"
	for _, s := range tried {
		if !c.backs(s, ctx.known) {
			continue
		}
		if s.macro != "" {
			fixed = cmp.Or(fixed, s.id) // fixed wording backs a sentence only word for word (verbatimMacro)
			continue
		}
		// Backed by its words: it must not restate a candidate with the opposite polarity.
		if id, unit, ok := contradictedInPart(body, polarity(body), candidates); ok {
			r.SourceID, r.Reason = id, fmt.Sprintf("says the opposite of %s: %q", id, unit)
			if mode == ModeAnySource {
				r.Otherwise = &Otherwise{SourceID: id, Text: unit}
			}
			return r
		}
		// Nor promise what the source only allows; another source may state it firmly.
		if promise {
			if unit := v.hedgedBy(c, s); unit != "" {
				hedge = cmp.Or(hedge, &Otherwise{SourceID: s.id, Text: unit})
				continue
			}
		}
		r.Kept, r.SourceID, r.Reason = true, s.id, "backed by "+s.id
		return r
	}
	if fixed != "" {
		r.SourceID, r.Reason = fixed, "paraphrases the fixed wording of "+fixed+": quote it word for word, or leave it out"
		return r
	}
	if hedge != nil {
		r.SourceID, r.Reason = hedge.SourceID, fmt.Sprintf("promises what %s only allows: %q", hedge.SourceID, hedge.Text)
		if mode == ModeAnySource {
			r.Otherwise = hedge
		}
		return r
	}
	if id := v.backedClauseByClause(body, ctx, tried); id != "" {
		if cid, unit, ok := contradictedInPart(body, polarity(body), candidates); ok {
			r.SourceID, r.Reason = cid, fmt.Sprintf("says the opposite of %s: %q", cid, unit)
			return r
		}
		r.Kept, r.SourceID, r.Reason = true, id, "backed by "+id+", clause by clause"
		return r
	}
	r.Reason = missingReason(c, candidates, ctx.known)
	if mode == ModeAnySource {
		r.Otherwise = nearest(c, candidates)
	}
	return r
}

// carriesAnywhere reports whether s states every quantity and commercial verb of a
// (with its polarity) somewhere, whatever they are about: when it does and the sentence is
// still not backed, the subject or the wording is what differs.
func (s checkedSource) carriesAnywhere(a analysis) bool {
	for _, k := range a.keys {
		if !slices.Contains(s.keys, k) {
			return false
		}
	}
	for _, verb := range a.affirmed {
		if !slices.Contains(s.affirmed, verb) {
			return false
		}
	}
	for _, verb := range a.negated {
		if !slices.Contains(s.negated, verb) {
			return false
		}
	}
	return true
}

// missingReason says what no candidate source backs, naming the quantities, verbs and
// timings that appear in none of them, that they only appear in different sources, or
// that the sources stating them name nothing the sentence names (known: the words some
// source of the check uses).
func missingReason(c view, candidates []checkedSource, known map[string]bool) string {
	a := c.analysis
	var quantities, verbs []string
	for _, k := range a.keys {
		if !slices.ContainsFunc(candidates, func(s checkedSource) bool { return slices.Contains(s.keys, k) }) {
			quantities = append(quantities, k)
		}
	}
	opposite := false // a candidate states a verb with the other polarity
	for _, verb := range a.affirmed {
		if !slices.ContainsFunc(candidates, func(s checkedSource) bool { return slices.Contains(s.affirmed, verb) }) {
			verbs = append(verbs, "'"+verb+"'")
			opposite = opposite || slices.ContainsFunc(candidates, func(s checkedSource) bool { return slices.Contains(s.negated, verb) })
		}
	}
	for _, verb := range a.negated {
		if !slices.ContainsFunc(candidates, func(s checkedSource) bool { return slices.Contains(s.negated, verb) }) {
			verbs = append(verbs, "'not "+verb+"'")
			opposite = opposite || slices.ContainsFunc(candidates, func(s checkedSource) bool { return slices.Contains(s.affirmed, verb) })
		}
	}
	contrary := ""
	if opposite {
		contrary = " (it says the opposite)"
	}
	stated := slices.ContainsFunc(candidates, func(s checkedSource) bool { return s.carriesAnywhere(a) })
	switch {
	case stated && len(a.timings) > 0 && !slices.ContainsFunc(candidates, func(s checkedSource) bool {
		return s.carriesAnywhere(a) && containsAll(s.timings, a.timings)
	}):
		return "no eligible source says it happens " + strings.Join(a.timings, ", ")
	case stated && len(a.timings) > 0 && !slices.ContainsFunc(candidates, func(s checkedSource) bool {
		return s.carriesAnywhere(a) && containsAll(s.timings, a.timings) && c.sharesTopic(s, known)
	}):
		return "the eligible sources that say it happens " + strings.Join(a.timings, ", ") + " name nothing this sentence is about"
	case boundedOtherwise(c, candidates) != "":
		return boundedOtherwise(c, candidates)
	case narrower(c, candidates) != "":
		return narrower(c, candidates)
	case boundedInTime(c, candidates) != "":
		return boundedInTime(c, candidates)
	case reversedOrder(c, candidates) != "":
		return reversedOrder(c, candidates)
	case stated && len(c.denied) > 0 && slices.ContainsFunc(a.flags, func(f Flag) bool { return f.Kind == KindFuture }) &&
		!slices.ContainsFunc(candidates, func(s checkedSource) bool { return slices.ContainsFunc(s.units, c.namesDenied) }):
		return "no eligible source speaks of what it says will not happen: " + deniedNames(c.denied)
	case stated && len(c.subjects) > 0 && (len(a.keys) > 0 || len(a.verbs) > 0):
		return "no eligible source states it about " + subjectNames(c.subjects) + " (a source states it about something else)"
	case stated && len(a.keys)+len(a.verbs) == 0 || stated && len(kindNames(a.flags)) > 0:
		return "no eligible source makes this " + strings.Join(kindNames(a.flags), " / ") + " statement about the same thing"
	case stated && !slices.ContainsFunc(candidates, func(s checkedSource) bool { return s.carriesAnywhere(a) && c.sharesTopic(s, known) }):
		return "the eligible sources that state " + strings.Join(commitmentNames(a), ", ") + " name nothing this sentence is about"
	case len(quantities) > 0 && len(verbs) > 0:
		return "no eligible source states " + strings.Join(quantities, ", ") + " or backs " + strings.Join(verbs, ", ") + contrary
	case len(quantities) > 0:
		return "no eligible source states " + strings.Join(quantities, ", ")
	case len(verbs) > 0:
		return "no eligible source backs " + strings.Join(verbs, ", ") + contrary
	case len(candidates) == 0:
		return "no eligible source backs it"
	case len(a.keys) == 0 && len(a.verbs) == 0:
		return "no eligible source makes this " + strings.Join(kindNames(a.flags), " / ") + " statement"
	}
	return "no single eligible source states all of " + strings.Join(commitmentNames(a), ", ")
}

// deniedNames lists the words a sentence denies, quoted, in sorted order.
func deniedNames(denied map[string]string) string {
	var names []string
	for _, word := range denied {
		names = append(names, "'"+strings.ToLower(word)+"'")
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// commitmentNames names the quantities and commercial verbs of a for a reason: 30 day, 'refund'.
func commitmentNames(a analysis) []string {
	all := slices.Clone(a.keys)
	for _, verb := range a.verbs {
		all = append(all, "'"+verb+"'")
	}
	return all
}

// attachedClaims returns the claims made about sentence: those whose sentence equals it
// after normalisation, or contains it, or is contained in it, since drafters quote their
// own sentences loosely.
func attachedClaims(sentence string, claims []Claim) []Claim {
	if len(claims) == 0 {
		return nil
	}
	s := normalise(sentence[text.ListMarker(sentence):])
	if s == "" {
		return nil
	}
	var out []Claim
	for _, c := range claims {
		if strings.Contains(s, c.Sentence) || strings.Contains(c.Sentence, s) {
			out = append(out, c)
		}
	}
	return out
}

// citedSources returns the sources that the claims cite, in the order cited, each once.
// IDs that name no source are skipped: the claim checker reports those as failures.
func citedSources(claims []Claim, sources []checkedSource) []checkedSource {
	var out []checkedSource
	for _, c := range claims {
		for _, id := range c.SourceIDs {
			i := slices.IndexFunc(sources, func(s checkedSource) bool { return s.id == id })
			if i >= 0 && !slices.ContainsFunc(out, func(s checkedSource) bool { return s.id == id }) {
				out = append(out, sources[i])
			}
		}
	}
	return out
}

// normalise lower-cases s, collapses white space, straightens apostrophes and drops the
// final punctuation, so a claim and its sentence compare equal however they were copied.
func normalise(s string) string {
	return strings.TrimRightFunc(text.Fold(s), func(r rune) bool { return text.IsTerminator(r) || unicode.IsSpace(r) })
}

// kindsOf returns the kinds among flags in the order of kindOrder, never nil, so the JSON
// shows [] rather than null.
func kindsOf(flags []Flag) []Kind {
	kinds := []Kind{}
	for _, k := range kindOrder {
		if slices.ContainsFunc(flags, func(f Flag) bool { return f.Kind == k }) {
			kinds = append(kinds, k)
		}
	}
	return kinds
}

// compose joins the kept sentences of reply. Between two kept sentences it puts the
// original white space, or, where struck sentences lay between them, the gap around them
// with the most line breaks, so paragraphs and list items keep their shape. When anything
// was struck, Note says so; it is shown beside the reply, never written into it, so the
// text an agent edits and sends holds no note to the agent (send-check blocks one).
func compose(reply string, sentences []text.Sentence, results []SentenceResult) Result {
	res := Result{Sentences: results}
	var b strings.Builder
	prev := -1
	for i, s := range sentences {
		if !results[i].Kept {
			res.Struck++
			continue
		}
		if prev >= 0 {
			b.WriteString(widestGap(reply, sentences[prev:i+1]))
		}
		b.WriteString(s.Text)
		prev = i
	}
	res.Reply = b.String()
	if res.Struck > 0 {
		noun := "sentences"
		if res.Struck == 1 {
			noun = "sentence"
		}
		res.Note = fmt.Sprintf("[Not covered by current policy: %d %s removed — please answer this part yourself.]", res.Struck, noun)
	}
	return res
}

// widestGap returns the white space between consecutive sentences of run that holds the
// most line breaks, the first one on a tie.
func widestGap(reply string, run []text.Sentence) string {
	best := reply[run[0].End:run[1].Start]
	for k := 1; k+1 < len(run); k++ {
		if gap := reply[run[k].End:run[k+1].Start]; strings.Count(gap, "\n") > strings.Count(best, "\n") {
			best = gap
		}
	}
	return best
}

// kindNames lists the distinct kinds of the phrase flags (eligibility, future, legal).
func kindNames(flags []Flag) []string {
	var out []string
	for _, f := range flags {
		if f.Kind != KindNumber && f.Kind != KindTiming && f.Kind != KindCommercial && !slices.Contains(out, string(f.Kind)) {
			out = append(out, string(f.Kind))
		}
	}
	return out
}

// verbatimMacro returns the ID of a fixed-wording source (a macro, a section marked fixed)
// that contains sentence word for word.
func verbatimMacro(sentence string, sources []checkedSource) string {
	n := normalise(sentence)
	for _, s := range sources {
		if s.macro != "" && !s.forAgents && n != "" && strings.Contains(s.macro, n) {
			return s.id
		}
	}
	return ""
}
