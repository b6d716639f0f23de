package calibration

import (
	"math"
	"testing"
)

// AUROC is the chance a positive scores above a negative, ties counting half, and 0 when
// either side is empty.
func TestAUROC(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		pos, neg []float64
		want     float64
	}{
		{"perfect order", []float64{0.8, 0.9}, []float64{0.1, 0.5}, 1},
		{"inverted", []float64{0.1}, []float64{0.9, 0.95}, 0},
		{"all tied", []float64{0.5, 0.5}, []float64{0.5}, 0.5},
		{"one beats both, one ties one", []float64{0.9, 0.3}, []float64{0.5, 0.3}, 0.625},
		{"no negatives", []float64{0.5}, nil, 0},
		{"no positives", nil, []float64{0.5}, 0},
	} {
		if got := AUROC(tc.pos, tc.neg); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: AUROC = %v, want %v", tc.name, got, tc.want)
		}
	}
}
