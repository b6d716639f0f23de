package local

import (
	"context"
	"maps"
	"math"
	"sort"
	"strings"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// Extractive is the local drafter: it answers only with sentences copied verbatim from the
// evidence that best matches the customer's question, and abstains when nothing matches
// well enough. It cannot invent a number because it never writes one; every factual
// sentence is its own claim, quoting itself. The zero value is ready to use.
type Extractive struct {
	// MinRelevance is the relevance below which it abstains; 0 means DefaultMinRelevance.
	MinRelevance float64
	// Answerability decides, from the signals of a question it would answer, whether the
	// knowledge base answers it; nil means DefaultAnswerability.
	Answerability *Answerability
}

// DefaultMinRelevance is the abstention threshold of the extractive drafter. Relevance
// weighs question words by where they stand (subject and asking sentences count fully,
// backstory a third) and by how rare they are in the evidence given, so a section that
// shares only the common or chatty words of a question stays below it. It was chosen on
// the shipped and practice sets' abstention recall and false abstentions.
const DefaultMinRelevance = 0.30

// Relevance weights: lexical overlap with the question dominates, because retrieval
// always returns its top k even when none of them is about the question; the retrieval
// score breaks ties and helps paraphrases.
// The heading and title weights were chosen on a held-out ticket set (evals/dataset with
// another seed), never on the shipped eval set.
const (
	lexicalWeight   = 0.8
	retrievalWeight = 0.2
	headingWeight   = 0.5
	titleWeight     = 0.75
	maxQuoted       = 7 // sentences per reply: room for the figure or condition that often follows the sentence naming the subject; few enough to review
	maxChunksUsed   = 2
)

// Fixed lines of the extractive reply. None holds a number, a commercial verb or a
// promise, so the guard never has a reason to strike them.
const (
	greetingEN = "Hi,"
	closingEN  = "If anything is unclear, just reply to this email."
	greetingDE = "Hallo,"
	closingDE  = "Wenn etwas unklar ist, antworten Sie einfach auf diese E-Mail."
)

// Write implements llm.Writer. Same request, same draft: ties are broken by evidence order
// and sentence position, never by map order.
func (x Extractive) Write(_ context.Context, req llm.Request) (*llm.Answer, error) {
	r := x.read(req)
	if ans := r.abstainFirst(req); ans != nil {
		return ans, nil
	}
	asks, german, scope, used, threshold, signals := r.asks, r.german, r.scope, r.used, r.threshold, r.signals
	if len(used) > 0 {
		used = append(used, openQuestionChunks(asks, used, req.Evidence, req.Terms, threshold, scope, german)...)
	}
	picks := pickSentences(append(used, siblingSections(used, req.Evidence, scope)...), scope, asks, evidenceIDF(req.Evidence))
	if len(picks) == 0 { // nothing relevant enough: what was asked is the whole question
		return withSignals(describe(abstention(german, "", offTopic(append(asks, withoutReferences(req.Subject)), "")), req), signals), nil
	}
	cited := map[string]bool{}
	for _, p := range picks {
		cited[p.chunkID] = true
	}

	var quoted []string
	for _, p := range picks {
		quoted = append(quoted, text.EndSentence(p.text))
	}
	german = german && text.LooksGerman(strings.Join(quoted, " "))
	greeting, closing := greetingEN, closingEN
	if german {
		greeting, closing = greetingDE, closingDE
	}
	claims := make([]llm.Claim, 0, len(picks))
	for i, p := range picks {
		claims = append(claims, llm.Claim{Sentence: quoted[i], ChunkIDs: []string{p.chunkID}, Quote: p.text})
	}
	reply := greeting + "\n\n" + paragraphs(picks, quoted) + "\n\n" + closing
	ans := &llm.Answer{Reply: reply, Claims: claims}
	return withSignals(describe(judgeAnswer(ans, german, asks, citedSections(req.Evidence, cited), req.Evidence), req), signals), nil
}

// paragraphs joins the quoted sentences into paragraphs, in the order picked
// (pickSentences keeps a section's sentences together, in reading order): one per quoted
// section or subsection title, and a long one broken where the section's own paragraph or list item ends, so
// a reply that answers from two sections reads as two answers and no paragraph outgrows
// a style rubric's limit (max_paragraph_sentences).
func paragraphs(picks []pick, quoted []string) string {
	var b strings.Builder
	run := 0
	for i, q := range quoted {
		switch {
		case i == 0:
		case picks[i-1].title: // a subsection's title runs into the line it names
			b.WriteString(" ")
		case picks[i].chunkID != picks[i-1].chunkID, picks[i].title,
			run >= paragraphBreakAfter && picks[i].line != picks[i-1].line,
			run >= paragraphMost:
			b.WriteString("\n\n")
			run = 0
		default:
			b.WriteString(" ")
		}
		b.WriteString(q)
		run++
	}
	return b.String()
}

// paragraphBreakAfter is how many sentences a paragraph of the reply holds before the
// next paragraph of its section starts a new one, and paragraphMost how many it holds
// when its section's own paragraph goes on (the default rubric's max_paragraph_sentences).
const (
	paragraphBreakAfter = 3
	paragraphMost       = 5
)

// reading is what the drafter reads of a request before it quotes anything: the asking
// clauses, the words no evidence holds, the sections ranked and chosen, and the
// answerability signals.
type reading struct {
	asks      []string
	german    bool
	missing   []string
	share     float64 // of the words of substance asked about, the share no evidence holds
	scope     accountScope
	used      []rankedChunk
	threshold float64
	signals   map[string]float64
	model     Answerability
}

func (x Extractive) read(req llm.Request) reading {
	bodies := req.CustomerBodies()
	r := reading{asks: customerAsks(bodies), german: strings.HasPrefix(strings.ToLower(req.Account.Locale), "de"),
		threshold: x.MinRelevance, model: DefaultAnswerability()}
	if r.threshold == 0 {
		r.threshold = DefaultMinRelevance
	}
	if x.Answerability != nil {
		r.model = *x.Answerability
	}
	r.missing, r.share = missingConcepts(req.Subject, r.asks, req.Evidence)
	q := analyseQuestion(req.Subject, bodies, req.Evidence, req.Terms, r.german)
	r.scope = newAccountScope(req.Account, req.Evidence)
	q.topics = withStatedTopics(r.scope.topics(strings.Join(append([]string{req.Subject}, r.asks...), "\n")),
		r.scope.topics(strings.Join(bodies, "\n")))
	ranked := rankEvidence(q, req.Evidence, r.scope)
	r.used = chooseChunks(ranked, r.threshold)
	r.signals = readSignals(req.Question(), r.asks, req.Terms, req.Evidence, ranked, r.used, r.share)
	return r
}

// abstainFirst is the abstention decided before anything is quoted, or nil: most words of
// substance asked about are in no evidence, or the answerability model finds the sections
// the drafter would quote do not answer the question.
func (r reading) abstainFirst(req llm.Request) *llm.Answer {
	if r.share >= unanswerableShare {
		return withSignals(describe(abstention(r.german, missingNote(r.missing), r.missing), req), r.signals)
	}
	if len(r.used) > 0 && r.model.Probability(r.signals) < r.model.Threshold {
		asked := unknownWords(r.asks, req.Terms, req.Evidence, r.used)
		return withSignals(describe(abstention(r.german, gateNote(asked, r.used[0].ev), asked), req), r.signals)
	}
	return nil
}

func abstainReply(german bool) string {
	if german {
		return greetingDE + "\n\n" + llm.AbstainDE
	}
	return greetingEN + "\n\n" + llm.AbstainEN
}

// question is the customer's question as the drafter weighs it: every content stem in
// first-seen order with a weight. A stem weighs more when it sits in the subject or in a
// sentence that asks something (the intent), and less when most of the evidence it was
// given shares it (an IDF over that evidence set), so "refund" in a refund-heavy evidence
// set says little while "transfer" says a lot.
type question struct {
	stems []string
	// weight and orderWeight are each stem's weight, its rarity read over the evidence
	// and over the whole knowledge base (analyseQuestion).
	weight      map[string]float64
	orderWeight map[string]float64
	focus       map[string]bool // stems of the subject and of the asking sentences
	// written is each stem's word as the customer wrote it, for reading it as a part of a
	// section's compound (withCompoundParts); empty unless the question is German.
	written map[string]string
	kinds   quantityKind      // the kinds of number it asks for; 0 when it asks for none
	topics  map[string]string // subject terms it names (billing period, item, segment, tax)
}

// focusShare is the weight of a stem that appears only in the backstory of a message,
// not in its subject or in a sentence that asks something.
const focusShare = 0.35

// chatterShare is the weight of a word of support chatter ("how long", "right away",
// "still"): it shapes the question but names no topic, so a heading such as "Long
// suspensions" must not win a question about how long something takes.
const chatterShare = 0.2

// offTopicShare scales the relevance of a section whose topic (document title and
// heading) shares no word of substance with the question: it may still answer, but it
// must match much more of the question to be quoted than a section named after it.
const offTopicShare = 0.6

// numberlessShare scales the relevance of a section that states no number of the kind the
// question asks for ("how long until we are locked out?" over a section without a
// duration): it can still win, but a section that gives the number is preferred.
const numberlessShare = 0.65

// knowledgeBaseIDF is the rarity of each word of text over the whole knowledge base, by
// stem: log(chunks/df) on a 0–1 scale, 1 for a word one chunk holds (or none) and at
// least minKBIDF for a word most chunks hold. Empty without term statistics.
func knowledgeBaseIDF(s string, terms *llm.Terms) map[string]float64 {
	out := map[string]float64{}
	if terms == nil || terms.Chunks < 2 {
		return out
	}
	all := math.Log(float64(terms.Chunks))
	for _, w := range stemmedWords(s) {
		df, ok := terms.Known(w.text)
		if !ok {
			continue
		}
		idf := 1.0
		if df > 1 {
			idf = max(math.Log(float64(terms.Chunks)/float64(df))/all, minKBIDF)
		}
		if old, seen := out[w.stem]; !seen || idf < old {
			out[w.stem] = idf // two words with one stem: the commoner decides
		}
	}
	return out
}

// minKBIDF keeps a word every section holds ("plan" in a billing knowledge base) from
// weighing nothing: it still tells two sections apart when nothing rarer does.
const minKBIDF = 0.1

// analyseQuestion reads the question's words of substance and weighs each by where it
// is asked (subject and asking sentences over backstory), whether it is chatter, and its
// rarity, read two ways. weight reads rarity over the evidence: the relevance gate and the
// answerability model were fitted on it. orderWeight reads it over the whole knowledge base
// where terms (the store's term statistics) know the word: retrieval chose the evidence
// for sharing the question's topic, so over the evidence alone that topic looks common and
// an incidental word decides which section is quoted. german (the account's locale is
// German) reads the words as parts of compounds too, as does a question that looks German.
func analyseQuestion(subject string, bodies []string, evidence []policy.Evidence, terms *llm.Terms, german bool) question {
	q := question{weight: map[string]float64{}, orderWeight: map[string]float64{}, focus: map[string]bool{}}
	asking := append([]string{withoutReferences(subject)}, customerAsks(bodies)...)
	for _, st := range text.ContentStems(strings.Join(asking, "\n")) {
		q.focus[st] = true
	}
	q.kinds = askedKinds(strings.Join(asking, "\n"))
	chunkStems := make([]map[string]bool, len(evidence))
	for i, ev := range evidence {
		chunkStems[i] = text.StemSet(ev.Title + "\n" + ev.Text)
	}
	parts := []string{withoutReferences(subject)}
	for _, b := range bodies {
		parts = append(parts, messageProper(b))
	}
	proper := strings.Join(parts, "\n")
	fix := spellingFixes(proper, evidence, chunkStems)
	for st := range q.focus {
		if to, ok := fix[st]; ok {
			q.focus[to] = true
		}
	}
	n := float64(len(evidence))
	kb := knowledgeBaseIDF(proper, terms)
	written := map[string]string{}
	for _, w := range stemmedWords(proper) {
		if _, seen := written[w.stem]; !seen {
			written[w.stem] = w.text
		}
	}
	if german || text.LooksGerman(proper) {
		q.written = written
	}
	for _, st := range text.ContentStems(proper) {
		if to, ok := fix[st]; ok {
			st = to
		}
		if _, seen := q.weight[st]; seen {
			continue
		}
		df := 0.0
		for _, cs := range chunkStems {
			if cs[st] {
				df++
			}
		}
		idf := 1.0
		if n > 0 && df > 0 {
			// 1 for a stem only one chunk holds, falling to about a third for one all share.
			idf = 1 / (1 + math.Log(df))
		}
		share := stemWeight(st)
		if !q.focus[st] {
			share *= focusShare
		}
		// A word no section holds that is a stopword with two letters swapped or one
		// doubled ("vile" for "viel", "dazzu" for "dazu") names no more than the word
		// meant, as the abstention gate reads it too (missingConcepts). A word one
		// letter from chatter is not read so here: "chart" is not "chat", nor "seat" "sent".
		if chatter[st] || df == 0 && typoOfStopword(written[st]) {
			share *= chatterShare
		}
		q.stems = append(q.stems, st)
		q.weight[st] = idf * share
		q.orderWeight[st] = idf * share
		if kidf, ok := kb[st]; ok {
			q.orderWeight[st] = kidf * share
		}
	}
	return q
}

// spellingFixes maps the stem of each misspelt word of the question ("reefunded",
// "paymets") to the stem of the one word of the evidence, as written, that it is a typo of:
// the stemmer cuts a misspelt word to a stem no section holds, and a question whose key
// word no section matches ranks every section too low to answer. A word is read as a typo
// only when its own stem is in no chunk and is not chatter, it has at least
// spellingLetters letters, and exactly one stem of the evidence is a letter added, dropped
// or two swapped away. A changed letter does not count: it often makes another real word
// ("right", "light").
func spellingFixes(question string, evidence []policy.Evidence, chunkStems []map[string]bool) map[string]string {
	held := map[string]bool{}
	for _, cs := range chunkStems {
		for st := range cs {
			held[st] = true
		}
	}
	// Most questions have no such word: the evidence's words as written are read only
	// for one that does.
	var typos []string
	for _, t := range text.Tokenize(strings.ToLower(question)) {
		stems := text.ContentStems(t.Text)
		if !t.Number && len([]rune(t.Text)) >= spellingLetters && len(stems) == 1 && !held[stems[0]] && !chatter[stems[0]] {
			typos = append(typos, t.Text)
		}
	}
	if len(typos) == 0 {
		return nil
	}
	written := map[string]bool{}
	for _, ev := range evidence {
		for w := range surfaceWords(ev.Title + "\n" + ev.Text) {
			written[w] = true
		}
	}
	fixes := map[string]string{}
	for _, typo := range typos {
		if written[typo] {
			continue
		}
		to := ""
		for w := range written {
			if !slipOfTheKey(typo, w) {
				continue
			}
			ws := text.ContentStems(w)
			if len(ws) != 1 || !held[ws[0]] || ws[0] == to {
				continue
			}
			if to != "" {
				to = "" // two words of the evidence: no telling which was meant
				break
			}
			to = ws[0]
		}
		if to != "" {
			fixes[text.ContentStems(typo)[0]] = to
		}
	}
	return fixes
}

// slipOfTheKey reports whether a is b with one letter added, dropped, or two neighbours
// swapped.
func slipOfTheKey(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	i := 0
	for i < len(rb) && ra[i] == rb[i] {
		i++
	}
	switch len(ra) - len(rb) {
	case 1:
		return string(ra[i+1:]) == string(rb[i:])
	case 0:
		return i+1 < len(ra) && ra[i] == rb[i+1] && ra[i+1] == rb[i] && string(ra[i+2:]) == string(rb[i+2:])
	}
	return false
}

// rankedChunk is one evidence item with its relevance to the question.
type rankedChunk struct {
	ev        policy.Evidence
	order     int // position in the request, the tiebreak
	relevance float64
	// fit is relevance with the question's words weighed by their rarity in the whole
	// knowledge base (question.orderWeight): relevance is what the abstention gate reads,
	// fit what orders sections.
	fit      float64
	standing float64 // fit weighed by the retrieval's fused rank: the order chunks are tried in
	// asked is the question the chunk was ranked for: the whole thread, or one question
	// of it that the first sections chosen left open (openQuestionChunks).
	asked question
	// extra marks a chunk chosen for an open question: it adds one sentence to the reply.
	extra bool
	// sibling marks another section of a document already quoted (siblingSections).
	sibling bool
}

// chunkHeading returns the section heading of a chunk: its first line when more lines
// follow and it does not end like a sentence.
func chunkHeading(chunkText string) string {
	i := strings.IndexByte(chunkText, '\n')
	if i < 0 {
		return ""
	}
	h := strings.TrimSpace(chunkText[:i])
	if strings.HasSuffix(h, ".") {
		return ""
	}
	return h
}

// internalSection reports whether a chunk is written for agents rather than customers
// ("Notes for agents", "When to use this macro"): quoting it to a customer would answer
// nothing they asked. A section marked audience: agents in its front matter is too
// (policy.Evidence.ForAgents), whatever its heading.
func internalSection(ev policy.Evidence, heading string) bool {
	if ev.ForAgents() {
		return true
	}
	for _, t := range text.Tokenize(heading) {
		switch t.Text {
		case "agent", "agents", "macro", "macros", "internal", "intern", "agenten":
			return true
		}
	}
	return false
}

// rankEvidence scores every evidence item against the question and sorts best first. A
// chunk counts only when its topic (document title or section heading) shares a word of
// substance with the question: a section that merely mentions "refund" in passing is not
// about the customer's refund question.
func rankEvidence(q question, evidence []policy.Evidence, scope accountScope) []rankedChunk {
	out := make([]rankedChunk, 0, len(evidence))
	fits := make([]scopeFit, len(evidence))
	ownHeading := false
	for i, ev := range evidence {
		fits[i] = scope.fit(chunkHeading(ev.Text))
		ownHeading = ownHeading || fits[i] == scopeOwn
	}
	ordered := retrievalOrdered(evidence)
	for i, ev := range evidence {
		heading := chunkHeading(ev.Text)
		words := q.withCompoundParts(text.StemSet(ev.Title+"\n"+ev.Text), ev.Title+"\n"+ev.Text)
		onTopic := q.namesTopicOf(ev, heading)
		titleWords, headingWords := q.withCompoundParts(topicWords(ev.Title), ev.Title), q.withCompoundParts(topicWords(heading), heading)
		internal := internalSection(ev, heading)
		otherScope := (ownHeading && fits[i] == scopeOther) || otherSubject(q.topics, scope.topics(ev.Title+"\n"+heading))
		example := workedExample(heading)
		relevance := func(weight map[string]float64) float64 {
			if internal {
				return 0 // a high score alone never makes a section quotable
			}
			overlap := func(words map[string]bool) float64 { return weightedOverlap(q.stems, weight, words) }
			// The heading names what the section answers and the title what its document
			// answers: matching them counts extra. The heading counts beyond a full match,
			// so of sections of one document that all match the question ("Who is
			// eligible", "Refund window"), the one named for it comes first.
			lexical := clamp01(overlap(words)+titleWeight*overlap(titleWords)) + headingWeight*overlap(headingWords)
			if !onTopic {
				lexical *= offTopicShare
			}
			if lexical == 0 {
				return 0
			}
			rel := lexicalWeight*lexical + retrievalWeight*clamp01(ev.Score)
			if q.kinds != 0 && !statesKind(ev.Text, q.kinds) {
				rel *= numberlessShare
			}
			if ordered {
				rel *= rankShare(i, relevanceRankHalf)
			}
			if otherScope {
				rel *= otherScopeShare
			}
			if example {
				rel *= exampleShare
			}
			return rel
		}
		rc := rankedChunk{ev: ev, order: i, relevance: relevance(q.weight), asked: q}
		rc.fit = relevance(q.orderWeight)
		rc.standing = rc.fit
		if ordered {
			rc.standing *= rankShare(i, orderRankHalf)
		}
		out = append(out, rc)
	}
	// The fused order decides only between sections that match about as well: retrieval
	// reads the whole message, backstory and pasted instructions included, where relevance
	// weighs the asking clauses, so a section far less relevant never overtakes.
	best := 0.0
	for _, rc := range out {
		best = max(best, rc.fit)
	}
	contends := func(rc rankedChunk) bool { return rc.fit >= closeShare*best }
	sort.SliceStable(out, func(a, b int) bool {
		if contends(out[a]) != contends(out[b]) {
			return contends(out[a])
		}
		return out[a].standing > out[b].standing
	})
	return out
}

// namesTopicOf reports whether a section's topic, its document title or its heading,
// shares a word of substance with the question: a section that only mentions the
// question's words in passing is about something else.
func (q question) namesTopicOf(ev policy.Evidence, heading string) bool {
	topic := ev.Title + "\n" + heading
	return sharesStrongWord(q.stems, q.withCompoundParts(text.StemSet(topic), topic))
}

// withCompoundParts adds to the stems of a text each word of the question the text holds
// only as a compound's part, or whose parts it holds (compoundHeld): "Zeitraum" in a
// section on the end of the "Abrechnungszeitraums", "Kündigungsbestätigung" over one that
// writes "Kündigung" and "Bestätigung". German writes as one word what English writes as
// two, and a section that holds the question's word as a compound's part is about it as
// much as one that writes it alone. English questions are read whole: there a word inside
// a longer one is another word ("transfer" in a "Fundstransfer FAQ" over a question on
// moving an account).
func (q question) withCompoundParts(stems map[string]bool, s string) map[string]bool {
	var spelt map[string]bool
	for st, w := range q.written {
		if stems[st] || len([]rune(w)) < compoundPart {
			continue
		}
		if spelt == nil {
			spelt = surfaceWords(s)
		}
		if compoundHeld(w, spelt) {
			stems[st] = true
		}
	}
	return stems
}

// workedExample reports whether a section's heading marks it as a worked example
// ("Example", "Billing examples", "Beispiel"). Documentation states a rule in one section
// and shows it applied in another: the example repeats the customer's situation (a user
// signing in three times, an invoice's lines) and so shares more of the question's words,
// while the rule is what answers it.
func workedExample(heading string) bool {
	words := text.StemSet(heading)
	return words["exampl"] || words["beispiel"]
}

// exampleShare is what a worked example's relevance keeps: it still answers when no
// section states the rule, and yields to one that does and matches almost as well.
const exampleShare = 0.7

// topicWords are the stems of a heading or title that name a topic: a heading's chatter
// ("What happens to the account", "Long suspensions") must not pull a section up for every
// "what happens" and "how long" question.
func topicWords(heading string) map[string]bool {
	words := text.StemSet(heading)
	for st := range words {
		if chatter[st] {
			delete(words, st)
		}
	}
	return words
}

// weightedOverlap is the weighted share of the question a text holds, the denominator
// capped at the questionFocus heaviest stems so a long email does not dilute a section
// that matches its key words.
func weightedOverlap(stems []string, weight map[string]float64, words map[string]bool) float64 {
	var ws []float64
	hit := 0.0
	for _, st := range stems {
		w := weight[st]
		ws = append(ws, w)
		if words[st] {
			hit += w
		}
	}
	if len(ws) == 0 {
		return 0
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(ws)))
	total := 0.0
	for i, w := range ws {
		if float64(i) >= questionFocus {
			break
		}
		total += w
	}
	if total == 0 {
		return 0
	}
	return clamp01(hit / total)
}

