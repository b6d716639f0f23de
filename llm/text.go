package llm

import (
	"strings"
	"unicode"

	"github.com/supportdraft/supportdraft/glossary"
	"github.com/supportdraft/supportdraft/stopwords"
)

// This file holds the small amount of language handling the local providers share: content
// words with light stemming, number and duration facts, and sentence spans. It is lexical on
// purpose — predictable, explainable in a judge's reasoning, and the same on every run.

// token is one word or number of a text, lowercased.
type token struct {
	text   string
	number bool
}

// tokenize splits s into lowercase words and numbers. Digits joined by "." or "," stay one
// number ("1,000", "5.50"); "%" is kept as its own token because it is a unit.
func tokenize(s string) []token {
	var out []token
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsDigit(r):
			j := i + 1
			for j < len(rs) && (unicode.IsDigit(rs[j]) ||
				((rs[j] == '.' || rs[j] == ',') && j+1 < len(rs) && unicode.IsDigit(rs[j+1]))) {
				j++
			}
			out = append(out, token{text: string(rs[i:j]), number: true})
			i = j
		case unicode.IsLetter(r):
			j := i + 1
			for j < len(rs) && (unicode.IsLetter(rs[j]) || rs[j] == '\'' || rs[j] == '’') {
				j++
			}
			out = append(out, token{text: strings.ToLower(strings.TrimRight(string(rs[i:j]), "'’"))})
			i = j
		case r == '%':
			out = append(out, token{text: "%"})
			i++
		default:
			i++
		}
	}
	return out
}

// suffixes are stripped once, longest first, so "refunds", "refunded" and "refundable"
// meet at "refund". The result is a comparison key, not a word.
var suffixes = []string{
	"ibility", "ability", "ations", "ation", "ments", "ment", "ables", "able", "ibles", "ible",
	"ings", "ing", "ungen", "ung", "ies", "ied", "ally", "als", "al", "ers", "ed", "es", "er", "en", "ly", "s", "e",
}

// foldUmlauts lets "für" and "fuer"-less spellings like "fur" meet, and "ß" match "ss".
var foldUmlauts = strings.NewReplacer("ä", "a", "ö", "o", "ü", "u", "ß", "ss")

// stem reduces a lowercase word to its comparison key: one suffix off (keeping at least
// three letters) and a doubled final letter collapsed ("cancelled" and "cancel" agree).
func stem(w string) string {
	w = foldUmlauts.Replace(w)
	for _, suf := range suffixes {
		if strings.HasSuffix(w, suf) && len([]rune(w))-len([]rune(suf)) >= 3 {
			w = strings.TrimSuffix(w, suf)
			if suf == "ies" || suf == "ied" {
				w += "y"
			}
			break
		}
	}
	if rs := []rune(w); len(rs) >= 4 && rs[len(rs)-1] == rs[len(rs)-2] {
		w = string(rs[:len(rs)-1])
	}
	return w
}

// contentStems returns the stems of the content words of s in first-seen order, without
// duplicates, stopwords or numbers (numbers are compared as facts, not words).
func contentStems(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tokenize(phrases.Replace(strings.ToLower(s))) {
		if t.number || t.text == "%" || len([]rune(t.text)) < 2 || stopwords.Is(t.text) {
			continue
		}
		word := t.text
		if en, ok := glossary.English(word); ok {
			word = en
		}
		st := stem(word)
		if canon, ok := synonyms[st]; ok {
			st = canon
		}
		if !seen[st] {
			seen[st] = true
			out = append(out, st)
		}
	}
	return out
}

// phrases and synonyms map the few everyday ways customers name a billing concept onto
// the word policies use ("money back" is a refund, a receipt an invoice); German words go
// through package glossary first. The list is short on purpose: each entry is a lexical
// rule someone can read, not a thesaurus.
var phrases = strings.NewReplacer("money back", "refund", "charged back", "chargeback")

var synonyms = func() map[string]string {
	out := map[string]string{}
	for canonical, words := range map[string][]string{
		"refund":  {"reimburse", "reimbursed", "reimbursement", "repay", "repaid", "repayment"},
		"invoice": {"receipt", "receipts"},
		"cancel":  {"terminate", "terminated", "termination", "unsubscribe"},
		"suspend": {"suspension", "suspensions", "lock", "locked", "unlock", "unlocked", "lockout"},
	} {
		for _, w := range words {
			out[stem(w)] = stem(canonical)
		}
	}
	return out
}()

