package local

import (
	"maps"
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// The local providers read text lexically through package text (content stems, sentences,
// quantities) and weigh the overlap of a question with a text here. It is lexical on
// purpose: predictable, explainable in a judge's reasoning, and the same on every run.

// weakStems are words every billing text shares; matching on them alone says little about
// whether a chunk answers the question, so they count half.
var weakStems = stemsOf("plan", "plans", "account", "billing", "subscription", "customer",
	"policy", "service", "product", "company", "konto", "abonnement", "tarif", "kunde")

func stemsOf(words ...string) map[string]bool {
	set := map[string]bool{}
	for _, w := range words {
		set[text.Stem(w)] = true
	}
	return set
}

// union is a set holding the members of both.
func union(a, b map[string]bool) map[string]bool {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

func stemWeight(st string) float64 {
	if weakStems[st] {
		return 0.5
	}
	return 1
}

// questionFocus caps how many content words of a question a text must match to count as a
// full match: a long, chatty email is about a handful of words, and the rest should not
// dilute the overlap of an otherwise exact section.
const questionFocus = 4.0

// overlap is the weighted share of the question's content words that text contains, with
// the denominator capped at questionFocus. It is the lexical relevance both local
// providers use, so the drafter's choice and the judge's coverage agree.
func overlap(question []string, words map[string]bool) float64 {
	var total, hit float64
	for _, st := range question {
		w := stemWeight(st)
		total += w
		if words[st] {
			hit += w
		}
	}
	if total == 0 {
		return 0
	}
	return clamp01(hit / min(total, questionFocus))
}

// coveredShare is the share of words's content stems present in have; 1 when words has none.
func coveredShare(words []string, have map[string]bool) float64 {
	if len(words) == 0 {
		return 1
	}
	return float64(heldCount(words, have)) / float64(len(words))
}

// heldCount is how many of stems have holds.
func heldCount(stems []string, have map[string]bool) int {
	n := 0
	for _, st := range stems {
		if have[st] {
			n++
		}
	}
	return n
}

func clamp01(x float64) float64 {
	switch {
	case x != x || x < 0: // NaN counts as nothing
		return 0
	case x > 1:
		return 1
	}
	return x
}

// containsQuote reports whether quote occurs in chunkText, compared as text.Fold reads
// both. An empty quote never does.
func containsQuote(chunkText, quote string) bool {
	q := text.Fold(quote)
	return q != "" && strings.Contains(text.Fold(chunkText), q)
}
