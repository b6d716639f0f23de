package evals

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/calibration"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/evals/dataset"
)

// calibrationFixture is small enough to compute by hand: grounded drafts at 0.9 and 0.7,
// the rest at 0.8 (incomplete), 0.7 (an answer to an unanswerable ticket, tied with a
// grounded one), 0.3 (unsupported), 0.1 (useful abstention) and 0.2 (abstention on an
// answerable ticket), and one failed ticket that no figure counts.
func calibrationFixture() []Case {
	mk := func(label string, conf float64, answerable bool) Case {
		return Case{Label: label, Confidence: conf, abstained: label == LabelAbstained,
			expect: &dataset.Expect{Answerable: answerable}}
	}
	return []Case{
		mk(LabelGrounded, 0.9, true),
		mk(LabelGrounded, 0.7, true),
		mk(LabelIncomplete, 0.8, true),
		mk(LabelIncomplete, 0.7, false),
		mk(LabelUnsupported, 0.3, true),
		mk(LabelAbstained, 0.1, false),
		mk(LabelAbstained, 0.2, true),
		{Label: "", expect: &dataset.Expect{Answerable: false}}, // failed
	}
}

func TestCalibrateByHand(t *testing.T) {
	t.Parallel()
	c := Calibrate(calibrationFixture())
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %.6f, want %.6f", name, got, want)
		}
	}
	// Unanswerable and built: the 0.7 answer and the 0.1 abstention → 1 of 2.
	near("abstention_recall", c.AbstentionRecall, 0.5)
	// Answerable: 0.9, 0.7, 0.8, 0.3, 0.2 → one abstained.
	near("false_abstention_rate", c.FalseAbstentionRate, 0.2)
	// 2 grounded × 5 others = 10 pairs: 0.9 beats all 5; 0.7 beats 0.3, 0.1, 0.2, ties
	// 0.7 (½) and loses to 0.8 → 8.5 / 10.
	near("confidence_auroc", c.ConfidenceAUROC, 0.85)
	// Bins: 0.9 (1 grounded: |1−0.9|), 0.8 (|0−0.8|), 0.7 ×2 (half grounded: |0.5−0.7|),
	// 0.3, 0.2, 0.1 (none grounded) → (0.1 + 0.8 + 2·0.2 + 0.3 + 0.2 + 0.1) / 7.
	near("expected_calibration_error", c.ExpectedCalibrationError, 1.9/7)
	if c.Grounded != 2 || c.NotGrounded != 5 || c.Unanswerable != 2 || c.Answerable != 5 {
		t.Errorf("counts grounded %d, others %d, unanswerable %d, answerable %d; want 2, 5, 2, 5",
			c.Grounded, c.NotGrounded, c.Unanswerable, c.Answerable)
	}
	b7 := c.Reliability[7]
	if b7.N != 2 || math.Abs(b7.MeanConfidence-0.7) > 1e-9 || b7.GroundedShare != 0.5 {
		t.Errorf("bin [0.7,0.8) = %+v, want 2 drafts, mean 0.7, half grounded", b7)
	}
	for _, th := range c.Thresholds {
		if th.Threshold != 0.5 {
			continue
		}
		// Below 0.5: 0.3, 0.1, 0.2 — three of the five others, no grounded draft.
		near("forced at 0.5", th.Forced, 3.0/7)
		near("caught at 0.5", th.Caught, 0.6)
		near("grounded held back at 0.5", th.GroundedForced, 0)
	}
}

// The eval's threshold sweep compares the shipped forced-review threshold with its
// neighbours; a refit that moves drafts.ReviewThreshold off the sweep's steps must add it.
func TestThresholdSweepHoldsTheShippedThreshold(t *testing.T) {
	if !slices.Contains(thresholdSteps, drafts.ReviewThreshold) {
		t.Fatalf("thresholdSteps %v lack drafts.ReviewThreshold %.2f", thresholdSteps, drafts.ReviewThreshold)
	}
}

// The report names the mapping the drafts were scored with: the shipped logistic map has
// no points, and was once reported as no mapping at all.
func TestCalibrationNameNamesTheShippedMapping(t *testing.T) {
	t.Parallel()
	name := calibrationName(calibration.Default())
	if !strings.HasPrefix(name, "logistic v") || !strings.Contains(name, "fitted on") {
		t.Errorf("calibrationName(shipped map) = %q, want the logistic map and its sets", name)
	}
	if got := calibrationName(calibration.Mapping{Method: calibration.MethodIsotonic}); got != "none (raw confidence)" {
		t.Errorf("calibrationName(identity) = %q", got)
	}
}
