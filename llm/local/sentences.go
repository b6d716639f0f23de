package local

import (
	"sort"
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// pick is one sentence chosen for the reply.
type pick struct {
	chunkID string
	text    string
	rank    int // chunk rank
	pos     int // sentence position in its chunk
	score   float64
	extra   bool // from a chunk chosen for an open question
}

// pickSentences chooses up to maxQuoted sentences from the chosen chunks: those sharing
// the most question words, then presented best chunk first and in reading order inside a
// chunk, so the reply reads like the policy rather than a shuffled list. A sentence that
// shares only generic words ("plan", "account") with the question is never quoted, and
// neither are headings, questions or fragments of one or two words. When the customer
// asks how long, how much or when, sentences that state a number of that kind come first;
// a chunk chosen for an open question of the thread adds its best sentence, scored
// against that question; of parallel statements per plan or region, only the customer's.
func pickSentences(chunks []rankedChunk, scope accountScope) []pick {
	var cands []pick
	for rank, rc := range chunks {
		q := rc.asked
		sentences := text.SplitLines(rc.ev.Text)
		fits := make([]scopeFit, len(sentences))
		ownSentence := false
		for i, s := range sentences {
			fits[i] = scope.fit(s)
			ownSentence = ownSentence || fits[i] == scopeOwn
		}
		heading := chunkHeading(rc.ev.Text)
		// Every sentence of a chosen section shares its topic; the heading's words
		// count for each sentence, so "Bank transfer is available for ..." under
		// "Bank transfer" and a follow-up sentence are judged together.
		headWords := text.StemSet(rc.ev.Title + "\n" + heading)
		for pos, s := range sentences {
			if ownSentence && fits[pos] == scopeOther {
				continue // the same rule for another plan or region
			}
			if len(strings.Fields(s)) < 3 || (pos == 0 && heading != "" && strings.TrimSpace(s) == heading) ||
				strings.HasSuffix(strings.TrimSpace(s), "?") {
				continue
			}
			words := text.StemSet(s)
			// The best section is quoted whole (its sentences are one answer); a second
			// one only where a sentence itself shares a word of substance.
			if rank > 0 && !sharesStrongWord(q.stems, words) && !statesKind(s, q.kinds) {
				continue
			}
			for st := range headWords {
				words[st] = true
			}
			score := weightedOverlap(q, words)
			if statesKind(s, q.kinds) {
				score += 0.3
			}
			cands = append(cands, pick{chunkID: rc.ev.ChunkID, text: s, rank: rank, pos: pos, score: score, extra: rc.extra})
		}
	}
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].rank != cands[b].rank {
			return cands[a].rank < cands[b].rank
		}
		if cands[a].score != cands[b].score {
			return cands[a].score > cands[b].score
		}
		return cands[a].pos < cands[b].pos
	})
	var picks []pick
	seen := map[string]bool{}
	best := map[int]float64{}
	main := 0
	for _, c := range cands {
		key := text.Fold(c.text)
		if seen[key] || (!c.extra && main == maxQuoted) {
			continue
		}
		if _, ok := best[c.rank]; ok && c.extra { // one sentence answers an open question
			continue
		}
		if b, ok := best[c.rank]; ok && c.rank > 0 && c.score < sentenceShare*b {
			continue
		}
		if _, ok := best[c.rank]; !ok {
			best[c.rank] = c.score
		}
		seen[key] = true
		if !c.extra {
			main++
		}
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

// sentenceShare is how close to a chunk's best sentence another must score to be quoted too.
const sentenceShare = 0.6
