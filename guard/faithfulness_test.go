package guard

import (
	"testing"

	"github.com/supportdraft/supportdraft/policy"
)

// labelledSet is a set of policy sources and sentences an agent might write, each
// labelled faithful (keep it) or not (strike it), with the class of its fault.
type labelledSet struct {
	Name    string            `json:"name"`
	Sources []policy.Evidence `json:"sources"`
	Cases   []struct {
		Sentence string `json:"sentence"`
		Faithful bool   `json:"faithful"`
		Class    string `json:"class"`
	} `json:"cases"`
}

// setScore is how the guard did on labelled sets: faithful sentences and those struck,
// unbacked sentences and those struck, by class.
type setScore struct {
	faithful, falseStrikes int
	unfaithful, caught     map[string]int
}

// score checks every sentence of set against all its sources, as send-check does, and
// logs each false strike and miss.
func (sc *setScore) score(t *testing.T, v *Vocabulary, set labelledSet) {
	t.Helper()
	if sc.unfaithful == nil {
		sc.unfaithful, sc.caught = map[string]int{}, map[string]int{}
	}
	for _, c := range set.Cases {
		r := v.Check(Input{Reply: c.Sentence, Sources: set.Sources, Mode: ModeAnySource})
		struck := r.Struck > 0
		switch {
		case c.Faithful:
			sc.faithful++
			if struck {
				sc.falseStrikes++
				t.Logf("%s: false strike (%s): %q: %s", set.Name, c.Class, c.Sentence, reasons(r))
			}
		default:
			sc.unfaithful[c.Class]++
			if struck {
				sc.caught[c.Class]++
			} else {
				t.Logf("%s: missed %s: %q kept: %s", set.Name, c.Class, c.Sentence, reasons(r))
			}
		}
	}
}

// struck totals the unbacked sentences and those struck over every class.
func (sc *setScore) struck() (caught, total int) {
	for class, n := range sc.unfaithful {
		total += n
		caught += sc.caught[class]
	}
	return caught, total
}

// TestFaithfulnessFixtures checks testdata/faithfulness.json (sources like a billing
// policy's chunks; faithful paraphrases, and sentences backed only by a sentence about
// another subject, an invented number or commitment, the opposite polarity) and holds the
// guard to its targets: at most 5% of the faithful paraphrases struck, every unbacked
// sentence struck.
func TestFaithfulnessFixtures(t *testing.T) {
	t.Parallel()
	var set labelledSet
	readJSON(t, "testdata/faithfulness.json", &set)
	var sc setScore
	sc.score(t, defaultVocab(t), set)
	for class, n := range sc.unfaithful {
		t.Logf("strike recall %s: %d of %d", class, sc.caught[class], n)
	}
	hit, total := sc.struck()
	rate := float64(sc.falseStrikes) / float64(sc.faithful)
	t.Logf("false strikes on faithful paraphrases: %d of %d (%.1f%%); strike recall %d of %d", sc.falseStrikes, sc.faithful, 100*rate, hit, total)
	if rate > 0.05 {
		t.Errorf("false strikes %.1f%% > 5%% (%d of %d faithful paraphrases struck)", 100*rate, sc.falseStrikes, sc.faithful)
	}
	if hit < total {
		t.Errorf("strike recall %d of %d: every unbacked sentence must be struck", hit, total)
	}
}

func reasons(r Result) string {
	out := ""
	for _, s := range r.Sentences {
		if s.Flagged || !s.Kept {
			out += "[" + s.Reason + "] "
		}
	}
	return out
}
