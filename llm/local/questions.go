package local

import (
	"github.com/supportdraft/supportdraft/llm"
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
// and its best section not chosen yet is added when it clears the abstention threshold
// and, if its document is not cited yet, answers the clause at least as well as the
// sections chosen (answersOpenClause).
func openQuestionChunks(asks []string, used []rankedChunk, evidence []policy.Evidence, terms *llm.Terms, threshold float64, scope accountScope, german bool) []rankedChunk {
	var added []rankedChunk
	idf := evidenceIDF(evidence)
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
		q := analyseQuestion("", []string{a}, evidence, terms, german)
		q.topics = scope.topics(a)
		for _, rc := range rankEvidence(q, evidence, scope) {
			if rc.relevance < threshold || isChosen(chosen, rc.ev.ChunkID) {
				continue
			}
			if citesDocument(chosen, rc.ev.DocID) || answersOpenClause(a, kinds, have, rc.ev, chosen, idf) {
				rc.extra = true
				added = append(added, rc)
			}
			break
		}
	}
	return added
}

// answersOpenClause reports whether a section of a document the reply does not cite yet
// may be quoted for an open clause. A section quoted for a clause it does not answer only
// adds a paragraph the agent deletes and a citation the question does not need, so:
//   - its title or heading must name something the thread asks about, as rankEvidence
//     asks of a section it ranks first, or its text hold at least minSubject of the
//     clause's subject words: ranked for a clause of one word ("What am I missing?"), a
//     section on another topic that mentions it in passing ("missing or invalid auth
//     information") scores high, while a section named otherwise ("Billing role") can
//     answer a clause of several words ("Can our bookkeeper download invoices?");
//   - it must hold the clause's subject, each word weighted by its rarity over the
//     evidence (as answerClauses reads it), at least as fully as the best section already
//     chosen, or state the kind of number the clause asks for where the chosen sections
//     state none. A clause with no subject words of its own ("Can we get the money
//     back?", a synonym phrase) cannot be weighed: its best section is quoted when named
//     for the thread.
func answersOpenClause(clause string, kinds quantityKind, have string, ev policy.Evidence, chosen []rankedChunk, idf text.IDF) bool {
	subject := clauseTopicStems(clause)
	words := text.StemSet(ev.Title + "\n" + ev.Text)
	thread := chosen[0].asked // the first chosen section was ranked for the whole thread
	if !thread.namesTopicOf(ev, chunkHeading(ev.Text)) && heldCount(subject, words) < minSubject {
		return false
	}
	if len(subject) == 0 {
		return true
	}
	if kinds != 0 && !statesKind(have, kinds) && statesKind(ev.Text, kinds) {
		return true
	}
	share, _ := idf.Held(subject, words, nil)
	best := 0.0
	for _, rc := range chosen {
		s, _ := idf.Held(subject, text.StemSet(rc.ev.Title+"\n"+rc.ev.Text), nil)
		best = max(best, s)
	}
	return share > 0 && share >= best
}

// citesDocument reports whether one of chunks belongs to the document docID.
func citesDocument(chunks []rankedChunk, docID string) bool {
	for _, rc := range chunks {
		if rc.ev.DocID == docID {
			return true
		}
	}
	return false
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
