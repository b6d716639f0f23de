package evals

import (
	"slices"

	"github.com/supportdraft/supportdraft/calibration"
)

// Calibration is what the eval measures about knowing when the system does not know:
// whether it abstains on the tickets no eligible policy answers (and only on those), and
// whether its confidence separates drafts an agent can send from the rest. Every figure is
// over the drafts that were built (failed tickets have no confidence and no abstention).
//
//   - abstention_recall: unanswerable tickets that abstained / unanswerable tickets. The
//     seed's useful_abstention_rate is the precision of abstentions; it reads 100% when
//     the system abstains once, correctly, and answers every other unanswerable ticket.
//   - false_abstention_rate: answerable tickets that abstained / answerable tickets.
//   - confidence_auroc: the probability that a grounded draft has a higher confidence
//     than a draft with any other label (ties count half): 0.5 is a coin, 1 a review queue
//     ordered by confidence that lists every bad draft before every good one.
//   - expected_calibration_error: confidence read as the probability of "grounded", in
//     ten bins of width 0.1: Σ (n_bin / n) · |grounded share_bin − mean confidence_bin|.
//   - raw_expected_calibration_error: the same of the raw confidence, before the
//     calibration mapping, so a report shows what the mapping bought on its set.
type Calibration struct {
	AbstentionRecall         float64            `json:"abstention_recall"`
	FalseAbstentionRate      float64            `json:"false_abstention_rate"`
	ConfidenceAUROC          float64            `json:"confidence_auroc"`
	ExpectedCalibrationError float64            `json:"expected_calibration_error"`
	RawCalibrationError      float64            `json:"raw_expected_calibration_error"`
	Unanswerable             int                `json:"unanswerable"`
	UnanswerableAbstained    int                `json:"unanswerable_abstained"`
	Answerable               int                `json:"answerable"`
	AnswerableAbstained      int                `json:"answerable_abstained"`
	Grounded                 int                `json:"grounded"`
	NotGrounded              int                `json:"not_grounded"`
	Reliability              []ReliabilityBin   `json:"reliability"`
	Thresholds               []ThresholdOutcome `json:"thresholds"`
}

// ReliabilityBin is one bar of the reliability diagram (calibration.Bin).
type ReliabilityBin = calibration.Bin

// ThresholdOutcome is what a forced-review threshold would do on this run: every draft
// below it goes to review, the others may be sent after a glance. Caught is the share of
// the not-grounded drafts below the threshold; Forced the share of all drafts below it;
// GroundedForced the share of grounded drafts held back with them.
type ThresholdOutcome struct {
	Threshold      float64 `json:"threshold"`
	Forced         float64 `json:"forced"`
	Caught         float64 `json:"caught"`
	GroundedForced float64 `json:"grounded_forced"`
}

// thresholdSteps are the forced-review thresholds the report compares, the shipped one
// (drafts.ReviewThreshold) among them.
var thresholdSteps = []float64{0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9}

// Calibrate computes the calibration figures of one arm's cases.
func Calibrate(cases []Case) Calibration {
	var c Calibration
	var pos, neg []float64       // confidences of grounded drafts and of the rest
	var rawPos, rawNeg []float64 // the same before calibration
	for _, cs := range cases {
		if cs.Failed() {
			continue
		}
		if cs.Label == LabelGrounded {
			pos, rawPos = append(pos, cs.Confidence), append(rawPos, cs.RawConfidence)
		} else {
			neg, rawNeg = append(neg, cs.Confidence), append(rawNeg, cs.RawConfidence)
		}
		if cs.expect == nil {
			continue
		}
		if cs.expect.Answerable {
			c.Answerable++
			if cs.abstained {
				c.AnswerableAbstained++
			}
		} else {
			c.Unanswerable++
			if cs.abstained {
				c.UnanswerableAbstained++
			}
		}
	}
	c.Grounded, c.NotGrounded = len(pos), len(neg)
	c.AbstentionRecall = ratio(c.UnanswerableAbstained, c.Unanswerable)
	c.FalseAbstentionRate = ratio(c.AnswerableAbstained, c.Answerable)
	c.ConfidenceAUROC = calibration.AUROC(pos, neg)
	c.Reliability, c.ExpectedCalibrationError = reliability(pos, neg)
	_, c.RawCalibrationError = reliability(rawPos, rawNeg)
	c.Thresholds = thresholdOutcomes(pos, neg)
	return c
}

// reliability is calibration.Reliability over the grounded drafts' confidences and the rest's.
func reliability(pos, neg []float64) ([]ReliabilityBin, float64) {
	grounded := make([]bool, len(pos)+len(neg))
	for i := range pos {
		grounded[i] = true
	}
	return calibration.Reliability(append(slices.Clone(pos), neg...), grounded)
}

func thresholdOutcomes(pos, neg []float64) []ThresholdOutcome {
	below := func(vs []float64, t float64) int {
		n := 0
		for _, v := range vs {
			if v < t {
				n++
			}
		}
		return n
	}
	out := make([]ThresholdOutcome, 0, len(thresholdSteps))
	for _, t := range thresholdSteps {
		bp, bn := below(pos, t), below(neg, t)
		out = append(out, ThresholdOutcome{Threshold: t, Forced: ratio(bp+bn, len(pos)+len(neg)),
			Caught: ratio(bn, len(neg)), GroundedForced: ratio(bp, len(pos))})
	}
	return out
}
