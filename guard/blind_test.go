package guard

import "testing"

// TestBlindSets checks testdata/blind.json: sources and sentences written by reviewers who
// had not read the guard, in several sets. It holds the guard to about what it reached on
// them: at most 16.5% of the faithful sentences struck and at least 78% of the others. Each
// miss is logged with its class, so `go test -v` shows where the guard is still weak.
func TestBlindSets(t *testing.T) {
	t.Parallel()
	var blind struct {
		Sets []labelledSet `json:"sets"`
	}
	readJSON(t, "testdata/blind.json", &blind)
	v := defaultVocab(t)
	var sc setScore
	for _, set := range blind.Sets {
		sc.score(t, v, set)
	}
	caught, unfaithful := sc.struck()
	t.Logf("false strikes %d of %d faithful; struck %d of %d unbacked", sc.falseStrikes, sc.faithful, caught, unfaithful)
	if float64(sc.falseStrikes) > 0.165*float64(sc.faithful) {
		t.Errorf("false strikes %d of %d faithful sentences, more than 16.5%%", sc.falseStrikes, sc.faithful)
	}
	if float64(caught) < 0.78*float64(unfaithful) {
		t.Errorf("struck %d of %d unbacked sentences, fewer than 78%%", caught, unfaithful)
	}
}
