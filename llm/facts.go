package llm

import (
	"fmt"
	"strings"
)

// fact is one number a text states, with its unit when the unit is a duration or a
// percentage: "14 days", "fourteen days" and "14-day" are all {14, day}. Currency and
// bare counts carry no unit, because "€20" and "20 EUR" must agree.
type fact struct {
	value string
	unit  string
}

func (f fact) String() string {
	if f.unit == "" {
		return f.value
	}
	return f.value + " " + f.unit
}

// units maps duration and percentage words, English and German, to one canonical unit.
var units = map[string]string{
	"day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month",
	"months": "month", "year": "year", "years": "year", "hour": "hour", "hours": "hour",
	"%": "percent", "percent": "percent", "tag": "day", "tage": "day", "tagen": "day",
	"woche": "week", "wochen": "week", "monat": "month", "monate": "month", "monaten": "month",
	"jahr": "year", "jahre": "year", "jahren": "year", "stunde": "hour", "stunden": "hour",
	"prozent": "percent", "werktage": "day", "werktagen": "day", "kalendertage": "day",
	"kalendertagen": "day",
}

// unitFillers may stand between a number and its unit ("14 calendar days").
var unitFillers = setOf("calendar", "business", "working", "full", "consecutive")

// numberWords are written-out numbers. They count only when a unit follows, since "one of
// our plans" states no number while "one month" does.
var numberWords = map[string]string{
	"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
	"eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "fourteen": "14",
	"fifteen": "15", "twenty": "20", "thirty": "30", "sixty": "60", "ninety": "90",
	"zwei": "2", "drei": "3", "vier": "4", "fünf": "5", "sechs": "6", "sieben": "7",
	"acht": "8", "neun": "9", "zehn": "10", "zwölf": "12", "vierzehn": "14", "dreißig": "30",
}

// facts returns the numbers s states, in order.
func facts(s string) []fact {
	toks := tokenize(s)
	var out []fact
	for i, t := range toks {
		value := ""
		switch {
		case t.number:
			value = normalizeNumber(t.text)
		case numberWords[t.text] != "":
			value = numberWords[t.text]
		default:
			continue
		}
		unit := unitAfter(toks, i)
		if !t.number && unit == "" {
			continue
		}
		out = append(out, fact{value: value, unit: unit})
	}
	return out
}

func unitAfter(toks []token, i int) string {
	for j := i + 1; j < len(toks) && j <= i+2; j++ {
		if u := units[toks[j].text]; u != "" {
			return u
		}
		if !unitFillers[toks[j].text] {
			return ""
		}
	}
	return ""
}

// normalizeNumber makes "1,000" and "1.000" read 1000, and "5.50" and "5,5" read 5.5: a
// separator followed by exactly three digits groups thousands, any other is a decimal point.
func normalizeNumber(n string) string {
	parts := strings.FieldsFunc(n, func(r rune) bool { return r == '.' || r == ',' })
	if len(parts) == 1 {
		return trimLeadingZeros(parts[0])
	}
	last := parts[len(parts)-1]
	if len(last) == 3 {
		return trimLeadingZeros(strings.Join(parts, ""))
	}
	whole := trimLeadingZeros(strings.Join(parts[:len(parts)-1], ""))
	frac := strings.TrimRight(last, "0")
	if frac == "" {
		return whole
	}
	return fmt.Sprintf("%s.%s", whole, frac)
}

func trimLeadingZeros(s string) string {
	t := strings.TrimLeft(s, "0")
	if t == "" {
		return "0"
	}
	return t
}

// factIn reports whether f is among have: same value, and the same unit unless one side
// names none.
func factIn(f fact, have []fact) bool {
	for _, h := range have {
		if h.value == f.value && (h.unit == f.unit || h.unit == "" || f.unit == "") {
			return true
		}
	}
	return false
}

// missingFacts lists the facts of want that have does not state.
func missingFacts(want, have []fact) []fact {
	var out []fact
	for _, f := range want {
		if !factIn(f, have) {
			out = append(out, f)
		}
	}
	return out
}

func joinFacts(fs []fact) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.String()
	}
	return strings.Join(parts, ", ")
}
