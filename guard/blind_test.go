package guard

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/supportdraft/supportdraft/policy"
)

// blindSets is testdata/blind.json: policy sources and sentences written by reviewers who
// had not read the guard, each sentence labelled faithful (keep it) or not (strike it).
type blindSets struct {
	Sets []struct {
		Name    string            `json:"name"`
		Sources []policy.Evidence `json:"sources"`
		Cases   []struct {
			Sentence string `json:"sentence"`
			Faithful bool   `json:"faithful"`
			Class    string `json:"class"`
		} `json:"cases"`
	} `json:"sets"`
}

// TestBlindSets checks each sentence against its set's sources, as send-check does, and
// holds the guard to about what it reached on them: at most 12% of the faithful sentences
// struck and at least 84% of the others. Each miss is logged with its class, so `go test -v`
// shows where the guard is still weak.
func TestBlindSets(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	b, err := os.ReadFile("testdata/blind.json")
	if err != nil {
		t.Fatal(err)
	}
	var blind blindSets
	if err := json.Unmarshal(b, &blind); err != nil {
		t.Fatalf("testdata/blind.json: %v", err)
	}
	faithful, falseStrikes, unfaithful, caught := 0, 0, 0, 0
	for _, set := range blind.Sets {
		for _, c := range set.Cases {
			r := v.Check(Input{Reply: c.Sentence, Sources: set.Sources, Mode: ModeAnySource})
			struck := r.Struck > 0
			switch {
			case c.Faithful:
				faithful++
				if struck {
					falseStrikes++
					t.Logf("%s: false strike (%s): %q: %s", set.Name, c.Class, c.Sentence, reasons(r))
				}
			default:
				unfaithful++
				if struck {
					caught++
				} else {
					t.Logf("%s: missed %s: %q", set.Name, c.Class, c.Sentence)
				}
			}
		}
	}
	t.Logf("false strikes %d of %d faithful; struck %d of %d unbacked", falseStrikes, faithful, caught, unfaithful)
	if float64(falseStrikes) > 0.12*float64(faithful) {
		t.Errorf("false strikes %d of %d faithful sentences, more than 12%%", falseStrikes, faithful)
	}
	if float64(caught) < 0.84*float64(unfaithful) {
		t.Errorf("struck %d of %d unbacked sentences, fewer than 84%%", caught, unfaithful)
	}
}
