package guard

import (
	"fmt"
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// A sentence can share every word of a source and still reverse its order of events: "we
// can extend your trial even after it has ended" beside "agents can extend a trial when the
// customer asks before the trial ends". sequenceWords reads which events a text places
// something before and which after, and a unit that places an event the other way does not
// back the sentence (view.reversedBy). German "nach" is left out: it also means "to" and
// "according to".
var sequenceWords = map[string]bool{"before": false, "after": true, "bevor": false}

// sequence returns the content stems of each clause of s that "before" or "after" opens,
// each with true when the clause says after. A stem placed both ways is left out.
func sequence(s string) map[string]bool {
	lower := strings.ToLower(s)
	if !strings.Contains(lower, "before") && !strings.Contains(lower, "after") && !strings.Contains(lower, "bevor") {
		return nil
	}
	out := map[string]bool{}
	mixed := map[string]bool{}
	opener := map[int]string{} // clause → its first word
	for _, w := range scopedWords(s) {
		word := lowerWord(s[w.start:w.end])
		first, seen := opener[w.clause]
		if !seen {
			opener[w.clause] = word
			continue
		}
		after, ok := sequenceWords[first]
		if !ok {
			continue
		}
		for _, st := range text.ContentStems(word) {
			if was, seen := out[st]; seen && was != after {
				mixed[st] = true
			}
			out[st] = after
		}
	}
	for st := range mixed {
		delete(out, st)
	}
	return out
}

// reversedBy reports whether unit u places an event of the sentence the other way round:
// before where the sentence says after, or after where it says before.
func (c view) reversedBy(u srcUnit) bool {
	for st, after := range c.sequence {
		if uAfter, ok := u.sequence[st]; ok && uAfter != after {
			return true
		}
	}
	return false
}

// reversedOrder names the unit of candidates that states what the sentence states but
// places one of its events the other way round, for the reason; "" when none does.
func reversedOrder(c view, candidates []checkedSource) string {
	id, best := closestStating(c, candidates)
	if best == nil || !c.reversedBy(*best) {
		return ""
	}
	return fmt.Sprintf("it reverses before and after: the eligible source %s states it the other way round: %q", id, best.text)
}
