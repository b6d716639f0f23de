package local

import (
	"math"
	"sort"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// A question near a knowledge base but outside it shares the knowledge base's vocabulary
// (the product, the area) without any one passage stating what it asks. The signals here
// read whether one passage states it: one sentence, one chunk, one document standing out.

// knownWords are the words of substance some chunk of the knowledge base holds (terms),
// or some evidence (have, its stems) when the knowledge base's were not read. A word no
// text holds is SignalUnknown's; the signals here ask whether one passage holds the
// words the knowledge base could answer about, together.
func knownWords(words []substanceWord, terms *llm.Terms, have map[string]bool) []substanceWord {
	var out []substanceWord
	for _, w := range words {
		n, ok := terms.Known(w.text)
		if ok && n > 0 || holdsWord(w, have) {
			out = append(out, w)
		}
	}
	return out
}

// wordWeights weighs each word of substance by its inverse document frequency over the
// whole knowledge base (terms), or over the evidence when the knowledge base's was not
// read, so the words that pick out a passage count most.
func wordWeights(words []substanceWord, terms *llm.Terms, idf text.IDF) []float64 {
	out := make([]float64, len(words))
	for i, w := range words {
		out[i] = idf.Weight(w.stem)
		if n, ok := terms.Known(w.text); ok {
			out[i] = math.Log(float64(terms.Chunks+1)/float64(n+1)) + 1
		}
	}
	return out
}

// holdsWord reports whether a text's stems (have) hold a word of substance, one typo away
// or sharing its root counting.
func holdsWord(w substanceWord, have map[string]bool) bool {
	return have[w.stem] || nearWord(w.stem, have) || sharesRoot(w.stem, have)
}

// bestSentence is SignalSentence: the largest weighted share of the question's words of
// substance that one sentence of the evidence (or one title) holds. A section can hold
// every word of a question scattered over paragraphs about other things; a sentence
// that holds them states the thing asked.
func bestSentence(words []substanceWord, weights []float64, evidence []policy.Evidence) float64 {
	total := 0.0
	for _, w := range weights {
		total += w
	}
	if total == 0 {
		return 1
	}
	best := 0.0
	for _, ev := range evidence {
		for _, unit := range append([]string{ev.Title}, text.SplitLines(ev.Text)...) {
			have := text.StemSet(unit)
			held := 0.0
			for i, w := range words {
				if holdsWord(w, have) {
					held += weights[i]
				}
			}
			best = max(best, held/total)
		}
	}
	return best
}

// bestChunk is SignalChunk: the largest weighted share of the words that one chunk of
// the evidence (with its title) holds.
func bestChunk(words []substanceWord, weights []float64, evidence []policy.Evidence) float64 {
	total := 0.0
	for _, w := range weights {
		total += w
	}
	if total == 0 {
		return 1
	}
	best := 0.0
	for _, ev := range evidence {
		have := text.StemSet(ev.Title + "\n" + ev.Text)
		held := 0.0
		for i, w := range words {
			if holdsWord(w, have) {
				held += weights[i]
			}
		}
		best = max(best, held/total)
	}
	return best
}

// rarePair is SignalPair: whether one chunk of the evidence holds both of the question's
// two rarest words of substance (rarest over the knowledge base), 0.5 when a chunk holds
// one of them. The rarest words name what the question is about; a question outside the
// knowledge base often finds each in some chunk and both in none.
func rarePair(words []substanceWord, weights []float64, evidence []policy.Evidence) float64 {
	if len(words) == 0 {
		return 1
	}
	order := make([]int, len(words))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return weights[order[a]] > weights[order[b]] })
	rare := order[:min(2, len(order))]
	best := 0.0
	for _, ev := range evidence {
		have := text.StemSet(ev.Title + "\n" + ev.Text)
		held := 0
		for _, i := range rare {
			if holdsWord(words[i], have) {
				held++
			}
		}
		best = max(best, float64(held)/float64(len(rare)))
	}
	return best
}

