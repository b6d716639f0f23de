package text

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/supportdraft/supportdraft/text/memo"
)

// Token is one word or number of a text, lowercased.
type Token struct {
	Text   string
	Number bool
}

// Tokenize splits s into lowercase words and numbers. Digits joined by "." or "," stay one
// number ("1,000", "5.50"); "%" is kept as its own token because it is a unit.
func Tokenize(s string) []Token {
	var out []Token
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
			out = append(out, Token{Text: string(rs[i:j]), Number: true})
			i = j
		case unicode.IsLetter(r):
			j := i + 1
			for j < len(rs) && (unicode.IsLetter(rs[j]) || rs[j] == '\'' || rs[j] == '’') {
				j++
			}
			out = append(out, Token{Text: strings.ToLower(strings.TrimRight(string(rs[i:j]), "'’"))})
			i = j
		case r == '%':
			out = append(out, Token{Text: "%"})
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

// Stem reduces a lowercase word to its comparison key: one suffix off (keeping at least
// three letters) and a doubled final letter collapsed ("cancelled" and "cancel" agree).
func Stem(w string) string {
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

// ContentStems returns the stems of the content words of s in first-seen order, without
// duplicates, stopwords or numbers (numbers are compared as quantities, not words). German
// billing words are read as their English policy word first (see English), and the few
// everyday names of a billing concept as the word policies use.
//
// The answer is remembered (see stemsOf) and shared: callers must not modify it.
func ContentStems(s string) []string {
	return stemsOf.Get(s, func() []string { return slices.Clip(contentStems(s)) })
}

// stemsOf remembers ContentStems for up to 8 MB of text (a few MB of stems). A draft's
// chunks and ticket are stemmed by retrieval's re-rank, the drafter, the judge, the guard
// and the scorer, and a chunk again by every draft that cites it, so stemming is worth
// remembering. Answers are clipped, so a caller's append
// copies rather than writes here.
var stemsOf = memo.New[[]string](8 << 20)

// ReadPhrases lowercases s and rewrites the everyday multi-word names of a billing concept
// as the policy word ("run out" → "expire"), as ContentStems reads it. A caller that
// reads a text word by word starts from it, or "run out" is read as "run".
func ReadPhrases(s string) string { return phrases.Replace(strings.ToLower(s)) }

func contentStems(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range Tokenize(ReadPhrases(s)) {
		if t.Number || t.Text == "%" || len([]rune(t.Text)) < 2 || IsStopword(t.Text) {
			continue
		}
		word := strings.TrimSuffix(strings.TrimSuffix(t.Text, "'s"), "’s") // "this month's charge"
		if en, ok := English(word); ok {
			word = en
		}
		st := Stem(word)
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

// StemSet is ContentStems as a set, for membership tests.
func StemSet(s string) map[string]bool {
	return setOf(ContentStems(s)...)
}

// Fold lower-cases s, straightens apostrophes and collapses runs of white space to one
// space: the only normalisation a verbatim comparison of two wordings allows.
func Fold(s string) string {
	return CollapseSpace(strings.Map(FoldRune, s))
}

// FoldRune maps a rune to the form used for comparison: lower case, and the typographic
// apostrophe that word processors insert as the plain one. Fold is it over a
// string, with white space collapsed; a matcher that walks runes uses it directly.
func FoldRune(r rune) rune {
	switch {
	case r >= 'A' && r <= 'Z':
		return r + 'a' - 'A'
	case r < utf8.RuneSelf:
		return r
	case r == '’':
		return '\''
	}
	return unicode.ToLower(r)
}

// CollapseSpace trims s and collapses every run of white space, line breaks included, to
// one space, keeping case.
func CollapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// LooksGerman guesses whether text is German by counting German against English function
// words. It is a rough guess, good enough to pick the language of a greeting.
func LooksGerman(text string) bool {
	de, en := 0, 0
	for _, t := range Tokenize(text) {
		if germanMarkers[t.Text] {
			de++
		}
		if englishMarkers[t.Text] {
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

// Words lowercases s and splits it into runs of letters and digits, keeping umlauts and ß:
// the words the hashing embedder and the full-text query index.
func Words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// WordSpan is one word of a text with its byte offsets, so text[Start:End] is the word as
// written; Word is its folded form (Fold) for comparison.
type WordSpan struct {
	Word       string
	Start, End int
}

// WordSpans splits s into runs of letters and digits, an apostrophe between two letters
// staying inside its word ("don't"), and keeps where each stands in s: a matcher can then
// name the span it found in the original text, whatever case or apostrophe it was written
// with.
func WordSpans(s string) []WordSpan {
	var out []WordSpan
	start := -1
	var b strings.Builder
	inWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i, r := range s {
		switch {
		case inWord(r):
			if start < 0 {
				start = i
				b.Reset()
			}
			b.WriteRune(FoldRune(r))
		case start >= 0 && (r == '\'' || r == '’'):
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			if unicode.IsLetter(next) {
				b.WriteRune('\'')
				continue
			}
			out = append(out, WordSpan{Word: b.String(), Start: start, End: i})
			start = -1
		default:
			if start >= 0 {
				out = append(out, WordSpan{Word: b.String(), Start: start, End: i})
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, WordSpan{Word: b.String(), Start: start, End: len(s)})
	}
	return out
}
