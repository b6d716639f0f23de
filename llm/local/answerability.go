package local

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/supportdraft/supportdraft/calibration"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// Whether the knowledge base answers a question is decided by a logistic model over a
// handful of general signals, fitted on labelled eval sets (FitAnswerabilitySets) and shipped
// as a versioned file (answerability.json), so no threshold is set by hand and none names
// a topic of one corpus. The signals, each in [0, 1]:
const (
	// SignalMissing is the share of the question's words of substance no evidence holds
	// (missingConcepts).
	SignalMissing = "missing"
	// SignalUnknown is the share of them no chunk of the whole knowledge base holds
	// (llm.Terms), a typo of an evidence word counting as held: "SAML", "Okta".
	SignalUnknown = "unknown"
	// SignalHeld is the share of the question's words of substance the best section holds,
	// each weighted by its inverse document frequency over the whole knowledge base: a
	// section holding "plan" and "invoice" but not "downtime" holds little of "credit for
	// the downtime on my plan invoice".
	SignalHeld = "held"
	// SignalRelevance is the best section's relevance to the question (rankEvidence).
	SignalRelevance = "relevance"
	// SignalMargin is how far the best section's relevance stands above the next one's,
	// as a share of it: a question one section answers picks it out.
	SignalMargin = "margin"
	// SignalLacking is the rarity of the rarest word of substance the chosen sections lack:
	// its inverse document frequency over the whole knowledge base, 1 for a word no chunk
	// holds, near 0 for one most chunks hold, 0 when they lack none.
	SignalLacking = "lacking"
	// SignalSimilarity is the retrieval's best evidence score (the vector arm's similarity).
	SignalSimilarity = "similarity"
	// SignalCoverage is how much of what the customer asks the best section's text covers
	// (questionCoverage, the rule judge's coverage): its subject words and kind of answer.
	SignalCoverage = "coverage"
	// SignalAnswered is the share of the thread's asking clauses the chosen sections
	// answer (subject support and answer type, answers.go).
	SignalAnswered = "answered"
	// SignalTyped is the share of the clauses asking for a kind of quantity (a duration,
	// an amount) whose kind the chosen sections state.
	SignalTyped = "typed"
	// SignalAgree is whether the fused order, the vector similarity and the drafter's
	// ranking put the same document first (armsAgree).
	SignalAgree = "agree"
	// SignalStandout is how far the best section's relevance stands above the other
	// documents' (relevanceStandout).
	SignalStandout = "standout"
	// SignalLexical is a query-performance predictor, a general sign of whether a search
	// found an answer at all: the lexical arm's best score of the evidence as a share of
	// the most the query's terms could score (policy.Evidence.Lexical). A question whose
	// words no section holds together scores low however the sections rank. (The gap from
	// the best document's share to the tenth's was read too and dropped: in a small
	// knowledge base the tenth holds nothing of any question, so it read the size of the
	// knowledge base, not the question.)
	SignalLexical = "lexical"
	// SignalTitle is the share of the thread's words of substance the best section's
	// document title holds, weighted by their rarity in the knowledge base (titleHeld):
	// whether the question is about what the document is about, not only the section's
	// text. (The title with the section's heading, the question's asking clauses alone, the
	// share of the title the question holds, and whether the quoted document's title
	// matches best of the evidence were read too and dropped: each lowered the left-out
	// figures of the billing knowledge base, where a near question names a document's
	// subject, "refund", and asks what it does not state.)
	SignalTitle = "title"
)

// Answerability is the fitted model: P(answerable) = σ(Bias + Σ Weights[s]·signal s), and
// the probability below which the drafter abstains.
type Answerability struct {
	Version   int                `json:"version"`
	FittedOn  []string           `json:"fitted_on"`
	Samples   int                `json:"samples"`
	Bias      float64            `json:"bias"`
	Weights   map[string]float64 `json:"weights"`
	Threshold float64            `json:"threshold"`
}

// Probability is the model's probability that the knowledge base answers a question with
// these signals; a signal the model has no weight for does not count. The terms are added
// in signalNames' order, so the same signals give the same probability to the last bit.
func (m Answerability) Probability(signals map[string]float64) float64 {
	z := m.Bias
	for _, name := range signalNames {
		z += m.Weights[name] * signals[name]
	}
	return 1 / (1 + math.Exp(-z))
}

// Share is where a question's probability stands between the threshold and certainty, in
// [0, 1]: 0 at or below the threshold (the drafter abstains there), 1 at probability 1.
// The drafts the model lets through all score above the threshold, so this spreads them
// over the scale the judge's fit uses.
func (m Answerability) Share(signals map[string]float64) float64 {
	if m.Threshold >= 1 {
		return 0
	}
	return clamp01((m.Probability(signals) - m.Threshold) / (1 - m.Threshold))
}