// BM25's constants, the usual ones.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// selfBM25 is SignalBM25: the best chunk's BM25 score for the question's words of
// substance, as a share of the score a chunk of average length holding each of them once
// would get. A raw BM25 score grows with the question's length and the corpus; this one
// says how much of the question the best chunk matches, on one scale for every corpus.
func selfBM25(words []substanceWord, weights []float64, evidence []policy.Evidence) float64 {
	self := 0.0
	for _, w := range weights {
		self += w
	}
	if self == 0 || len(evidence) == 0 {
		return 1
	}
	counts := make([]map[string]int, len(evidence))
	lengths := make([]float64, len(evidence))
	avg := 0.0
	for i, ev := range evidence {
		counts[i] = map[string]int{}
		for _, st := range text.ContentStems(ev.Title + "\n" + ev.Text) {
			counts[i][st]++
			lengths[i]++
		}
		avg += lengths[i]
	}
	avg /= float64(len(evidence))
	best := 0.0
	for i := range evidence {
		have := map[string]bool{}
		for st := range counts[i] {
			have[st] = true
		}
		norm := bm25K1 * (1 - bm25B + bm25B*lengths[i]/max(avg, 1))
		score := 0.0
		for j, w := range words {
			tf := float64(counts[i][w.stem])
			if tf == 0 && holdsWord(w, have) {
				tf = 1
			}
			score += weights[j] * tf * (bm25K1 + 1) / (tf + norm)
		}
		best = max(best, score)
	}
	return clamp01(best / self)
}

// armsAgree is SignalAgree: whether the document retrieval's fused order puts first is
// also the one the vector similarity (Evidence.Score) puts first, and the one the
// drafter's own ranking (ranked) puts first; 1 when both agree, 0.5 when one does. A
// question the knowledge base answers tends to find the same document by every reading.
func armsAgree(evidence []policy.Evidence, ranked []rankedChunk) float64 {
	if len(evidence) == 0 || len(ranked) == 0 {
		return 0
	}
	vector := evidence[0]
	for _, ev := range evidence[1:] {
		if ev.Score > vector.Score {
			vector = ev
		}
	}
	agree := 0.0
	if vector.DocID == evidence[0].DocID {
		agree += 0.5
	}
	if ranked[0].ev.DocID == evidence[0].DocID {
		agree += 0.5
	}
	return agree
}

// docGap is SignalDocGap: how far the relevance of the document the drafter ranks first
// (its best section's) stands above that of the best other document, as a share of it.
// Sections of one document often rank next to each other; margin reads the next
// section, this the next document.
func docGap(ranked []rankedChunk) float64 {
	if len(ranked) == 0 {
		return 0
	}
	top, other := 0.0, 0.0
	for _, r := range ranked {
		if r.ev.DocID == ranked[0].ev.DocID {
			top = max(top, r.relevance)
		} else {
			other = max(other, r.relevance)
		}
	}
	if top <= 0 {
		return 0
	}
	return clamp01((top - other) / top)
}

// standout is SignalStandout: how far the best similarity of the evidence stands above
// the mean similarity of the other documents' evidence, as a share of it. The retrieved
// evidence is the background a question's best match is read against: a question the
// knowledge base answers finds one document clearly closer than the rest, one near it
// but outside finds several about as close.
func standout(evidence []policy.Evidence) float64 {
	if len(evidence) == 0 {
		return 0
	}
	top := evidence[0]
	for _, ev := range evidence[1:] {
		if ev.Score > top.Score {
			top = ev
		}
	}
	sum, n := 0.0, 0
	for _, ev := range evidence {
		if ev.DocID != top.DocID {
			sum += ev.Score
			n++
		}
	}
	if top.Score <= 0 {
		return 0
	}
	if n == 0 {
		return 1
	}
	return clamp01((top.Score - sum/float64(n)) / top.Score)
}

// relevanceStandout is SignalRelStandout: standout over the drafter's relevance: how far
// the best section's relevance stands above the mean relevance of the other documents'.
func relevanceStandout(ranked []rankedChunk) float64 {
	if len(ranked) == 0 {
		return 0
	}
	top := ranked[0]
	for _, r := range ranked[1:] {
		if r.relevance > top.relevance {
			top = r
		}
	}
	sum, n := 0.0, 0
	for _, r := range ranked {
		if r.ev.DocID != top.ev.DocID {
			sum += r.relevance
			n++
		}
	}
	if top.relevance <= 0 {
		return 0
	}
	if n == 0 {
		return 1
	}
	return clamp01((top.relevance - sum/float64(n)) / top.relevance)
}
