package guard

import (
	"slices"
	"strings"
)

// Audience. Policy speaks to two readers: the customer, and the support agent answering
// them ("Support agents cannot extend the 14-day period", a section headed "Notes for
// agents"). What is written for agents is context for the drafter and the agent, never
// quoted in a reply: a sentence that restates it is struck. A section is for agents when
// its heading names them or says it is internal ("Notes for agents", "Internal"): the
// chunk's anchor is its heading's slug. A sentence elsewhere that mentions agents ("Agents
// may not waive the late payment fee") is policy the customer may be told.

// agentWords mark a heading or a subject as the support agents.
var agentWords = []string{"agent", "agents", "internal"}

// forAgentsSection reports whether the chunk's heading (its anchor, doc@v#anchor) names
// agents or internal notes.
func forAgentsSection(chunkID string) bool {
	_, anchor, ok := strings.Cut(chunkID, "#")
	if !ok {
		return false
	}
	return slices.ContainsFunc(strings.Split(anchor, "-"), func(w string) bool { return slices.Contains(agentWords, w) })
}

// quotesAgents returns the first unit written for agents that the sentence (its content
// words) restates, and its source: most of the sentence's words and half of the unit's
// are shared.
func quotesAgents(words map[string]bool, sources []checkedSource) (id, unit string, ok bool) {
	if len(words) < minShared {
		return "", "", false
	}
	for _, s := range sources {
		if !s.forAgents {
			continue
		}
		for _, u := range s.units {
			shared := 0
			for w := range words {
				if u.words[w] {
					shared++
				}
			}
			if shared >= minShared && float64(shared) >= restatesShare*float64(len(words)) && 2*shared >= len(u.words) {
				return s.id, u.text, true
			}
		}
	}
	return "", "", false
}
