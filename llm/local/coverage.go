package local

import (
	"slices"

	"github.com/supportdraft/supportdraft/text"
)

// numberShare scales the coverage of a question that asks how long, how much or how many
// when the reply states no quantity of that kind: it talks about the right thing without
// the answer ("Refunds are possible within the refund window" to "How long do I have?").
const numberShare = 0.5

// contextWords is how many words of substance a question needs to name its own subject.
// One with fewer ("Is that refundable?", "What is the current rate?", "Wie geht das?")
// is about what the sentence before it and the subject line name.
const contextWords = 2

// questionCoverage is how much of what the customer asks the reply answers: for each
// asking sentence of the question, whether the reply gives that kind of answer about that
// subject, averaged over the sentences, so a reply to one of two questions covers about
// half. A sentence's subject is its words of substance (chatter excluded), with those of
// the sentence before it and of the subject line (the question's first line) when it names
// fewer than contextWords itself. The share of the subject the reply holds counts, a word
// one typo away from one of the reply's counting as held. A sentence that asks for a
// number (askedKinds) whose kind the reply does not state covers half its share. A
// question that asks nothing in so many words counts whole, as one sentence.
func questionCoverage(question, reply string) float64 {
	said := text.StemSet(reply)
	total, n := 0.0, 0
	for _, a := range askedSubjects(question) {
		if len(a.subject) == 0 {
			continue
		}
		share := heldShare(a.subject, said)
		if kinds := askedKinds(a.sentence); kinds != 0 && !statesKind(reply, kinds) {
			share *= numberShare
		}
		total += share
		n++
	}
	if n == 0 {
		return 0
	}
	return total / float64(n)
}

// askedSubject is one asking sentence of a question and the words of substance it asks about.
type askedSubject struct {
	sentence string
	subject  []string
}

// askedSubjects reads the asking sentences of a question with their subjects (see
// questionCoverage); a question without one is one sentence, asking about all of it.
func askedSubjects(question string) []askedSubject {
	lines := text.SplitLines(question)
	if len(lines) == 0 {
		return nil
	}
	topicLine := lines[0]
	var out []askedSubject
	before := "" // the last sentence before this one that names something
	for i, s := range lines {
		own := substanceStems(s)
		if text.IsAsking(s) {
			subject := own
			if len(own) < contextWords && i > 0 {
				subject = appendNew(subject, substanceStems(before+"\n"+topicLine)...)
			}
			out = append(out, askedSubject{sentence: s, subject: subject})
		}
		if len(own) > 0 {
			before = s
		}
	}
	if len(out) == 0 {
		out = append(out, askedSubject{sentence: question, subject: substanceStems(question)})
	}
	return out
}

// heldShare is overlap with typo tolerance: the weighted share of subject that said holds,
// a word one typo away from one of said counting as held ("transfeers").
func heldShare(subject []string, said map[string]bool) float64 {
	var total, hit float64
	for _, st := range subject {
		w := stemWeight(st)
		total += w
		if said[st] || nearWord(st, said) {
			hit += w
		}
	}
	if total == 0 {
		return 0
	}
	return clamp01(hit / min(total, questionFocus))
}

// appendNew appends the stems of more that list does not hold yet.
func appendNew(list []string, more ...string) []string {
	for _, m := range more {
		if !slices.Contains(list, m) {
			list = append(list, m)
		}
	}
	return list
}