// Temper reads a draft's answerability signals into the judge's scores before they are
// combined. Coverage is capped at the question's Share: a reply quoting a section the
// model barely let through covers little of the question. Fit becomes the mean of the
// judge's fit and SignalStandout: the judge sees how close the evidence is, not whether
// one document stands out from the rest, and a question near the knowledge base but
// outside it finds several documents about as close. Without standout (a writer that
// reads no signals) fit stays the judge's.
func (m Answerability) Temper(s llm.Scores, signals map[string]float64) llm.Scores {
	s.Coverage = min(s.Coverage, m.Share(signals))
	if standout, ok := signals[SignalStandout]; ok {
		s.Fit = (s.Fit + standout) / 2
	}
	return s
}

//go:embed answerability.json
var answerabilityFile []byte

// DefaultAnswerability is the embedded model; this package's tests parse it, so a file
// that does not parse never ships.
var DefaultAnswerability = calibration.Embedded("answerability.json", answerabilityFile, ParseAnswerability)

// ParseAnswerability reads a model file and refuses one that weighs a signal the drafter
// does not read or whose threshold is not a probability.
func ParseAnswerability(data []byte) (Answerability, error) {
	var m Answerability
	if err := json.Unmarshal(data, &m); err != nil {
		return Answerability{}, fmt.Errorf("answerability file: %w", err)
	}
	for name := range m.Weights {
		if !slices.Contains(signalNames, name) {
			return Answerability{}, fmt.Errorf("answerability file: weight for unknown signal %q", name)
		}
	}
	if m.Threshold < 0 || m.Threshold > 1 {
		return Answerability{}, fmt.Errorf("answerability file: threshold %g is outside [0,1]", m.Threshold)
	}
	return m, nil
}

// signalNames are the signals the drafter reads, in the order the fit reports them.
var signalNames = []string{SignalMissing, SignalUnknown, SignalHeld, SignalRelevance, SignalMargin, SignalLacking, SignalSimilarity, SignalCoverage, SignalAnswered, SignalTyped, SignalAgree, SignalStandout, SignalLexical, SignalTitle}

// SignalNames are the signals the drafter reads, in the order the fit reports them.
func SignalNames() []string { return slices.Clone(signalNames) }

// againstAnswer are the signals that can only speak against an answer: what the knowledge
// base or the chosen sections lack. The fit keeps their weights at or below zero and the
// others' at or above: a set where customers' backstory names things no policy does must
// not teach the model that an unknown word makes a question answerable.
var againstAnswer = map[string]bool{SignalMissing: true, SignalUnknown: true, SignalLacking: true}

// AnswerabilitySample is one labelled question: the signals the drafter read and whether
// the knowledge base answers it.
type AnswerabilitySample struct {
	Signals    map[string]float64
	Answerable bool
}

// Fitting constants: the L2 penalty keeps weights finite on a set a signal separates
// perfectly, and the threshold is the probability below which falseAbstention of each
// set's answerable samples fall at most. The samples are drafts the other rules let through, where
// answerable ones far outnumber the rest, so the model's probabilities all sit high and
// the threshold is read from the answerable ones' quantile rather than set at one half.
const (
	fitRounds       = 4000
	fitRate         = 0.5
	fitPenalty      = 0.01
	falseAbstention = 0.03
)

// FitAnswerabilitySets fits the model by projected gradient descent on the mean log loss
// (L2-penalised, each weight kept to its signal's direction: againstAnswer), from zero
// weights in a fixed order, so the same samples give the same file. Each set weighs the
// same whatever its size: a large generated set must not teach the model its own
// vocabulary at the expense of the knowledge bases written by others. The threshold is
// the highest at which no set loses more than falseAbstention of its answerable samples.
func FitAnswerabilitySets(sets []AnswerabilitySet) (Answerability, error) {
	var samples []AnswerabilitySample
	var weight []float64
	nonEmpty := 0
	for _, set := range sets {
		if len(set.Samples) > 0 {
			nonEmpty++
		}
	}
	for _, set := range sets {
		for _, s := range set.Samples {
			samples = append(samples, s)
			weight = append(weight, 1/float64(len(set.Samples)*nonEmpty))
		}
	}
	if len(samples) == 0 {
		return Answerability{}, fmt.Errorf("answerability fit: no samples")
	}
	w := make([]float64, len(signalNames))
	b := 0.0
	for range fitRounds {
		gw := make([]float64, len(w))
		gb := 0.0
		for k, s := range samples {
			z := b
			for i, name := range signalNames {
				z += w[i] * s.Signals[name]
			}
			y := 0.0
			if s.Answerable {
				y = 1
			}
			d := (1/(1+math.Exp(-z)) - y) * weight[k]
			gb += d
			for i, name := range signalNames {
				gw[i] += d * s.Signals[name]
			}
		}
		b -= fitRate * gb
		for i, name := range signalNames {
			w[i] -= fitRate * (gw[i] + fitPenalty*w[i])
			if againstAnswer[name] {
				w[i] = min(w[i], 0)
			} else {
				w[i] = max(w[i], 0)
			}
		}
	}
	m := Answerability{Samples: len(samples), Bias: b, Weights: map[string]float64{}}
	for i, name := range signalNames {
		m.Weights[name] = w[i]
	}
	m.Threshold = 1
	for _, set := range sets {
		if t, ok := answerableQuantile(m, set.Samples, falseAbstention); ok {
			m.Threshold = min(m.Threshold, t)
		}
	}
	return m, nil
}

