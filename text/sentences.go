package text

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentence is one sentence of a text. Start and End are byte offsets into the text that
// was split, already trimmed of surrounding white space, so Text == text[Start:End].
type Sentence struct {
	Text       string
	Start, End int
}

// neverFinal lists abbreviations (lower case, with their final period) that are followed
// by more of the same sentence even when the next word is capitalised ("Dr. Müller",
// "e.g. Visa"). Abbreviations that may end a sentence ("etc.", "Inc.", "usw.") are not
// listed: the lower-case rule in isBoundary keeps "Acme Inc. is" together, and a capital
// after them is the best evidence there is that a new sentence starts.
var neverFinal = map[string]bool{
	"e.g.": true, "i.e.": true, "cf.": true, "vs.": true, "approx.": true, "incl.": true,
	"excl.": true, "mr.": true, "mrs.": true, "ms.": true, "dr.": true, "prof.": true,
	"st.": true, "z.b.": true, "d.h.": true, "bzw.": true, "ca.": true, "ggf.": true,
	"inkl.": true, "vgl.": true, "evtl.": true, "u.a.": true, "z.t.": true, "sog.": true,
	"viz.": true,
}

// numberAbbrev reports whether word (as written, with its period) is an abbreviation that
// continues the sentence before a number: a capital and one or two lower-case letters, as
// in "No. 5", "Nr. 12", "Rs. 25,000" or "Fr. 20". "No. We cannot." is still two sentences:
// the rule asks for a digit next.
func numberAbbrev(word string) bool {
	letters := []rune(strings.TrimSuffix(word, "."))
	if len(letters) < 2 || len(letters) > 3 || !unicode.IsUpper(letters[0]) {
		return false
	}
	for _, r := range letters[1:] {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// Split cuts text into sentences. Lines matter: a blank line always ends a sentence, a
// list item (bullet or number) is a sentence of its own, and any other single newline is
// just white space inside a sentence, because drafts wrap lines. Inside a paragraph a
// sentence ends at ".", "!", "?" or an ellipsis (plus closing quotes or brackets) followed
// by white space and an upper-case letter, a digit, a currency sign or an opening quote,
// unless an abbreviation says otherwise; a terminator followed directly by a non-space
// (decimals, versions, URLs, e-mails) ends one only where a sentence is glued to the next
// (gluedSentence). Every non-space byte of text lands in exactly one sentence.
func Split(text string) []Sentence {
	var out []Sentence
	segStart, segItem := -1, false
	closeSegment := func(end int) {
		if segStart < 0 {
			return
		}
		if segItem {
			out = appendTrimmed(out, text, segStart, end)
		} else {
			out = splitParagraph(out, text, segStart, end)
		}
		segStart, segItem = -1, false
	}
	for lineStart := 0; lineStart < len(text); {
		lineEnd := len(text)
		if n := strings.IndexByte(text[lineStart:], '\n'); n >= 0 {
			lineEnd = lineStart + n
		}
		line := text[lineStart:lineEnd]
		blank := strings.TrimSpace(line) == ""
		item := !blank && ListMarker(line) > 0
		if blank || item || segItem {
			closeSegment(lineStart)
		}
		if !blank && segStart < 0 {
			segStart, segItem = lineStart, item
		}
		lineStart = lineEnd + 1
	}
	closeSegment(len(text))
	return out
}

// splitParagraph appends the sentences of text[start:end], a run of lines with no blank
// line and no list item in it. A list written inline ("to the following: 1. Salaried
// individuals 2. Self-employed individuals") is cut before each of its numbers, as a list
// on lines is, and their periods end nothing.
func splitParagraph(out []Sentence, text string, start, end int) []Sentence {
	sentStart := start
	items := inlineItems(text, start, end)
	for i := start; i < end; {
		if len(items) > 0 && i == items[0] {
			out = appendTrimmed(out, text, sentStart, i)
			sentStart = i
			i += strings.IndexByte(text[i:end], '.') + 1 // the item's number and its period
			items = items[1:]
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:end])
		if !IsTerminator(r) {
			i += size
			continue
		}
		j := i
		for j < end {
			r, size := utf8.DecodeRuneInString(text[j:end])
			if !IsTerminator(r) {
				break
			}
			j += size
		}
		for j < end {
			r, size := utf8.DecodeRuneInString(text[j:end])
			if !isCloser(r) {
				break
			}
			j += size
		}
		if isBoundary(text, sentStart, i, j, end) {
			out = appendTrimmed(out, text, sentStart, j)
			sentStart = j
		}
		i = j
	}
	return appendTrimmed(out, text, sentStart, end)
}

// inlineItems returns where the numbers of a list written inside text[start:end] start:
// "1. " after a colon, then "2. ", … in order, each after white space and before a
// capital or a digit, at least two of them. Other numbers with a period between them
// ("day 7. After") are no item of it.
func inlineItems(text string, start, end int) []int {
	var items, run []int
	next := 1
	for i := start; i < end; i++ {
		c := text[i]
		if c < '0' || c > '9' || (i > start && !unicode.IsSpace(rune(text[i-1]))) {
			continue
		}
		j := i
		for j < end && j-i < 2 && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		n, _ := strconv.Atoi(text[i:j])
		if j+2 >= end || text[j] != '.' || text[j+1] != ' ' {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(text[j+2 : end]); !unicode.IsUpper(r) && !unicode.IsDigit(r) {
			continue
		}
		switch n {
		case 1:
			if !strings.HasSuffix(strings.TrimRightFunc(text[start:i], unicode.IsSpace), ":") {
				continue // a list opens after a colon; "day 1. Then" is a sentence's end
			}
			if len(run) >= 2 {
				items = append(items, run...)
			}
			run, next = []int{i}, 2
		case next:
			run, next = append(run, i), next+1
		}
	}
	if len(run) >= 2 {
		items = append(items, run...)
	}
	return items
}

// isBoundary reports whether the terminators at text[i:j] end the sentence that began at
// start. The paragraph ends at end.
func isBoundary(text string, start, i, j, end int) bool {
	if j == end {
		return true
	}
	if r, _ := utf8.DecodeRuneInString(text[j:end]); !unicode.IsSpace(r) {
		return gluedSentence(text, start, i, j, end) // 1.5, v2.4.1, example.com, a@b.de, "?!x" are not
	}
	rest := strings.TrimLeftFunc(text[j:end], unicode.IsSpace)
	if rest == "" {
		return true
	}
	next, _ := utf8.DecodeRuneInString(rest)
	if !unicode.IsUpper(next) && !unicode.IsDigit(next) && !unicode.Is(unicode.Sc, next) && !strings.ContainsRune(`"„“«`, next) {
		return false // "approx. five", "Acme Inc. is", "wait… what", "ok? (invoice 12)", "Tel. +49"
	}
	if text[i:j] != "." {
		return true // "!", "?", "...", "…" and closers before a capital
	}
	word := text[start:j]
	if k := strings.LastIndexFunc(text[start:i], unicode.IsSpace); k >= 0 {
		_, size := utf8.DecodeRuneInString(word[k:])
		word = word[k+size:]
	}
	written := strings.TrimLeft(word, `("'“‘«[`)
	word = strings.ToLower(written)
	if neverFinal[word] || spacedAbbrev(strings.ToLower(text[start:j]), strings.ToLower(rest)) || ordinalDate(word, rest) {
		return false
	}
	return !(numberAbbrev(written) && next >= '0' && next <= '9')
}

// gluedSentence reports whether the period at text[i:j] ends a sentence that the next
// one is glued to without a space, as text copied from web pages often is ("address
// proof.Click here"): a word of two or more lower-case letters before it, a capitalised
// word after it, and no address around it (a URL, an e-mail, "www.").
func gluedSentence(text string, start, i, j, end int) bool {
	if text[i:j] != "." || i-start < 2 {
		return false
	}
	last, size := utf8.DecodeLastRuneInString(text[start:i])
	last2, _ := utf8.DecodeLastRuneInString(text[start : i-size])
	if !unicode.IsLower(last) || !unicode.IsLower(last2) {
		return false
	}
	first, size := utf8.DecodeRuneInString(text[j:end])
	second, _ := utf8.DecodeRuneInString(text[j+size : end])
	if !unicode.IsUpper(first) || !unicode.IsLower(second) {
		return false
	}
	before := strings.Fields(text[start:i])
	token := strings.ToLower(before[len(before)-1] + "." + strings.Fields(text[j:end])[0])
	return !strings.ContainsAny(token, "/@:\\") && !strings.HasPrefix(token, "www.")
}

// spacedAbbrevs are German abbreviations written with a space inside ("z. B.", "d. h."):
// neither of their periods ends a sentence, though a capital may follow either.
var spacedAbbrevs = []string{"z. b.", "d. h.", "u. a.", "z. t.", "u. u.", "o. ä."}

// spacedAbbrev reports whether the period that ends before (the sentence so far, lower
// case) is one of the two periods of a spaced abbreviation, given the rest of the
// paragraph after it (lower case).
func spacedAbbrev(before, rest string) bool {
	for _, a := range spacedAbbrevs {
		first, second, _ := strings.Cut(a, " ")
		if (before == first || strings.HasSuffix(before, " "+first)) && strings.HasPrefix(rest, second) {
			return true // the first period: "z." before "B."
		}
		if before == a || strings.HasSuffix(before, " "+a) {
			return true // the second period: "z. B." before "Pro"
		}
	}
	return false
}

// months are the month names, English and German, that a day written as an ordinal with
// a period precedes: "am 1. März", "from the 14. January".
var months = map[string]bool{
	"january": true, "february": true, "march": true, "april": true, "may": true, "june": true,
	"july": true, "august": true, "september": true, "october": true, "november": true, "december": true,
	"januar": true, "jänner": true, "februar": true, "märz": true, "mai": true, "juni": true,
	"juli": true, "oktober": true, "dezember": true,
}

// ordinalDate reports whether word (lower case, with its period) is a day of one or two
// digits written as an ordinal and rest, the paragraph after it, starts with a month
// name: the period of "1. März" belongs to the date.
func ordinalDate(word, rest string) bool {
	day := strings.TrimSuffix(word, ".")
	if day == "" || len(day) > 2 || strings.Trim(day, "0123456789") != "" {
		return false
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(rest)
	}
	return months[strings.ToLower(rest[:end])]
}

func IsTerminator(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '…' }

// EndSentence returns s ending as a sentence: a list item, table row or lead-in ("Here's
// how:") copied without a full stop gets one, so that in a reply of quoted sentences it
// does not run into the next one and make a single sentence of two sources.
func EndSentence(s string) string {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	body := strings.TrimRightFunc(s, isCloser)
	last, _ := utf8.DecodeLastRuneInString(body)
	switch {
	case body == "" || IsTerminator(last):
		return s
	case len(body) == len(s) && (last == ':' || last == ';' || last == ','):
		return s[:len(s)-1] + "."
	}
	return s + "."
}

func isCloser(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '}', '”', '’', '»', '«':
		return true
	}
	return false
}

// appendTrimmed appends text[start:end] without its surrounding white space, if anything
// is left.
func appendTrimmed(out []Sentence, text string, start, end int) []Sentence {
	s := text[start:end]
	trimmedLeft := strings.TrimLeftFunc(s, unicode.IsSpace)
	start += len(s) - len(trimmedLeft)
	trimmed := strings.TrimRightFunc(trimmedLeft, unicode.IsSpace)
	if trimmed == "" {
		return out
	}
	return append(out, Sentence{Text: trimmed, Start: start, End: start + len(trimmed)})
}

// listMarker returns the length in bytes of the list marker that starts line, with the
// indentation before it and the white space after it, or 0 if line is not a list item.
// Markers are bullets ("-", "*", "+", "•", "◦", "·", "–") and "1." / "1)" / "a)".
func ListMarker(line string) int {
	body := strings.TrimLeft(line, " \t")
	indent := len(line) - len(body)
	r, size := utf8.DecodeRuneInString(body)
	n := 0
	switch {
	case strings.ContainsRune("-*+•◦·–", r):
		n = size
	case r >= '0' && r <= '9':
		for n < len(body) && n < 3 && body[n] >= '0' && body[n] <= '9' {
			n++
		}
		if n == len(body) || (body[n] != '.' && body[n] != ')') {
			return 0
		}
		n++
	case r < utf8.RuneSelf && unicode.IsLetter(r) && len(body) > 1 && body[1] == ')':
		n = 2
	default:
		return 0
	}
	rest := body[n:]
	after := strings.TrimLeft(rest, " \t")
	if len(after) == len(rest) {
		return 0 // "-5 EUR", "*bold*", "1.5%"
	}
	return indent + n + len(rest) - len(after)
}

// SplitLines splits text whose every line is a block of its own (a chunk's heading,
// paragraphs and list items, or the lines of a message as the local drafter reads them):
// each line is cut by Split, and list markers are dropped, so a quoted item reads as a
// sentence.
func SplitLines(s string) []string {
	out, _ := SplitLinesNumbered(s)
	return out
}

// SplitLinesNumbered is SplitLines that also says, for each sentence, which line
// (paragraph or list item) it stands on: the local drafter quotes a short paragraph whole.
func SplitLinesNumbered(s string) (sentences []string, lines []int) {
	for li, line := range strings.Split(s, "\n") {
		for _, sen := range Split(line) {
			sentences = append(sentences, sen.Text[ListMarker(sen.Text):])
			lines = append(lines, li)
		}
	}
	return sentences, lines
}

// IsAsking reports whether a sentence asks something: it ends in a question mark or
// opens like a question, in English or German ("how ", "kann ", "gibt es").
func IsAsking(s string) bool {
	t := strings.TrimSpace(s)
	if strings.HasSuffix(t, "?") {
		return true
	}
	lower := strings.ToLower(t)
	for _, p := range askingOpeners {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}

var askingOpeners = []string{"how ", "what ", "when ", "can ", "could ", "do ", "does ", "is ", "are ",
	"will ", "why ", "which ", "where ", "please tell", "wie ", "was ", "wann ", "kann ", "können ",
	"gibt es", "bekomme", "ist ", "muss "}
