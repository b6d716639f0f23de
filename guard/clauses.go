package guard

import (
	"slices"
	"strings"
)

// clauseJoins join two statements in one sentence: "Monthly plans are not refunded, but
// cancelling stops the next charge" restates two sentences of one section. "and" or "or"
// before a new subject joins two as well ("takes effect immediately and you pay …":
// splitCoordinated).
var clauseJoins = append([]string{"; "}, statementJoins...)

// statementJoins are clauseJoins but ";", which also joins the cells of a table row.
var statementJoins = []string{", and ", ", but ", ", so ", ", while ", ", or ", ", und ", ", aber ", ", sondern "}

// backedClauseByClause returns the first source of tried (none of which backs the whole
// sentence) that backs each flagged clause of body on its own, or "". The clauses must
// rest on one section: two sections' statements joined ("seats are credited by the day,
// and the workspace is suspended") are two facts the sentence ties together that no
// section ties.
func (v *Vocabulary) backedClauseByClause(body string, ctx checkContext, tried []checkedSource) string {
	parts := clausesOf(body, clauseJoins)
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

// clausesOf cuts body at joins and before each "and" or "or" that opens a new subject:
// the statements it joins.
func clausesOf(body string, joins []string) []string {
	parts := []string{body}
	for _, join := range joins {
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
	return split
}

// contradictedInPart is contradicted for the sentence body (read as p), and then for each
// statement it joins (clausesOf): "We don't retry failed payments, so you'll need to pay
// the balance manually" denies "we will retry it after 3 days" in its first statement,
// though the second dilutes the sentence as a whole. A statement under a condition is read
// only whole, as the condition may be what agrees; so is a sentence a source states word
// for word, and a table row ("IPv4 add-on: Disabled; Hours Billed: 0"), whose cells joined
// by ";" are no statements.
func contradictedInPart(body string, p polarities, sources []checkedSource) (id, unit string, ok bool) {
	if id, unit, ok = contradicted(p, sources); ok {
		return id, unit, ok
	}
	if bare := withoutPreference(body); bare != body {
		if id, unit, ok = contradicted(polarity(bare), sources); ok {
			return id, unit, ok
		}
	}
	parts := clausesOf(body, statementJoins)
	if len(parts) < 2 || statedWhole(body, sources) {
		return "", "", false
	}
	for _, part := range parts {
		if conditional(part) || !denies(part) {
			continue
		}
		if id, unit, ok = contradicted(polarity(part), sources); ok {
			return id, unit, ok
		}
	}
	return "", "", false
}

// preferences are conditions that leave the statement as it is: "We can accept a wire
// transfer if you'd prefer" says that wire transfers are accepted.
var preferences = []string{"if you'd prefer", "if you would prefer", "if you prefer", "if you'd like", "if you would like",
	"if you like", "if you want", "if you wish", "if needed", "if you need", "if that helps", "should you prefer",
	"should you wish", "wenn Sie möchten", "falls gewünscht"}

// withoutPreference returns body without a preference condition at its end or start
// (after "," or before one), or body itself when it has none.
func withoutPreference(body string) string {
	lower := strings.ToLower(body)
	if len(lower) != len(body) {
		return body // a letter whose lower case is of another length: offsets would not match
	}
	for _, p := range preferences {
		i := strings.Index(lower, strings.ToLower(p))
		if i < 0 {
			continue
		}
		rest := strings.TrimLeft(body[i+len(p):], " ")
		switch {
		case strings.TrimRight(rest, ".!") == "", strings.HasPrefix(rest, "to ") && !strings.ContainsAny(rest, ",;"):
			// "… if you'd prefer." and "… if you'd prefer to pay that way."
			return strings.TrimRight(body[:i], " ,") + "."
		case i == 0 && strings.HasPrefix(rest, ","): // "If you'd prefer, …"
			return strings.TrimLeft(rest[1:], " ")
		}
	}
	return body
}

// denies reports whether statement p holds a negation: a statement that denies nothing is
// read only as part of its sentence, which keeps this second reading to the sentences
// that may deny a policy in one statement and go on in another.
func denies(p string) bool {
	return slices.ContainsFunc(plainWords(p), func(w string) bool { return isClauseNegator(w) || forwardNegators[w] > 0 })
}

// conditional reports whether statement p holds a condition word ("once", "if", "after").
func conditional(p string) bool {
	return slices.ContainsFunc(plainWords(p), func(w string) bool { return conditionWords[w] || conditionOpeners[w] })
}

// plainWords are the words of s split at white space, lower case, without the
// punctuation around them.
func plainWords(s string) []string {
	fields := strings.Fields(s)
	for i, f := range fields {
		fields[i] = lowerWord(strings.Trim(f, clauseBreaks))
	}
	return fields
}

// statedWhole reports whether a unit of sources holds body word for word.
func statedWhole(body string, sources []checkedSource) bool {
	body = strings.ToLower(strings.Join(strings.Fields(body), " "))
	for _, s := range sources {
		for _, u := range s.units {
			if strings.Contains(strings.ToLower(strings.Join(strings.Fields(u.text), " ")), body) {
				return true
			}
		}
	}
	return false
}
