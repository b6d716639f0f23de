package guard

import "fmt"

// contradiction is the verdict on r, a sentence with no commitment language: kept, unless
// it restates a source it may cite (any source, or in a draft the sources its claims cite)
// with the opposite polarity or about other subjects (saidOfOthers). Without numbers or
// commercial verbs it promises nothing, but "You can change the VAT number on your
// existing subscription" beside "Paddle does not allow editing the VAT number on an
// existing subscription" still tells the customer what policy denies.
func (v *Vocabulary) contradiction(r SentenceResult, body string, a analysis, mode Mode, sources func() checkContext, attached []Claim) SentenceResult {
	r.Kept, r.Reason = true, "no commitment language"
	p := polarity(body)
	if len(p.negated) < minShared || mode != ModeAnySource && len(attached) == 0 {
		return r
	}
	ctx := sources()
	candidates := ctx.sources
	if mode != ModeAnySource {
		candidates = citedSources(attached, ctx.sources)
	}
	id, unit, ok := contradictedInPart(body, p, candidates)
	if ok {
		r.Reason = fmt.Sprintf("says the opposite of %s: %q", id, unit)
	} else {
		var who string
		if id, unit, who, ok = v.saidOfOthers(body, a, p, ctx, candidates); ok && who == anyTime {
			r.Reason = fmt.Sprintf("it says this holds at any time or as often as asked, but the eligible source %s bounds it: %q", id, unit)
		} else if ok {
			r.Reason = fmt.Sprintf("says of %s what %s says of others: %q", who, id, unit)
		}
	}
	if ok {
		r.Kept, r.SourceID = false, id
		if mode == ModeAnySource {
			r.Otherwise = &Otherwise{SourceID: id, Text: unit}
		}
	}
	return r
}

// anyTime is whom saidOfOthers names for a sentence that holds at any time (speaksOfAlways).
const anyTime = "any time"

// saidOfOthers returns the unit of candidates that the sentence (body, p) restates most
// closely, when that unit says it of other subjects ("Solo workspaces can pay by bank
// transfer" beside "Team workspaces can pay an open invoice by bank transfer") or of fewer
// than the sentence says it of all, or bounds when what the sentence says holds at any
// time ("We can reissue an invoice from any date" beside "for up to 6 months after the
// invoice date"), and no unit that restates it as closely says it of the
// sentence's; ok false otherwise. Closeness is the sentence's side only: most of its words
// in the unit. a is the sentence's analysis; who names what the sentence says it of, for
// the reason.
func (v *Vocabulary) saidOfOthers(body string, a analysis, p polarities, ctx checkContext, candidates []checkedSource) (id, unit, who string, ok bool) {
	c := v.newView(body, a, ctx)
	if len(c.subjects) == 0 && !c.universal && !c.always {
		return "", "", "", false
	}
	who = subjectNames(c.subjects)
	switch {
	case c.universal:
		who = "all"
	case c.always && who == "":
		who = anyTime
	}
	other, agreed := 0, 0 // the most words shared with a unit about others, and about the sentence's subjects
	for _, s := range candidates {
		if !mayRestate(p, s.words) {
			continue
		}
		for _, u := range s.units {
			n := sharedWords(c.words, u.words)
			if n < minShared || float64(n) < restatesShare*float64(len(c.words)) {
				continue
			}
			if subjectsAgree(c.subjects, u.subjects, s.subjects) && !c.widenedBy(u) {
				agreed = max(agreed, n)
			} else if n > other {
				other, id, unit = n, s.id, u.text
			}
		}
	}
	return id, unit, who, other > 0 && agreed < other
}
