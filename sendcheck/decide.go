package sendcheck

import (
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/review"
)

// Findings is everything a send-check found, before the verdict is chosen.
type Findings struct {
	Iteration    int
	Stale        []drafts.StaleReason // what changed since the draft was built
	Placeholders []string             // unresolved slots and system markers in the text
	Unbacked     []drafts.Unbacked    // commitment sentences no eligible source backs
	// OverrideReason is the agent's reason for sending the Unbacked sentences anyway.
	OverrideReason string
	// Missing is why there is nothing to check against (no ticket, no draft, an ended
	// draft); empty when there is.
	Missing string
	Review  []drafts.ReviewReason // why the review gate holds the draft
	// CheckErr kept the freshness or the review gate from being read; Guarded is false when
	// the guard could not run.
	CheckErr error
	Guarded  bool
}

// Decide chooses the verdict from the findings, in the package's order, or refuses the
// check (Missing). It is pure, so the order is tested without a database.
func Decide(f Findings) (drafts.SendCheck, *RefusedError) {
	res := drafts.SendCheck{Iteration: f.Iteration, Placeholders: f.Placeholders}
	if len(f.Unbacked) > 0 {
		res.Unsupported, res.OverrideReason = f.Unbacked, f.OverrideReason
	}
	switch {
	case len(f.Stale) > 0 && f.Missing == "":
		res.Verdict, res.Reasons = drafts.VerdictStale, f.Stale
	case len(f.Placeholders) > 0:
		res.Verdict = drafts.VerdictBlocked
		res.Warning = "The reply still contains unresolved placeholders or system notes: fill them in or delete them before sending."
	case len(f.Unbacked) > 0 && f.OverrideReason == "":
		return drafts.UnsupportedCheck(f.Unbacked, f.Iteration), nil
	case f.Missing != "":
		return drafts.SendCheck{}, &RefusedError{Msg: f.Missing}
	case len(f.Review) > 0:
		res.Verdict, res.Review, res.MustAct = drafts.VerdictReviewPending, f.Review, drafts.ReviewerRole
		res.Warning = review.GateWarning(f.Review)
	case f.CheckErr != nil:
		res.Verdict, res.Warning, res.Cause = drafts.VerdictUnchecked, drafts.UncheckedWarning, CauseCheckFailed
	case !f.Guarded:
		res.Verdict, res.Warning, res.Cause = drafts.VerdictUnchecked, drafts.UnguardedWarning, CauseGuardFailed
	default:
		res.Verdict = drafts.VerdictOK
	}
	return res, nil
}
