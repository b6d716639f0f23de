package guard

import (
	"regexp"
	"strings"
)

// A calendar date after a past form ("your plan renewed on March 3rd", "the payment was
// taken on the 1st") reports what the account shows, which no policy states: its numbers
// are not a commitment to check. A date the sentence says something will happen on
// ("renews on 1 April") is still read as a number, which the policy must state.
var calendarDate = regexp.MustCompile(`(?i)\bon\s+(?:` +
	`(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?(?:\s+of)?\s+` + months + `(?:,?\s+\d{4})?` +
	`|` + months + `\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?` +
	`|the\s+\d{1,2}(?:st|nd|rd|th)` +
	`|\d{4}-\d{2}-\d{2})\b`)

const months = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

// pastDates returns the spans of s holding a calendar date that follows a past form.
func pastDates(s string) [][]int {
	if !strings.ContainsAny(s, "0123456789") || !strings.Contains(strings.ToLower(s), "on") {
		return nil // most texts: no regular expression run
	}
	var out [][]int
	for _, m := range calendarDate.FindAllStringIndex(s, -1) {
		before := strings.Fields(strings.ToLower(s[:m[0]]))
		if len(before) > 0 && isPastForm(strings.Trim(before[len(before)-1], ",;:")) {
			out = append(out, m)
		}
	}
	return out
}

// isPastForm reports whether w is a past form of any verb: "renewed", "taken".
func isPastForm(w string) bool {
	return irregularDone[w] || len(w) > 4 && strings.HasSuffix(w, "ed")
}

// within reports whether offset i lies in one of spans.
func within(spans [][]int, i int) bool {
	for _, sp := range spans {
		if i >= sp[0] && i < sp[1] {
			return true
		}
	}
	return false
}
