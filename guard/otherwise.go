package guard

import (
	"slices"
	"strings"
)

// Otherwise is the eligible policy sentence nearest to a commitment no source backs: the
// sentence of policy that speaks of the same thing, so the agent reads what policy says
// instead of only learning that it does not say this.
type Otherwise struct {
	SourceID string `json:"source_id"`
	Text     string `json:"text"`
}

// nearest is the unit of sources that says most nearly what c says: about the same
// subjects, with one of its commercial verbs (either polarity) or a quantity in one of
// its units, then the most content words in common; the first on a tie, so sources keep
// their order. Guidance written for agents is never offered, since it is not for a
// customer's reply. nil when no unit shares a verb or a unit and two words with c.
func nearest(c view, sources []checkedSource) *Otherwise {
	var best *Otherwise
	bestScore := 0
	for _, s := range sources {
		if s.forAgents {
			continue
		}
		for _, u := range s.units {
			kind := sharedCount(c.verbs, u.verbs) + sharedCount(quantityUnits(c.keys), quantityUnits(u.keys))
			words := 0
			for w := range c.words {
				if u.words[w] {
					words++
				}
			}
			if kind == 0 || words < minShared || !subjectsAgree(c.subjects, u.subjects, s.subjects) {
				continue
			}
			// A verb or unit in common outweighs any number of shared words: it is what
			// makes the unit say something of the same kind.
			if score := 100*kind + words; score > bestScore {
				best, bestScore = &Otherwise{SourceID: s.id, Text: u.text}, score
			}
		}
	}
	return best
}

// quantityUnits are the units of quantity keys ("14 day" → "day"), each once.
func quantityUnits(keys []string) []string {
	var out []string
	for _, k := range keys {
		_, unit, _ := strings.Cut(k, " ")
		if !slices.Contains(out, unit) {
			out = append(out, unit)
		}
	}
	return out
}

// sharedCount is how many of a are in b.
func sharedCount(a, b []string) int {
	n := 0
	for _, x := range a {
		if slices.Contains(b, x) {
			n++
		}
	}
	return n
}