// answerableQuantile is the probability below which the share q of a set's answerable
// samples fall: the threshold that holds back that share of them; false when the set has
// none.
func answerableQuantile(m Answerability, samples []AnswerabilitySample, q float64) (float64, bool) {
	var answerable []float64
	for _, s := range samples {
		if s.Answerable {
			answerable = append(answerable, m.Probability(s.Signals))
		}
	}
	if len(answerable) == 0 {
		return 0, false
	}
	sort.Float64s(answerable)
	return answerable[int(q*float64(len(answerable)))], true
}

// readSignals computes the answerability signals of a question against its evidence,
// ranked (best first) and the sections chosen to quote.
func readSignals(question string, asks []string, terms *llm.Terms, evidence []policy.Evidence, ranked, used []rankedChunk, missing float64) map[string]float64 {
	s := map[string]float64{SignalMissing: missing}
	words := substanceWords(asks)
	have := map[string]bool{}
	for _, ev := range evidence {
		for st := range text.StemSet(ev.Title + "\n" + ev.Text) {
			have[st] = true
		}
	}
	unknown := 0
	for _, w := range words {
		if n, ok := terms.Known(w.text); (ok && n == 0 || !ok && !have[w.stem]) && !nearWord(w.stem, have) {
			unknown++
		}
	}
	if len(words) > 0 {
		s[SignalUnknown] = float64(unknown) / float64(len(words))
	}
	for _, ev := range evidence {
		s[SignalSimilarity] = max(s[SignalSimilarity], clamp01(ev.Score))
	}
	s[SignalAgree] = armsAgree(evidence, ranked)
	for _, ev := range evidence {
		s[SignalLexical] = max(s[SignalLexical], clamp01(ev.Lexical))
	}
	s[SignalStandout] = relevanceStandout(ranked)
	best := ranked
	if len(used) > 0 {
		best = used
	}
	if len(best) > 0 {
		top := best[0]
		s[SignalRelevance] = clamp01(top.relevance)
		s[SignalCoverage] = questionCoverage(question, top.ev.Title+"\n"+top.ev.Text)
		s[SignalHeld] = corpusHeld(words, terms, evidence, text.StemSet(top.ev.Title+"\n"+top.ev.Text))
		s[SignalTitle] = titleHeld(question, terms, evidence, top.ev)
		if len(ranked) > 1 && ranked[0].relevance > 0 {
			s[SignalMargin] = clamp01((ranked[0].relevance - ranked[1].relevance) / ranked[0].relevance)
		}
	}
	var sections []policy.Evidence
	chosen := map[string]bool{}
	for _, u := range used {
		sections = append(sections, u.ev)
		for st := range text.StemSet(u.ev.Title + "\n" + u.ev.Text) {
			chosen[st] = true
		}
	}
	s[SignalLacking] = rarestLacking(words, terms, evidence, chosen)
	clauses := answerClauses(asks, sections, evidenceIDF(evidence))
	answered, typed := 0, 0
	for _, c := range clauses {
		if c.answered() {
			answered++
		}
		if c.typed {
			typed++
		}
	}
	if len(clauses) > 0 {
		s[SignalAnswered] = float64(answered) / float64(len(clauses))
		s[SignalTyped] = float64(typed) / float64(len(clauses))
	} else if len(used) > 0 { // a message that asks nothing in so many words is read whole
		s[SignalAnswered], s[SignalTyped] = 1, 1
	}
	return s
}

// substanceWord is a word of substance of the question as written, with its stem.
type substanceWord struct{ text, stem string }

// stemmedWords are the words of s that have one content stem, in order, read after the
// everyday phrases are rewritten ("run out" is read as "expire", not "run").
func stemmedWords(s string) []substanceWord {
	var out []substanceWord
	for _, t := range text.Tokenize(text.ReadPhrases(s)) {
		if sts := text.ContentStems(t.Text); !t.Number && len(sts) == 1 {
			out = append(out, substanceWord{text: t.Text, stem: sts[0]})
		}
	}
	return out
}