// chooseChunks keeps the best chunk above the threshold and, at most, one more above it
// from the same document ("How to request a refund" next to "Refund window": one answer in
// two sections, often the duration in one and the rule in the other). A section of another
// document is quoted only for an asking clause the chosen ones leave open
// (openQuestionChunks), where it must hold that clause's subject: chosen here for adding
// words of the question, it was a related, non-answering section as often as not.
func chooseChunks(ranked []rankedChunk, threshold float64) []rankedChunk {
	var used []rankedChunk
	for _, rc := range ranked {
		if len(used) == maxChunksUsed {
			break
		}
		if rc.relevance < threshold {
			continue
		}
		if len(used) == 0 || rc.ev.DocID == used[0].ev.DocID {
			used = append(used, rc)
		}
	}
	return used
}

// sharesStrongWord reports whether words holds a question word that is not a weak stem.
func sharesStrongWord(question []string, words map[string]bool) bool {
	for _, st := range question {
		if words[st] && !weakStems[st] {
			return true
		}
	}
	return false
}

// rankShare is the weight of the evidence item at a 0-based position of the retrieval's
// fused order: 1 for the first, half at position half. The fused order is lexical and
// vector evidence over the whole eligible corpus, where the drafter's own overlap sees 20
// chunks; on help centres written by others it put the answering section first more
// often than the drafter's overlap did (a "dark theme" heading won a question about the
// dashboard going dark after cancelling).
func rankShare(rank int, half float64) float64 { return half / (half + float64(rank)) }

