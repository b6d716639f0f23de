package guard

import (
	"slices"
	"strings"
)

// clauseJoins join two statements in one sentence: "Monthly plans are not refunded, but
// cancelling stops the next charge" restates two sentences of one section. "and" or "or"
// before a new subject joins two as well ("takes effect immediately and you pay …":
// splitCoordinated).
var clauseJoins = []string{", and ", ", but ", "; ", ", so ", ", while ", ", or ", ", und ", ", aber ", ", sondern "}

// backedClauseByClause returns the first source of tried (none of which backs the whole
// sentence) that backs each flagged clause of body on its own, or "". The clauses must
// rest on one section: two sections' statements joined ("seats are credited by the day,
// and the workspace is suspended") are two facts the sentence ties together that no
// section ties.
func (v *Vocabulary) backedClauseByClause(body string, ctx checkContext, tried []checkedSource) string {
	parts := []string{body}
	for _, join := range clauseJoins {
		var next []string
		for _, p := range parts {
			next = append(next, strings.Split(p, join)...)
		}
		parts = next
	}
	var split []string
	for _, p := range parts {
		split = append(split, splitCoordinated(p)...)
	}
	parts = split
	if len(parts) < 2 {
		return ""
	}
	var views []view
	for _, p := range parts {
		if a := v.analyse(p); len(a.flags) > 0 {
			views = append(views, v.newView(p, a, ctx))
		}
	}
	for _, s := range tried {
		if s.macro == "" && len(views) > 0 && !slices.ContainsFunc(views, func(c view) bool { return !c.backs(s, ctx.known) }) {
			return s.id
		}
	}
	return ""
}

// splitCoordinated cuts s before each "and" or "or" that opens a new subject
// (subjectStarts, as the polarity check reads clauses): "Upgrades take effect immediately
// and you pay a prorated amount" is two statements, "refunded in full and at once" one.
func splitCoordinated(s string) []string {
	var out []string
	words := strings.Fields(s)
	start := 0
	for i := 1; i+1 < len(words); i++ {
		if w := lowerWord(words[i]); (w == "and" || w == "or") && subjectStarts[lowerWord(words[i+1])] {
			out = append(out, strings.Join(words[start:i], " "))
			start = i + 1
		}
	}
	return append(out, strings.Join(words[start:], " "))
}
