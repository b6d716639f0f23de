// Package activities holds the DraftWorkflow's steps. Each is a thin method over the domain
// packages (retrieval, llm, drafts, guard, store): it loads what it needs by ID, calls one
// thing, and returns a small result that the workflow history records.
package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/retrieval"
	"github.com/supportdraft/supportdraft/store"
)

// Activities holds the dependencies every step shares.
type Activities struct {
	Store     *store.Store
	Retriever *retrieval.Retriever
	Drafter   llm.Drafter
	Judge     llm.Judge
	Vocab     *guard.Vocabulary
	// K is how many eligible chunks the drafter sees.
	K int
}

// TicketRef names one ticket revision: activities load the text themselves, so histories
// never hold ticket bodies.
type TicketRef struct {
	TicketID string `json:"ticket_id"`
	Revision int    `json:"revision"`
}

// Context is what LoadContext returns: the instant and the account fields a draft is bound
// to. Plan, region and locale are all the model will ever know about the account.
type Context struct {
	At      time.Time      `json:"at"`
	Account policy.Account `json:"account"`
	// LastIteration is the highest draft iteration already saved for the ticket, so a new
	// workflow run for a ticket drafted before numbers its drafts after the old ones.
	LastIteration int `json:"last_iteration"`
}

// LoadContext reads the ticket revision and decides the eligibility instant: now for live
// drafting, the ticket's own time when replaying.
func (a *Activities) LoadContext(ctx context.Context, ref TicketRef, replay bool) (*Context, error) {
	t, err := a.Store.Ticket(ctx, ref.TicketID, ref.Revision)
	if err != nil {
		return nil, permanentIfMissing(err)
	}
	at := time.Now().UTC()
	if replay {
		at = t.UpdatedAt
	}
	last, err := a.Store.LastIteration(ctx, ref.TicketID)
	if err != nil {
		return nil, err
	}
	return &Context{At: at, Account: t.Account.Eligibility(), LastIteration: last}, nil
}

// RetrieveInput asks for the eligible evidence for a ticket revision.
type RetrieveInput struct {
	Ticket  TicketRef      `json:"ticket"`
	At      time.Time      `json:"at"`
	Account policy.Account `json:"account"`
}

// Retrieve returns the best chunks eligible at the bound instant for the bound account.
func (a *Activities) Retrieve(ctx context.Context, in RetrieveInput) ([]llm.Evidence, error) {
	t, err := a.Store.Ticket(ctx, in.Ticket.TicketID, in.Ticket.Revision)
	if err != nil {
		return nil, permanentIfMissing(err)
	}
	req := llm.RequestFromTicket(t, nil)
	return a.Retriever.Eligible(ctx, in.At, in.Account, req.Question(), a.K)
}

// GenerateInput asks the drafter for a reply to a ticket revision from evidence.
type GenerateInput struct {
	Ticket   TicketRef      `json:"ticket"`
	At       time.Time      `json:"at"`
	Account  policy.Account `json:"account"`
	Evidence []llm.Evidence `json:"evidence"`
}

// Generate calls the drafter. The request carries the ticket text and only the account's
// plan, region and locale. Permanent model failures (bad request, auth) are not retried.
func (a *Activities) Generate(ctx context.Context, in GenerateInput) (*llm.Draft, error) {
	t, err := a.Store.Ticket(ctx, in.Ticket.TicketID, in.Ticket.Revision)
	if err != nil {
		return nil, permanentIfMissing(err)
	}
	req := llm.RequestFromTicket(t, in.Evidence)
	req.Account = in.Account
	req.Search = a.Retriever.Searcher(in.At, in.Account)
	d, err := a.Drafter.Draft(ctx, req)
	if err != nil {
		return nil, modelError("draft", err)
	}
	return d, nil
}

// SpansInput is a draft's claims and the evidence they may cite.
type SpansInput struct {
	Claims   []llm.Claim    `json:"claims"`
	Evidence []llm.Evidence `json:"evidence"`
}

// VerifySpans runs the exact checks: chunk IDs in the eligible set, quotes verbatim.
func (a *Activities) VerifySpans(_ context.Context, in SpansInput) ([]drafts.ClaimCheck, error) {
	return drafts.VerifySpans(in.Claims, in.Evidence), nil
}

// JudgeInput is the span-checked claims to judge.
type JudgeInput struct {
	TicketID string              `json:"ticket_id"`
	Checks   []drafts.ClaimCheck `json:"checks"`
	Evidence []llm.Evidence      `json:"evidence"`
}

// JudgeClaims asks the judge whether each verbatim span supports its sentence. Claims that
// already failed a span check are not judged. Every verdict is logged with its reasoning
// and the ticket ID, never the ticket body.
func (a *Activities) JudgeClaims(ctx context.Context, in JudgeInput) ([]drafts.ClaimCheck, error) {
	log := activity.GetLogger(ctx)
	out := make([]drafts.ClaimCheck, len(in.Checks))
	for i, c := range in.Checks {
		out[i] = c
		if !c.SpanOK {
			continue
		}
		chunk, _ := drafts.SupportingChunk(c, in.Evidence)
		j, err := a.Judge.JudgeClaim(ctx, c.Sentence, c.Quote, chunk.Text)
		if err != nil {
			return nil, modelError("judge claim", err)
		}
		out[i].Verdict, out[i].Reasoning = j.Verdict, j.Reasoning
		if j.Verdict != llm.VerdictSupports {
			out[i].Failure = fmt.Sprintf("the judge found that %s %s it", chunk.ChunkID, verdictWords(j.Verdict))
		}
		log.Info("claim judged", "ticket", in.TicketID, "claim", i, "chunk", chunk.ChunkID, "verdict", j.Verdict, "reasoning", j.Reasoning)
	}
	return out, nil
}

func verdictWords(v llm.Verdict) string {
	if v == llm.VerdictContradicts {
		return "contradicts"
	}
	return "does not say enough to support"
}

// permanentIfMissing turns "not found" into a non-retryable failure: retrying will not make
// a ticket appear.
func permanentIfMissing(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return temporal.NewNonRetryableApplicationError(err.Error(), "NotFound", err)
	}
	return err
}

// modelError marks permanent model failures (4xx other than rate limits) non-retryable so
// Temporal does not spend its attempts on a request that can never succeed.
func modelError(what string, err error) error {
	if llm.IsPermanent(err) {
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("%s: %v", what, err), "ModelPermanent", err)
	}
	return fmt.Errorf("%s: %w", what, err)
}
