package llm

import (
	"context"
	"sort"
	"strings"
)

// Extractive is the local drafter: it answers only with sentences copied verbatim from the
// evidence that best matches the customer's question, and abstains when nothing matches
// well enough. It cannot invent a number because it never writes one; every factual
// sentence is its own claim, quoting itself. The zero value is ready to use.
type Extractive struct {
	// MinRelevance is the relevance below which it abstains; 0 means DefaultMinRelevance.
	MinRelevance float64
}

// DefaultMinRelevance is the abstention threshold of the extractive drafter. A section
// must hold about half of the question's key words (two of four, one of two) before it is
// quoted; a high retrieval score alone cannot lift one shared word of four over it.
const DefaultMinRelevance = 0.4

// Relevance weights: lexical overlap with the question dominates, because retrieval
// always returns its top k even when none of them is about the question; the retrieval
// score breaks ties and helps paraphrases.
const (
	lexicalWeight   = 0.8
	retrievalWeight = 0.2
	maxQuoted       = 3 // sentences per reply: enough to answer, short enough to review
	maxChunksUsed   = 2
)

// Fixed lines of the extractive reply. None holds a number, a commercial verb or a
// promise, so the guard never has a reason to strike them.
const (
	greetingEN = "Hi,"
	closingEN  = "If anything is unclear, just reply to this email."
	abstainEN  = "No current approved policy covers this question, so it needs a reply from a member of the billing team."
	greetingDE = "Hallo,"
	closingDE  = "Wenn etwas unklar ist, antworten Sie einfach auf diese E-Mail."
	abstainDE  = "Keine aktuelle, freigegebene Richtlinie deckt diese Frage ab, daher braucht sie eine Antwort aus dem Billing-Team."
)

// Draft implements Drafter. Same request, same draft: ties are broken by evidence order
// and sentence position, never by map order.
func (x Extractive) Draft(_ context.Context, req Request) (*Draft, error) {
	question := contentStems(req.Question())
	ranked := rankEvidence(question, req.Evidence)
	threshold := x.MinRelevance
	if threshold == 0 {
		threshold = DefaultMinRelevance
	}
	german := strings.HasPrefix(strings.ToLower(req.Account.Locale), "de")
	all := dedupEvidence(nil, req.Evidence...)

	var used []rankedChunk
	for _, rc := range ranked {
		if rc.relevance >= threshold && len(used) < maxChunksUsed {
			used = append(used, rc)
		}
	}
	picks := pickSentences(question, used)
	if len(picks) == 0 {
		return &Draft{Reply: abstainReply(german), Abstain: true, Claims: []Claim{}, Evidence: all}, nil
	}

	var quoted []string
	for _, p := range picks {
		quoted = append(quoted, p.text)
	}
	german = german && isGerman(strings.Join(quoted, " "))
	greeting, closing := greetingEN, closingEN
	if german {
		greeting, closing = greetingDE, closingDE
	}
	claims := make([]Claim, 0, len(picks))
	for _, p := range picks {
		claims = append(claims, Claim{Sentence: p.text, ChunkIDs: []string{p.chunkID}, Quote: p.text})
	}
	reply := greeting + "\n\n" + strings.Join(quoted, " ") + "\n\n" + closing
	return &Draft{Reply: reply, Claims: claims, Evidence: all}, nil
}

func abstainReply(german bool) string {
	if german {
		return greetingDE + "\n\n" + abstainDE
	}
	return greetingEN + "\n\n" + abstainEN
}

// rankedChunk is one evidence item with its relevance to the question.
type rankedChunk struct {
	ev        Evidence
	order     int // position in the request, the tiebreak
	relevance float64
}

// rankEvidence scores every evidence item against the question and sorts best first.
func rankEvidence(question []string, evidence []Evidence) []rankedChunk {
	out := make([]rankedChunk, 0, len(evidence))
	for i, ev := range evidence {
		lexical := overlap(question, stemSet(ev.Title+"\n"+ev.Text))
		rel := 0.0 // a high score alone never makes a section quotable
		if lexical > 0 {
			rel = lexicalWeight*lexical + retrievalWeight*clamp01(ev.Score)
		}
		out = append(out, rankedChunk{ev: ev, order: i, relevance: rel})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].relevance > out[b].relevance })
	return out
}

// pick is one sentence chosen for the reply.
type pick struct {
	chunkID string
	text    string
	rank    int // chunk rank
	pos     int // sentence position in its chunk
	score   float64
}

// pickSentences chooses up to maxQuoted sentences from the chosen chunks: those sharing
// the most question words, then presented best chunk first and in reading order inside a
// chunk, so the reply reads like the policy rather than a shuffled list. A sentence that
// shares only generic words ("plan", "account") with the question is never quoted, and
// neither are headings or fragments of one or two words.
func pickSentences(question []string, chunks []rankedChunk) []pick {
	var cands []pick
	for rank, rc := range chunks {
		for pos, s := range sentences(rc.ev.Text) {
			if len(strings.Fields(s)) < 3 {
				continue
			}
			words := stemSet(s)
			if !sharesStrongWord(question, words) {
				continue
			}
			score := overlap(question, words)
			cands = append(cands, pick{chunkID: rc.ev.ChunkID, text: s, rank: rank, pos: pos, score: score})
		}
	}
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].score != cands[b].score {
			return cands[a].score > cands[b].score
		}
		if cands[a].rank != cands[b].rank {
			return cands[a].rank < cands[b].rank
		}
		return cands[a].pos < cands[b].pos
	})
	var picks []pick
	seen := map[string]bool{}
	for _, c := range cands {
		key := normalizeSpace(c.text)
		if seen[key] || len(picks) == maxQuoted {
			continue
		}
		seen[key] = true
		picks = append(picks, c)
	}
	sort.SliceStable(picks, func(a, b int) bool {
		if picks[a].rank != picks[b].rank {
			return picks[a].rank < picks[b].rank
		}
		return picks[a].pos < picks[b].pos
	})
	return picks
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
