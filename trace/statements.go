package trace

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// amount is one quantity as trace and lint compare it. Unlike the guard, which must never
// let "one month" back "30 days", trace looks for where a sentence could have come from,
// and a document that says "one month" is a source of a "30-day" claim. So months and
// years are read as days here, and marked approximate.
type amount struct {
	value  float64
	unit   string // guard units, with month and year folded into day
	text   string // as written
	approx bool   // read from months or years
}

// amountOf folds a guard quantity into trace's units.
func amountOf(q text.Quantity) amount {
	a := amount{value: q.Value, unit: q.Unit, text: q.Text}
	switch q.Unit {
	case "month":
		a.value, a.unit, a.approx = q.Value*30, "day", true
	case "year":
		a.value, a.unit, a.approx = q.Value*365, "day", true
	}
	return a
}

// same reports whether a and b state the same value. Amounts read from months or years
// may differ by 2%, so that "12 months" and "one year" (360 and 365 days) agree.
func (a amount) same(b amount) bool {
	if a.unit != b.unit {
		return false
	}
	if a.approx || b.approx {
		return math.Abs(a.value-b.value) <= 0.02*math.Max(a.value, b.value)
	}
	return a.value == b.value
}

// String renders the amount for people: "30 days", "5 business days", "19%", "12.5 EUR".
func (a amount) String() string {
	n := strconv.FormatFloat(a.value, 'f', -1, 64)
	plural := func(word string) string {
		if a.value == 1 {
			return n + " " + word
		}
		return n + " " + word + "s"
	}
	switch {
	case a.unit == "day":
		return plural("day")
	case a.unit == "business_day":
		return plural("business day")
	case a.unit == "hour" || a.unit == "minute":
		return plural(a.unit)
	case a.unit == "percent":
		return n + "%"
	case strings.HasPrefix(a.unit, "money:"):
		return n + " " + strings.TrimPrefix(a.unit, "money:")
	}
	return n
}

// describe says how the amount was read when that is not obvious: `"one month" read as
// 30 days`, `"two weeks" = 14 days`, and plainly "14 days" when it was written in digits.
func (a amount) describe() string {
	switch first, _ := utf8.DecodeRuneInString(a.text); {
	case a.approx:
		return strconv.Quote(a.text) + " read as " + a.String()
	case unicode.IsLetter(first):
		return strconv.Quote(a.text) + " = " + a.String()
	}
	return a.String()
}

// statement is one sentence of one chunk of one version, read once: its commercial verbs,
// its amounts and its content words. It is the unit trace matches and lint compares.
type statement struct {
	version *policy.Version
	chunk   *policy.Chunk
	text    string          // the sentence as written
	verbs   []string        // canonical commercial verbs
	amounts []amount        // in order of appearance
	words   map[string]bool // content stems of the sentence
	heading map[string]bool // content stems of the chunk's heading
}

// topicOverlap returns the stems of topic that the sentence or its heading contains.
func (s *statement) topicOverlap(topic []string) []string {
	var out []string
	for _, w := range topic {
		if s.words[w] || s.heading[w] {
			out = append(out, w)
		}
	}
	return out
}

// statements splits every chunk of every version into sentences. The heading line that
// starts each chunk's text is kept apart: it says what the section is about, but it is
// not a sentence anyone wrote as policy.
func statements(versions []*policy.Version, vocab *guard.Vocabulary) []*statement {
	var out []*statement
	for _, v := range versions {
		for i := range v.Chunks {
			c := &v.Chunks[i]
			body := c.Text
			if c.Heading != "" {
				body = strings.TrimPrefix(body, c.Heading)
			}
			heading := contentStems(c.Heading)
			for _, s := range text.Split(body) {
				st := &statement{version: v, chunk: c, text: s.Text, verbs: vocab.Verbs(s.Text),
					words: contentStems(s.Text), heading: heading}
				for _, q := range text.Quantities(s.Text) {
					st.amounts = append(st.amounts, amountOf(q))
				}
				out = append(out, st)
			}
		}
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

// contentStems returns the stems of the words in s that carry a topic (text.ContentStems,
// three or more letters, not in nonTopic), so that "refunds", "refunded" and "refund" agree.
func contentStems(s string) map[string]bool {
	out := map[string]bool{}
	for _, st := range text.ContentStems(s) {
		if len([]rune(st)) >= 3 && !nonTopic[st] {
			out[st] = true
		}
	}
	return out
}

// jaccard is |a ∩ b| / |a ∪ b|: how much two sentences talk about the same things.
func jaccard(a, b map[string]bool) float64 {
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

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