// retrievalOrdered reports whether evidence comes from retrieval, best first: its items
// carry retrieval scores. Evidence given in any other order (a caller's own list) says
// nothing by its order.
func retrievalOrdered(evidence []policy.Evidence) bool {
	for _, ev := range evidence {
		if ev.Score != 0 {
			return true
		}
	}
	return false
}

// relevanceRankHalf and orderRankHalf are where rankShare halves for relevance (what the
// abstention threshold reads: a section far down the fused order must match the question
// better to be quoted) and for the order sections are tried in (where the fused order
// decides between sections that match about as well). Chosen on the help-center tuning
// tickets and the practice tickets: a shorter relevance half-life raised abstention recall
// there further but abstained on answerable tickets of the shipped set.
const (
	relevanceRankHalf = 20.0
	orderRankHalf     = 4.0
)

// closeShare is how close to the best relevance a section must come for the fused order
// to decide between them.
const closeShare = 0.8

// siblingSections are the evidence's other sections of the documents the sections chosen
// for the whole question belong to. A clause may claim its answer from one of them (clauseSentences): the
// document is cited anyway, and its answer often sits in another section than the one
// that matched the whole question best (a price list beside a worked example).
func siblingSections(used []rankedChunk, evidence []policy.Evidence, scope accountScope) []rankedChunk {
	if len(used) == 0 {
		return nil
	}
	docs, chosen := map[string]bool{}, map[string]bool{}
	for _, rc := range used {
		docs[rc.ev.DocID] = docs[rc.ev.DocID] || !rc.extra // a section chosen for an open question may quote nothing
		chosen[rc.ev.ChunkID] = true
	}
	var out []rankedChunk
	for i, ev := range evidence {
		heading := chunkHeading(ev.Text)
		if !docs[ev.DocID] || chosen[ev.ChunkID] || internalSection(ev, heading) ||
			scope.fit(heading) == scopeOther || otherSubject(used[0].asked.topics, scope.topics(ev.Title+"\n"+heading)) {
			continue // a section for another plan, region or subject than the one asked about
		}
		out = append(out, rankedChunk{ev: ev, order: i, asked: used[0].asked, sibling: true})
	}
	return out
}

// withStatedTopics adds to the subject terms the asking clauses name (asked) those the
// customer's whole text states of a class the clauses leave unnamed, when it states one
// term of that class: "We bought the annual plan 20 days ago. Can we get our money back?"
// asks of an annual plan, so a section on monthly plans answers someone else's question
// (otherSubject). Two terms of one class ("we moved from monthly to annual") say nothing
// of which is asked about, and items never decide (otherSubject).
func withStatedTopics(asked, stated map[string]string) map[string]string {
	perClass := map[string][]string{}
	for t, c := range stated {
		perClass[c] = append(perClass[c], t)
	}
	out := map[string]string{}
	maps.Copy(out, asked)
	for c, terms := range perClass {
		if c != itemClass && len(terms) == 1 && !namesClass(asked, c) {
			out[terms[0]] = c
		}
	}
	return out
}
