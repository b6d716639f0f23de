package drafts

import (
	"fmt"

	"github.com/supportdraft/supportdraft/guard"
)

// Unbacked is a commitment sentence of outbound text that no eligible source backs, with
// the guard's reason.
type Unbacked struct {
	Sentence string `json:"sentence"`
	Reason   string `json:"reason"`
	// Otherwise is the eligible policy sentence nearest to it, what the agent can say
	// instead; absent when no eligible sentence speaks of the same thing.
	Otherwise *guard.Otherwise `json:"otherwise,omitempty"`
}

// UnsupportedWarning is shown with an unsupported verdict.
const UnsupportedWarning = "Some sentences commit to something no current policy for this account states. Fix them, or send with an override reason."

// UnbackedCommitments runs the guard over text as it will be sent, against the sources
// eligible now for the account (any of them may back any sentence: the agent's words are
// judged against policy, not against the draft's claims), and returns the flagged sentences
// it would strike. Placeholders are the send-check's own verdict and are not repeated here.
func UnbackedCommitments(v *guard.Vocabulary, text string, sources *guard.Sources) []Unbacked {
	res := v.Check(guard.Input{Reply: text, Read: sources, Mode: guard.ModeAnySource})
	var out []Unbacked
	for _, s := range res.Sentences {
		if !s.Kept && len(s.Placeholders) == 0 {
			out = append(out, Unbacked{Sentence: s.Text, Reason: s.Reason, Otherwise: s.Otherwise})
		}
	}
	return out
}

// UnsupportedCheck is the verdict for text with unbacked commitments and no override.
func UnsupportedCheck(unbacked []Unbacked, iteration int) SendCheck {
	return SendCheck{Verdict: VerdictUnsupported, Unsupported: unbacked, Iteration: iteration,
		Warning: fmt.Sprintf("%d sentence(s): %s", len(unbacked), UnsupportedWarning)}
}
