package drafts

import "github.com/supportdraft/supportdraft/llm"

// Confidence combines the judge's scores in code, never in a prompt: faithfulness weighs
// 0.6, coverage and fit 0.2 each. One unsupported claim caps the result at 0.5, two or
// more at 0.3, so a well-written reply cannot average its way past a fabricated detail.
// The drafter's own confidence never enters. Live drafting and evals both call this.
func Confidence(s llm.Scores, unsupported int) float64 {
	c := 0.6*clamp(s.Faithfulness) + 0.2*clamp(s.Coverage) + 0.2*clamp(s.Fit)
	switch {
	case unsupported >= 2:
		c = min(c, 0.3)
	case unsupported == 1:
		c = min(c, 0.5)
	}
	return c
}

func clamp(x float64) float64 { return max(0, min(1, x)) }

// LowFit is the judge's fit below which the cited policy does not fit the ticket: the
// reply answers a subject, plan or region the customer did not ask about. Chosen from the
// eval's fits (docs/drafting.md) so that it holds back almost no grounded draft.
const LowFit = 0.40

// CapFit holds a draft whose fit is low below ReviewThreshold, in proportion to its fit,
// whatever its calibrated confidence: a reply can quote its sources faithfully and cover
// every word of the question while answering another customer's case (an account or a
// subject the ticket does not have), and faithfulness, which weighs most, cannot see that.
func CapFit(confidence float64, s llm.Scores) float64 {
	if s.Fit >= LowFit {
		return confidence
	}
	return min(confidence, ReviewThreshold*clamp(s.Fit)/LowFit)
}

// ReviewThreshold is the calibrated confidence below which a draft is forced to review
// before an agent may send it. It is chosen with the calibration mapping on the same sets
// (calibration/confidence.json names it; docs/decisions/003-review-threshold.md): the
// lowest at which the drafts let through are grounded four times in five, so few
// grounded drafts wait. Abstentions score below 0.2 and are always forced.
const ReviewThreshold = 0.40
