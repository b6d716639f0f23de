package drafts

import (
	"fmt"
	"strings"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// ClaimCheck is one claim of the model's draft with what the checker found.
type ClaimCheck struct {
	Sentence  string      `json:"sentence"`
	ChunkIDs  []string    `json:"chunk_ids"`
	Quote     string      `json:"quote"`
	SpanOK    bool        `json:"span_ok"`           // steps 1 and 2: known chunk, verbatim quote
	Failure   string      `json:"failure,omitempty"` // why the claim was rejected, if it was
	Verdict   llm.Verdict `json:"verdict,omitempty"` // step 3, only for claims whose span is OK
	Reasoning string      `json:"reasoning,omitempty"`
}

// Supported reports whether the claim survived every check.
func (c ClaimCheck) Supported() bool { return c.SpanOK && c.Verdict == llm.VerdictSupports }

// VerifySpans runs the two exact checks: every chunk ID must be in the retrieved eligible
// set, and the quote must occur verbatim (whitespace-normalised only) in one of them.
func VerifySpans(claims []llm.Claim, evidence []policy.Evidence) []ClaimCheck {
	byID := make(map[string]string, len(evidence))
	for _, e := range evidence {
		byID[e.ChunkID] = text.CollapseSpace(e.Text)
	}
	out := make([]ClaimCheck, len(claims))
	for i, c := range claims {
		out[i] = ClaimCheck{Sentence: c.Sentence, ChunkIDs: c.ChunkIDs, Quote: c.Quote}
		out[i].Failure = spanFailure(c, byID)
		out[i].SpanOK = out[i].Failure == ""
	}
	return out
}

func spanFailure(c llm.Claim, byID map[string]string) string {
	if len(c.ChunkIDs) == 0 {
		return "cites no policy chunk"
	}
	quote := text.CollapseSpace(c.Quote)
	if quote == "" {
		return "quotes nothing"
	}
	for _, id := range c.ChunkIDs {
		if _, ok := byID[id]; !ok {
			return fmt.Sprintf("cites %s, which is not in the eligible retrieved set", id)
		}
	}
	for _, id := range c.ChunkIDs {
		if strings.Contains(byID[id], quote) {
			return ""
		}
	}
	return fmt.Sprintf("quote %q does not occur verbatim in %s", clip(c.Quote, 80), strings.Join(c.ChunkIDs, ", "))
}

// SupportingChunk returns the first cited chunk that contains the quote verbatim.
func SupportingChunk(c ClaimCheck, evidence []policy.Evidence) (policy.Evidence, bool) {
	quote := text.CollapseSpace(c.Quote)
	for _, id := range c.ChunkIDs {
		for _, e := range evidence {
			if e.ChunkID == id && strings.Contains(text.CollapseSpace(e.Text), quote) {
				return e, true
			}
		}
	}
	return policy.Evidence{}, false
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
