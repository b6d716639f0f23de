package local

import (
	"slices"
	"strings"

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
// fewer than contextWords itself. The share of the subject the reply holds counts: a word
// is held when the reply, or the titles and headings of the sections it quotes (sections),
// hold it or a word one typo away. A sentence that asks for a quantity (how long, how
// much, how many) whose kind the reply does not state covers half its share. A question
// that asks nothing in so many words counts whole, as one sentence.
func questionCoverage(question, reply, sections string) float64 {
	said := text.StemSet(reply + "\n" + sections)
	facts := text.Quantities(reply)
	total, n := 0.0, 0
	for _, a := range askedSubjects(question) {
		if len(a.subject) == 0 {
			continue
		}
		share := heldShare(a.subject, said)
		if units := askedUnits(a.sentence); len(units) > 0 && !statesUnit(facts, units) {
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

// asksForNumber reports whether the question asks for a duration, an amount or a count,
// which the policy states as a number.
func asksForNumber(s string) bool { return len(askedUnits(s)) > 0 }

// askedUnits are the units (text.Quantity's, currencies folded to "money") that answer
// what a question asks: a duration for how long or when, an amount or a percentage for
// how much, any quantity for how many. None for a question that asks for no number.
func askedUnits(s string) map[string]bool {
	lower := " " + text.Fold(s) + " "
	units := map[string]bool{}
	for _, k := range quantityAsks {
		for _, p := range k.phrases {
			if strings.Contains(lower, p) {
				for _, u := range k.units {
					units[u] = true
				}
				break
			}
		}
	}
	return units
}

var (
	durationUnits = []string{"day", "business_day", "hour", "minute", "month", "year"}
	amountUnits   = []string{"money", "percent"}
)

// quantityAsks are the phrases that ask for a quantity, by the kind of quantity that
// answers them.
var quantityAsks = []struct {
	phrases []string
	units   []string
}{
	{[]string{" how long", " how quickly", " how fast", " how soon", " when ", " how far back", " how old",
		" how much notice", " how much time", " deadline", " wie lange", " wann ", " wie schnell", " bis wann", " frist"}, durationUnits},
	{[]string{" how much", " what percentage", " what rate", " what discount", " what price", " wie viel", " wieviel",
		" wie hoch", " welcher satz"}, amountUnits},
	{[]string{" how many", " how often", " wie oft"}, append(append([]string{"count"}, durationUnits...), amountUnits...)},
}

// statesUnit reports whether one of qs is in one of units.
func statesUnit(qs []text.Quantity, units map[string]bool) bool {
	for _, q := range qs {
		unit, _, _ := strings.Cut(q.Unit, ":")
		if units[unit] {
			return true
		}
	}
	return false
}
