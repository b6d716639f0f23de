package local

import (
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// maxOpenQuestions bounds the sections added for questions the first sections leave
// open: a thread asks two or three things, rarely more, and a reply must stay short.
const maxOpenQuestions = 2

// openQuestionChunks answers a thread question by question. The sections chosen for the
// whole thread answer its main question; each asking clause whose words of substance
// those sections do not all hold, or that asks for a kind of number they do not state
// ("and how long would the refund take?" beside a refund window), is ranked on its own,
// and its best section not chosen yet is added when it clears the abstention threshold.
func openQuestionChunks(asks []string, used []rankedChunk, evidence []policy.Evidence, threshold float64, scope accountScope) []rankedChunk {
	var added []rankedChunk
	for _, a := range asks {
		if len(added) == maxOpenQuestions {
			break
		}
		chosen := append(used[:len(used):len(used)], added...)
		stems := clauseTopics(a)
		if len(stems) == 0 {
			continue
		}
		have, kinds := chosenText(chosen), askedKinds(a)
		if coveredShare(stems, text.StemSet(have)) == 1 && (kinds == 0 || statesKind(have, kinds)) {
			continue
		}
		q := analyseQuestion("", []string{a}, evidence)
		q.topics = scope.topics(a)
		for _, rc := range rankEvidence(q, evidence, scope) {
			if rc.relevance < threshold {
				continue
			}
			if !isChosen(chosen, rc.ev.ChunkID) {
				rc.extra = true
				added = append(added, rc)
				break
			}
		}
	}
	return added
}

// clauseTopics are the words of substance of one asking clause: chatter and the words
// every billing text shares left out.
func clauseTopics(clause string) []string {
	var out []string
	for _, st := range substanceStems(clause) {
		if !weakStems[st] && len([]rune(st)) >= 3 {
			out = append(out, st)
		}
	}
	return out
}

func chosenText(chunks []rankedChunk) string {
	s := ""
	for _, rc := range chunks {
		s += rc.ev.Title + "\n" + rc.ev.Text + "\n"
	}
	return s
}

func isChosen(chunks []rankedChunk, chunkID string) bool {
	for _, rc := range chunks {
		if rc.ev.ChunkID == chunkID {
			return true
		}
	}
	return false
}
