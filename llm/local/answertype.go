package local

import (
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// A question's form says what kind of sentence answers it, whatever the corpus: "How do
// I add a VAT number?" is answered by a step the customer takes ("Open any invoice and
// click Add address"), not by a sentence about VAT that shares as many words. How long,
// how much and when are read as kinds of number (numbers.go).

// stepAsks are the ways a question asks for steps.
var stepAsks = []string{"how do ", "how can ", "how to ", "how would ", "how should ", "how does one ",
	"where do ", "where can ", "what steps", "wie kann ", "wie können "}

// asksSteps reports whether an asking clause of the text asks how to do something.
func asksSteps(clauses []string) bool {
	for _, c := range clauses {
		if !text.IsAsking(c) {
			continue
		}
		lower := " " + text.Fold(c)
		for _, p := range stepAsks {
			if strings.Contains(lower, " "+p) {
				return true
			}
		}
	}
	return false
}

// verbSecond are the words that, second in a sentence, make its first word a subject
// ("Plausible is…", "Paddle will…"), not a command.
var verbSecond = map[string]bool{"is": true, "are": true, "was": true, "were": true, "has": true, "have": true,
	"had": true, "will": true, "can": true, "may": true, "must": true, "does": true, "do": true, "did": true,
	"should": true, "would": true, "could": true, "also": true, "only": true, "and": true, "or": true}

// isStep reports whether a sentence reads as a command ("Go to the Subscription section",
// "Open any invoice from Paddle"): its first word is no function word and does not end
// in "s" (a plural or a verb with a subject: "Teams have", "Invoices are"), and its
// second word is a function word that is not a verb, so the first is not a subject.
func isStep(sentence string) bool {
	words := strings.Fields(text.Fold(sentence))
	if len(words) < 3 {
		return false
	}
	first, second := strings.Trim(words[0], ",.;:*"), strings.Trim(words[1], ",.;:*")
	if first == "" || text.IsStopword(first) || strings.HasSuffix(first, "s") {
		return false
	}
	return text.IsStopword(second) && !verbSecond[second]
}
