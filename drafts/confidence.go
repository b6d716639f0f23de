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

// ReviewThreshold is the confidence below which a draft is forced to review before an
// agent may send it. Chosen from the eval's threshold sweep (docs/decisions/
// 003-review-threshold.md): it catches most not-grounded drafts while holding back
// few grounded ones; abstentions score below 0.2 and are always forced.
const ReviewThreshold = 0.80
