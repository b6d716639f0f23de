package guard

import (
	"encoding/json"
	"github.com/supportdraft/supportdraft/policy"
	"os"
	"testing"
)

// faithfulnessSet is testdata/faithfulness.json: sources like a billing policy's chunks,
// faithful paraphrases of them an agent might write (each should be kept), and sentences
// that are not backed (each should be struck): a number or verb backed only by a sentence
// about another subject, an invented number, an invented commitment, the opposite polarity.
type faithfulnessSet struct {
	Sources []policy.Evidence `json:"sources"`
	Cases   []struct {
		Sentence string `json:"sentence"`
		Faithful bool   `json:"faithful"`
		Class    string `json:"class"`
	} `json:"cases"`
}

// TestFaithfulnessFixtures checks every sentence of the set against all its sources, as
// send-check does, and holds the guard to its targets: at most 5% of the faithful
// paraphrases struck, every unbacked sentence struck.
func TestFaithfulnessFixtures(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	b, err := os.ReadFile("testdata/faithfulness.json")
	if err != nil {
		t.Fatal(err)
	}
	var set faithfulnessSet
	if err := json.Unmarshal(b, &set); err != nil {
		t.Fatalf("testdata/faithfulness.json: %v", err)
	}
	faithful, falseStrikes := 0, 0
	unfaithful, caught := map[string]int{}, map[string]int{}
	for _, c := range set.Cases {
		r := v.Check(Input{Reply: c.Sentence, Sources: set.Sources, Mode: ModeAnySource})
		struck := r.Struck > 0
		if c.Faithful {
			faithful++
			if struck {
				falseStrikes++
				t.Logf("false strike: %q: %s", c.Sentence, reasons(r))
			}
			continue
		}
		unfaithful[c.Class]++
		if struck {
			caught[c.Class]++
		} else {
			t.Logf("missed %s: %q kept: %s", c.Class, c.Sentence, reasons(r))
		}
	}
	rate := float64(falseStrikes) / float64(faithful)
	total, hit := 0, 0
	for class, n := range unfaithful {
		total += n
		hit += caught[class]
		t.Logf("strike recall %s: %d of %d", class, caught[class], n)
	}
	t.Logf("false strikes on faithful paraphrases: %d of %d (%.1f%%); strike recall %d of %d", falseStrikes, faithful, 100*rate, hit, total)
	if rate > 0.05 {
		t.Errorf("false strikes %.1f%% > 5%% (%d of %d faithful paraphrases struck)", 100*rate, falseStrikes, faithful)
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
