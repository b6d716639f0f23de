package guard

import (
	"slices"
	"strings"
)

// clauseJoins join two statements in one sentence: "Monthly plans are not refunded, but
// cancelling stops the next charge" restates two sentences of one section.
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
	if len(parts) < 2 {
		return ""
	}
	var views []view
	for _, p := range parts {
		if a := v.analyse(p); len(a.flags) > 0 {
			views = append(views, v.newView(p, a, ctx.names))
		}
	}
	for _, s := range tried {
		if s.macro == "" && len(views) > 0 && !slices.ContainsFunc(views, func(c view) bool { return !c.backs(s, ctx.known) }) {
			return s.id
		}
	}
	return ""
}
