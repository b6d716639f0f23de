package local

import "github.com/supportdraft/supportdraft/text"

// numberShare scales the coverage of a question that asks how long, how much or when
// when the reply states no number: it talks about the right thing without the answer.
const numberShare = 0.5

// questionCoverage is how much of what the customer asks the reply answers, per asking
// sentence, averaged: the share of the sentence's words of substance (chatter excluded)
// the reply holds, halved when the sentence asks for a number and the reply states none.
// A reply that answers a related question shares few of the asked words, and a reply
// that answers one of two questions covers about half.
func questionCoverage(question, reply string) float64 {
	replyWords, replyFacts := text.StemSet(reply), text.Quantities(reply)
	var asks []string
	for _, s := range text.SplitLines(question) {
		if text.IsAsking(s) {
			asks = append(asks, s)
		}
	}
	if len(asks) == 0 {
		asks = []string{question}
	}
	total, n := 0.0, 0
	for _, a := range asks {
		var stems []string
		for _, st := range text.ContentStems(a) {
			if !chatter[st] {
				stems = append(stems, st)
			}
		}
		if len(stems) == 0 {
			continue
		}
		share := overlap(stems, replyWords)
		if asksForNumber(a) && len(replyFacts) == 0 {
			share *= numberShare
		}
		total += share
		n++
	}
	if n == 0 {
		return overlap(text.ContentStems(question), replyWords)
	}
	return total / float64(n)
}