// stemSet is contentStems as a set, for membership tests.
func stemSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, st := range contentStems(s) {
		set[st] = true
	}
	return set
}

// weakStems are words every billing text shares; matching on them alone says little about
// whether a chunk answers the question, so they count half.
var weakStems = stemsOf("plan", "plans", "account", "billing", "subscription", "customer",
	"policy", "service", "product", "company", "konto", "abonnement", "tarif", "kunde")

func stemsOf(words ...string) map[string]bool {
	set := map[string]bool{}
	for _, w := range words {
		set[stem(w)] = true
	}
	return set
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
func overlap(question []string, text map[string]bool) float64 {
	var total, hit float64
	for _, st := range question {
		w := stemWeight(st)
		total += w
		if text[st] {
			hit += w
		}
	}
	if total == 0 {
		return 0
	}
	return clamp01(hit / min(total, questionFocus))
}

// coveredShare is the share of words's content stems present in text; 1 when words has none.
func coveredShare(words []string, text map[string]bool) float64 {
	if len(words) == 0 {
		return 1
	}
	n := 0
	for _, st := range words {
		if text[st] {
			n++
		}
	}
	return float64(n) / float64(len(words))
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

// normalizeSpace lowercases s and collapses runs of whitespace, the only normalisation a
// verbatim quote check allows.
func normalizeSpace(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// containsQuote reports whether quote occurs in text, whitespace-normalised and
// case-insensitive. An empty quote never does.
func containsQuote(text, quote string) bool {
	q := normalizeSpace(quote)
	return q != "" && strings.Contains(normalizeSpace(text), q)
}

// span is one sentence of a text, as a byte range, so callers can quote the original
// verbatim instead of a rebuilt string.
type span struct{ start, end int }

// sentenceSpans splits text into sentences: at line breaks (list items, paragraphs) and
// after ".", "!" or "?" when whitespace and an uppercase letter, digit or quote follow.
// Abbreviations like "e.g. the" and decimals like "5.50" therefore stay inside a sentence.
func sentenceSpans(text string) []span {
	var out []span
	add := func(a, b int) {
		for a < b && isSpaceByte(text[a]) {
			a++
		}
		for b > a && isSpaceByte(text[b-1]) {
			b--
		}
		// Markdown list markers are not part of the sentence.
		for _, marker := range []string{"- ", "* ", "• "} {
			if strings.HasPrefix(text[a:b], marker) {
				a += len(marker)
			}
		}
		if a < b {
			out = append(out, span{a, b})
		}
	}
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' {
			add(start, i)
			start = i + 1
			continue
		}
		if (c == '.' || c == '!' || c == '?') && i+2 < len(text) && (text[i+1] == ' ' || text[i+1] == '\t') {
			next := []rune(strings.TrimLeft(text[i+1:], " \t"))
			if len(next) > 0 && (unicode.IsUpper(next[0]) || unicode.IsDigit(next[0]) || next[0] == '"' || next[0] == '„') {
				add(start, i+1)
				start = i + 1
			}
		}
	}
	add(start, len(text))
	return out
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// sentences returns the sentence strings of text.
func sentences(text string) []string {
	var out []string
	for _, sp := range sentenceSpans(text) {
		out = append(out, text[sp.start:sp.end])
	}
	return out
}

// isGerman guesses whether text is German by counting German against English function
// words. It decides only the greeting and closing language, so a rough guess is enough.
func isGerman(text string) bool {
	de, en := 0, 0
	for _, t := range tokenize(text) {
		if germanMarkers[t.text] {
			de++
		}
		if englishMarkers[t.text] {
			en++
		}
	}
	return de > en
}

var germanMarkers = setOf("der", "die", "das", "und", "ist", "nicht", "sie", "ihr", "ihre",
	"wir", "mit", "für", "auf", "eine", "einen", "werden", "wird", "können", "innerhalb", "nach", "bei", "zu")

var englishMarkers = setOf("the", "and", "is", "not", "you", "your", "we", "with", "for",
	"on", "a", "an", "will", "can", "within", "after", "at", "to", "of")

func setOf(words ...string) map[string]bool {
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	return set
}
