// Package redact takes personal data out of ticket text before it goes to a remote model:
// email addresses, phone numbers, card numbers, IBAN-like account numbers and the names
// the account is known by each become a placeholder such as [EMAIL_1]. The Table that
// maps placeholders back stays in the worker that made the call and is never sent; the
// model's answer is restored through it, so the agent sees the real values.
package redact

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Table maps each placeholder to the value it hides; equal values share one placeholder,
// so the model can still tell that two mentions are the same address.
type Table struct {
	byValue map[string]string
	byKey   map[string]string
	counts  map[string]int
}

// NewTable returns an empty table.
func NewTable() *Table {
	return &Table{byValue: map[string]string{}, byKey: map[string]string{}, counts: map[string]int{}}
}

// Len is how many values the table hides.
func (t *Table) Len() int { return len(t.byKey) }

func (t *Table) placeholder(kind, value string) string {
	if p, ok := t.byValue[kind+"\x00"+value]; ok {
		return p
	}
	t.counts[kind]++
	p := fmt.Sprintf("[%s_%d]", kind, t.counts[kind])
	t.byValue[kind+"\x00"+value] = p
	t.byKey[p] = value
	return p
}

// Restore puts the hidden values back wherever the placeholders appear.
func (t *Table) Restore(s string) string {
	if t.Len() == 0 || !strings.Contains(s, "[") {
		return s
	}
	return placeholderPattern.ReplaceAllStringFunc(s, func(p string) string {
		if v, ok := t.byKey[p]; ok {
			return v
		}
		return p
	})
}

var (
	placeholderPattern = regexp.MustCompile(`\[(?:EMAIL|PHONE|CARD|IBAN|NAME)_\d+\]`)
	emailPattern       = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+`)
	ibanPattern        = regexp.MustCompile(`\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b`)
	// A card: 13 to 19 digits, optionally in groups split by spaces or dashes.
	cardPattern = regexp.MustCompile(`\b\d(?:[ -]?\d){12,18}\b`)
	// A phone number: an optional +, then 7 to 15 digits with spaces, dots, dashes or
	// brackets between them. Amounts and durations have fewer digits; dates and bare digit
	// runs (order numbers) are told apart in isPhone.
	phonePattern = regexp.MustCompile(`(?:\+|\b00)?\(?\d[\d ().\-]{6,}\d\b`)
	datePattern  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$|^\d{1,2}\.\d{1,2}\.\d{2,4}$`)
)

// isPhone: 7 to 15 digits, not a date, and written like a phone number, with an
// international prefix or separators between digit groups.
func isPhone(v string) bool {
	v = strings.TrimSpace(v)
	if n := digits(v); n < 7 || n > 15 || datePattern.MatchString(v) {
		return false
	}
	return strings.HasPrefix(v, "+") || strings.HasPrefix(v, "00") || strings.ContainsAny(v, " ().-")
}

// Text replaces personal data in s with placeholders recorded in t. names are the
// account's names (person, company); each is matched as whole words, case-insensitively.
func Text(s string, names []string, t *Table) string {
	s = emailPattern.ReplaceAllStringFunc(s, func(v string) string { return t.placeholder("EMAIL", v) })
	s = ibanPattern.ReplaceAllStringFunc(s, func(v string) string { return t.placeholder("IBAN", v) })
	s = cardPattern.ReplaceAllStringFunc(s, func(v string) string {
		if !luhn(v) {
			return v
		}
		return t.placeholder("CARD", v)
	})
	s = phonePattern.ReplaceAllStringFunc(s, func(v string) string {
		if !isPhone(v) {
			return v
		}
		return t.placeholder("PHONE", v)
	})
	for _, name := range sortedByLength(names) {
		re, err := regexp.Compile(`(?i)\b` + regexp.QuoteMeta(name) + `\b`)
		if err != nil {
			continue
		}
		s = re.ReplaceAllStringFunc(s, func(v string) string { return t.placeholder("NAME", v) })
	}
	return s
}

// sortedByLength puts longer names first, so "Jane Doe" is hidden before "Jane".
func sortedByLength(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if n = strings.TrimSpace(n); len([]rune(n)) >= 2 {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

func digits(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// luhn reports whether the digits of s pass the card-number checksum, so order numbers
// and other long digit runs are not taken for cards.
func luhn(s string) bool {
	sum, double := 0, false
	for i := len(s) - 1; i >= 0; i-- {
		c := s[i]
		if c < '0' || c > '9' {
			continue
		}
		d := int(c - '0')
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}
