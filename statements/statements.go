// Package statements reads a policy corpus sentence by sentence for comparison: each
// sentence's commercial verbs, amounts and topic words, read once. Trace (package
// provenance) matches a claim against them and policy lint (package contradictions)
// compares them across documents; neither decides eligibility here.
package statements

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// Amount is one quantity as trace and policy lint compare it. Unlike the guard, which must never
// let "one month" back "30 days", trace looks for where a sentence could have come from,
// and a document that says "one month" is a source of a "30-day" claim. So months and
// years are read as days here, and marked approximate.
type Amount struct {
	Value  float64
	Unit   string // guard units, with month and year folded into day
	Text   string // as written
	Approx bool   // read from months or years
}

// AmountOf folds a guard quantity into trace's units.
func AmountOf(q text.Quantity) Amount {
	a := Amount{Value: q.Value, Unit: q.Unit, Text: q.Text}
	switch q.Unit {
	case "month":
		a.Value, a.Unit, a.Approx = q.Value*30, "day", true
	case "year":
		a.Value, a.Unit, a.Approx = q.Value*365, "day", true
	}
	return a
}

// Same reports whether a and b state the same value. Amounts read from months or years
// may differ by 2%, so that "12 months" and "one year" (360 and 365 days) agree.
func (a Amount) Same(b Amount) bool {
	if a.Unit != b.Unit {
		return false
	}
	if a.Approx || b.Approx {
		return math.Abs(a.Value-b.Value) <= 0.02*math.Max(a.Value, b.Value)
	}
	return a.Value == b.Value
}

// String renders the amount for people: "30 days", "5 business days", "19%", "12.5 EUR".
func (a Amount) String() string {
	n := strconv.FormatFloat(a.Value, 'f', -1, 64)
	plural := func(word string) string {
		if a.Value == 1 {
			return n + " " + word
		}
		return n + " " + word + "s"
	}
	switch {
	case a.Unit == "day":
		return plural("day")
	case a.Unit == "business_day":
		return plural("business day")
	case a.Unit == "hour" || a.Unit == "minute":
		return plural(a.Unit)
	case a.Unit == "percent":
		return n + "%"
	case strings.HasPrefix(a.Unit, "money:"):
		return n + " " + strings.TrimPrefix(a.Unit, "money:")
	}
	return n
}

// Describe says how the amount was read when that is not obvious: `"one month" read as
// 30 days`, `"two weeks" = 14 days`, and plainly "14 days" when it was written in digits.
func (a Amount) Describe() string {
	switch first, _ := utf8.DecodeRuneInString(a.Text); {
	case a.Approx:
		return strconv.Quote(a.Text) + " read as " + a.String()
	case unicode.IsLetter(first):
		return strconv.Quote(a.Text) + " = " + a.String()
	}
	return a.String()
}

// Statement is one sentence of one chunk of one version, read once: its commercial verbs,
// its amounts and its content words. It is the unit trace matches and policy lint compares.
type Statement struct {
	Version *policy.Version
	Chunk   *policy.Chunk
	Text    string          // the sentence as written
	Verbs   []string        // canonical commercial verbs
	Amounts []Amount        // in order of appearance
	Words   map[string]bool // content stems of the sentence
	Heading map[string]bool // content stems of the chunk's heading
}

// TopicOverlap returns the stems of topic that the sentence or its heading contains.
func (s *Statement) TopicOverlap(topic []string) []string {
	var out []string
	for _, w := range topic {
		if s.Words[w] || s.Heading[w] {
			out = append(out, w)
		}
	}
	return out
}

// Read splits every chunk of every version into sentences. The heading line that
// starts each chunk's text is kept apart: it says what the section is about, but it is
// not a sentence anyone wrote as policy.
func Read(versions []*policy.Version, vocab *guard.Vocabulary) []*Statement {
	var out []*Statement
	for _, v := range versions {
		for i := range v.Chunks {
			c := &v.Chunks[i]
			body := c.Text
			if c.Heading != "" {
				body = strings.TrimPrefix(body, c.Heading)
			}
			heading := ContentStems(c.Heading)
			for _, s := range text.Split(body) {
				st := &Statement{Version: v, Chunk: c, Text: s.Text, Verbs: vocab.Verbs(s.Text),
					Words: ContentStems(s.Text), Heading: heading}
				for _, q := range text.Quantities(s.Text) {
					st.Amounts = append(st.Amounts, AmountOf(q))
				}
				out = append(out, st)
			}
		}
	}
	return out
}

// ReadText splits a text that is not policy (a sent reply) into statements the same way;
// they have no version, chunk or heading.
func ReadText(s string, vocab *guard.Vocabulary) []*Statement {
	var out []*Statement
	for _, sen := range text.Split(s) {
		st := &Statement{Text: sen.Text, Verbs: vocab.Verbs(sen.Text), Words: ContentStems(sen.Text)}
		for _, q := range text.Quantities(sen.Text) {
			st.Amounts = append(st.Amounts, AmountOf(q))
		}
		out = append(out, st)
	}
	return out
}

// nonTopic are words that carry no topic in a policy sentence beyond the stopwords: the
// units amounts already capture, and number words.
var nonTopic = func() map[string]bool {
	set := map[string]bool{}
	for _, w := range []string{
		"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
		"twelve", "fourteen", "twenty", "thirty", "sixty", "ninety", "hundred", "day", "week",
		"month", "year", "hour", "minute", "fortnight", "business", "calendar", "working",
		"percent", "cent", "tag", "monat", "jahr", "woche", "stunde", "werktag",
	} {
		set[text.Stem(w)] = true
	}
	return set
}()

// ContentStems returns the stems of the words in s that carry a topic (text.ContentStems,
// three or more letters, not in nonTopic), so that "refunds", "refunded" and "refund" agree.
func ContentStems(s string) map[string]bool {
	out := map[string]bool{}
	for _, st := range text.ContentStems(s) {
		if len([]rune(st)) >= 3 && !nonTopic[st] {
			out[st] = true
		}
	}
	return out
}

// Jaccard is |a ∩ b| / |a ∪ b|: how much two sentences talk about the same things.
func Jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	both := 0
	for w := range a {
		if b[w] {
			both++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}