// namesNothing reports whether a word with a stem is support chatter, asks for a kind of
// answer, is shorter than three letters or is a typo of chatter (of a German question's
// chatter too, when german) or of a stopword.
func namesNothing(w substanceWord, german bool) bool {
	return chatter[w.stem] || askingWords[w.stem] || len([]rune(w.stem)) < 3 || typoOfChatter(w.stem, german) || typoOfStopword(w.text)
}

// askedWords are the words of the asking clauses that have one content stem, each stem
// once, in the order asked: what both readings of a question's substance start from.
func askedWords(asks []string) []substanceWord {
	var out []substanceWord
	seen := map[string]bool{}
	for _, a := range asks {
		for _, w := range stemmedWords(a) {
			if !seen[w.stem] {
				seen[w.stem] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// substanceWords are the words of substance of the asking clauses, each stem once: not
// chatter, not shorter than three letters, not a typo of a stopword.
func substanceWords(asks []string) []substanceWord {
	var out []substanceWord
	german := text.LooksGerman(strings.Join(asks, "\n"))
	for _, w := range askedWords(asks) {
		if !namesNothing(w, german) {
			out = append(out, w)
		}
	}
	return out
}

// corpusHeld is the share of words a section (its stems: section) holds, each weighted by
// its inverse document frequency over the whole knowledge base (terms), or over the
// evidence when the knowledge base's was not read.
func corpusHeld(words []substanceWord, terms *llm.Terms, evidence []policy.Evidence, section map[string]bool) float64 {
	idf := evidenceIDF(evidence)
	held, total := 0.0, 0.0
	for _, w := range words {
		weight := idf.Weight(w.stem)
		if n, ok := terms.Known(w.text); ok {
			weight = math.Log(float64(terms.Chunks+1)/float64(n+1)) + 1
		}
		total += weight
		if section[w.stem] || nearWord(w.stem, section) || sharesRoot(w.stem, section) {
			held += weight
		}
	}
	if total == 0 { // a question that names nothing of substance lacks nothing
		return 1
	}
	return held / total
}

// unknownWords are the words of the question no chunk of the knowledge base holds, as
// written, for the abstention note; when none is, the words the best section lacks,
// rarest first.
func unknownWords(asks []string, terms *llm.Terms, evidence []policy.Evidence, best []rankedChunk) []string {
	words := substanceWords(asks)
	have := map[string]bool{}
	for _, ev := range evidence {
		for st := range text.StemSet(ev.Title + "\n" + ev.Text) {
			have[st] = true
		}
	}
	var out []string
	for _, w := range words {
		if n, ok := terms.Known(w.text); (ok && n == 0 || !ok && !have[w.stem]) && !nearWord(w.stem, have) {
			out = append(out, w.text)
		}
	}
	if len(out) > 0 || len(best) == 0 {
		return out
	}
	section := text.StemSet(best[0].ev.Title + "\n" + best[0].ev.Text)
	for _, w := range words {
		if !section[w.stem] && !nearWord(w.stem, section) {
			out = append(out, w.text)
		}
	}
	return out
}

// withSignals keeps the signals the answer was decided on with it.
func withSignals(ans *llm.Answer, signals map[string]float64) *llm.Answer {
	ans.Signals = signals
	return ans
}

// gateNote tells the agent why the model abstained: the words of the question no policy
// mentions, or those the closest section (best) lacks.
func gateNote(asked []string, best policy.Evidence) string {
	if len(asked) == 0 {
		return "The closest policy (" + best.Title + ") does not answer the question: it needs a reply from the team."
	}
	return "The closest policy (" + best.Title + ") does not state " + strings.Join(asked, ", ") + ": the question needs a reply from the team."
}

// rarestLacking is SignalLacking: the rarity in [0, 1] of the rarest of words the chosen
// sections (their stems: chosen) lack, over the whole knowledge base (terms), or over the
// evidence when the knowledge base's was not read.
func rarestLacking(words []substanceWord, terms *llm.Terms, evidence []policy.Evidence, chosen map[string]bool) float64 {
	idf := evidenceIDF(evidence)
	rarest := 0.0
	for _, w := range words {
		if chosen[w.stem] || nearWord(w.stem, chosen) || sharesRoot(w.stem, chosen) {
			continue
		}
		r := 1.0 // the rarity of a word no text holds
		if n, ok := terms.Known(w.text); ok {
			r = math.Log(float64(terms.Chunks+1)/float64(n+1)) / math.Log(float64(terms.Chunks+1))
		} else if rarest := idf.Weight(""); rarest > 1 {
			r = (idf.Weight(w.stem) - 1) / (rarest - 1)
		}
		rarest = max(rarest, r)
	}
	return clamp01(rarest)
}
