package activities

import (
	"context"
	"strings"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
)

// SpansInput is a draft's claims and the evidence they may cite.
type SpansInput struct {
	Claims   []llm.Claim       `json:"claims"`
	Evidence []policy.Evidence `json:"evidence"`
}

// VerifySpans runs the exact checks: chunk IDs in the eligible set, quotes verbatim.
func (a *Activities) VerifySpans(_ context.Context, in SpansInput) ([]drafts.ClaimCheck, error) {
	return drafts.VerifySpans(in.Claims, in.Evidence), nil
}

// GuardInput is the model's reply, its checked claims and the eligible evidence.
type GuardInput struct {
	Reply    string              `json:"reply"`
	Checks   []drafts.ClaimCheck `json:"checks"`
	Evidence []policy.Evidence   `json:"evidence"`
}

// Guard runs the deterministic pass over every sentence: placeholders, failed claims, and
// commitment vocabulary that no surviving claim backs are struck; the rest is kept.
func (a *Activities) Guard(_ context.Context, in GuardInput) (*guard.Result, error) {
	res := a.Vocab.Check(guardInput(in.Reply, in.Checks, in.Evidence))
	return &res, nil
}

func guardInput(reply string, checks []drafts.ClaimCheck, evidence []policy.Evidence) guard.Input {
	in := guard.Input{Reply: reply, Mode: guard.ModeDraft, Sources: evidence}
	for _, c := range checks {
		in.Claims = append(in.Claims, guard.Claim{Sentence: c.Sentence, SourceIDs: c.ChunkIDs, Quote: c.Quote, Failure: c.Failure})
	}
	return in
}

// ComposeInput is everything the final draft is made of.
type ComposeInput struct {
	Draft    llm.Answer          `json:"draft"`
	Checks   []drafts.ClaimCheck `json:"checks"`
	Guarded  guard.Result        `json:"guarded"`
	Evidence []policy.Evidence   `json:"evidence"`
	// InputNote (TicketFacts.InputNote) heads the draft's note when the ticket was cut.
	InputNote string `json:"input_note,omitempty"`
}

// Compose decides what the agent sees (see drafts.Compose).
func (a *Activities) Compose(_ context.Context, in ComposeInput) (*drafts.Composition, error) {
	c := drafts.Compose(in.Draft, in.Checks, in.Guarded, in.Evidence)
	if in.InputNote != "" {
		c.Note = strings.TrimSpace(in.InputNote + "\n" + c.Note)
	}
	return &c, nil
}
