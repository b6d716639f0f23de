package activities

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/local"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/redact"
	"github.com/supportdraft/supportdraft/retrieval"
	"github.com/supportdraft/supportdraft/rubric"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
)

// RetrieveInput asks for the eligible evidence for a ticket revision.
type RetrieveInput struct {
	Ticket  TicketRef      `json:"ticket"`
	At      time.Time      `json:"at"`
	Account policy.Account `json:"account"`
}

// Retrieve returns the best chunks eligible at the bound instant for the bound account:
// one retrieval per customer message and per question, fused (retrieval.Queries).
func (a *Activities) Retrieve(ctx context.Context, in RetrieveInput) ([]policy.Evidence, error) {
	t, err := a.ticket(ctx, in.Ticket)
	if err != nil {
		return nil, err
	}
	return a.Retriever.Eligible(ctx, in.At, in.Account, retrieval.TicketQueries(t), a.K)
}

// Area names the policy area a draft's rejections are filed under: the triage bucket the
// intake funnel gave the ticket when it gave one, else the area the retrieved evidence
// points at as a whole. Each chunk votes for its area with its reciprocal rank, so a refund
// ticket whose top chunk is a cancellation section still files under refunds when most of
// its evidence is about refunds; a tie goes to the area of the higher-ranked chunk.
func Area(bucket string, retrieved []policy.Evidence) string {
	if bucket = strings.TrimSpace(bucket); bucket != "" && bucket != inbox.BucketNotBilling {
		return bucket
	}
	votes := map[string]float64{}
	best := ""
	for rank, e := range retrieved {
		area := strings.TrimSpace(e.Area)
		if area == "" {
			continue
		}
		votes[area] += 1 / float64(store.RRFK+rank+1)
		if best == "" || votes[area] > votes[best] {
			best = area
		}
	}
	if best == "" {
		return "unknown"
	}
	return best
}

// GenerateInput asks the drafter for a reply to a ticket revision from evidence.
type GenerateInput struct {
	Ticket   TicketRef         `json:"ticket"`
	At       time.Time         `json:"at"`
	Account  policy.Account    `json:"account"`
	Evidence []policy.Evidence `json:"evidence"`
	// Bucket is the ticket's triage bucket, when it came through the inbox.
	Bucket string `json:"bucket,omitempty"`
}

// Generate calls the drafter. The request carries the ticket text and only the account's
// plan, region and locale, with the triage bucket and the categories the writer may file
// the question under. Permanent model failures (bad request, auth) are not retried.
func (a *Activities) Generate(ctx context.Context, in GenerateInput) (*llm.Answer, error) {
	t, err := a.ticket(ctx, in.Ticket)
	if err != nil {
		return nil, err
	}
	req := llm.RequestFromTicket(t, in.Evidence)
	req.Account = in.Account
	req.Search = a.Retriever.Searcher(in.At, in.Account)
	req.Categories, req.Bucket = a.Categories, in.Bucket
	if req.Terms, err = a.Store.Terms(ctx, strings.Fields(store.QueryWords(req.Question()))); err != nil {
		return nil, err
	}
	d, err := a.Writer.Write(withNames(ctx, t), req)
	if err != nil {
		return nil, modelError("draft", err)
	}
	return d, nil
}

// JudgeInput is the span-checked claims to judge.
type JudgeInput struct {
	TicketID string              `json:"ticket_id"`
	Checks   []drafts.ClaimCheck `json:"checks"`
	Evidence []policy.Evidence   `json:"evidence"`
	// Revision names the ticket revision, so a remote judge can hide the account's
	// names in the sentences it reads; histories from before it was added carry 0.
	Revision int `json:"revision,omitempty"`
}

// JudgeClaims asks the judge whether each verbatim span supports its sentence. Claims that
// already failed a span check are not judged. Every verdict is logged with its reasoning
// and the ticket ID, never the ticket body.
func (a *Activities) JudgeClaims(ctx context.Context, in JudgeInput) ([]drafts.ClaimCheck, error) {
	log := activity.GetLogger(ctx)
	if in.Revision > 0 {
		t, err := a.ticket(ctx, TicketRef{TicketID: in.TicketID, Revision: in.Revision})
		if err != nil {
			return nil, err
		}
		ctx = withNames(ctx, t)
	}
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

// ScoreInput is the composed reply to score against its evidence.
type ScoreInput struct {
	Ticket      TicketRef         `json:"ticket"`
	Reply       string            `json:"reply"`
	Evidence    []policy.Evidence `json:"evidence"`
	Unsupported int               `json:"unsupported"`
	// Signals are the writer's answerability signals (llm.Answer's); nil for a writer that
	// reads none.
	Signals map[string]float64 `json:"signals,omitempty"`
}

// Score is the judge's faithfulness, coverage and fit, and the confidence: the capped
// combination of the three (drafts.Confidence) read through the calibration mapping and
// capped below the review threshold when fit is low (drafts.CapFit); and the reply's
// draft-quality rubric scores.
type Score struct {
	Scores     llm.Scores     `json:"scores"`
	Confidence float64        `json:"confidence"`
	Rubric     *rubric.Result `json:"rubric,omitempty"`
}

// Score asks the judge for the three dimensions, combines them in code, calibrates the
// result and holds a draft whose fit is low below the review threshold (drafts.CapFit),
// and scores the reply against the rubric: in code, and, when the judge is a model that
// reads style (llm.StyleJudge), its human-sounding and tone scores too. It is the build's
// last reader of the ticket revision, so this worker lets go of it afterwards.
func (a *Activities) Score(ctx context.Context, in ScoreInput) (*Score, error) {
	t, err := a.ticket(ctx, in.Ticket)
	if err != nil {
		return nil, err
	}
	ctx = withNames(ctx, t)
	s, err := a.Judge.Score(ctx, llm.RequestFromTicket(t, nil).Question(), in.Reply, in.Evidence)
	if err != nil {
		return nil, modelError("score draft", err)
	}
	quality, err := a.rubricScore(ctx, in.Reply)
	if err != nil {
		return nil, err
	}
	if in.Signals != nil {
		s = local.DefaultAnswerability().Temper(s, in.Signals)
	}
	a.tickets.forget(in.Ticket)
	return &Score{Scores: s, Confidence: drafts.CapFit(a.Calibration.Apply(drafts.Confidence(s, in.Unsupported)), s), Rubric: quality}, nil
}

// rubricFor is the rubric of the agent ctx acts for: its own when its file names one,
// else the deployment's (SUPPORTDRAFT_RUBRIC, or the embedded default).
func (a *Activities) rubricFor(ctx context.Context) (*rubric.Rubric, error) {
	settings, err := a.Store.AgentSettings(ctx)
	if err != nil {
		return nil, err
	}
	own, err := settings.QualityRubric()
	if err != nil {
		return nil, badSettings("the agent's rubric", err)
	}
	switch {
	case own != nil:
		return own, nil
	case a.Rubric != nil:
		return a.Rubric, nil
	}
	return rubric.Default(), nil
}

// rubricScore scores reply against the rubric in code and joins a style-reading judge's
// human-sounding and tone scores; without one those stay as code left them.
func (a *Activities) rubricScore(ctx context.Context, reply string) (*rubric.Result, error) {
	r, err := a.rubricFor(ctx)
	if err != nil {
		return nil, err
	}
	res := r.Score(reply)
	sj, ok := a.Judge.(llm.StyleJudge)
	if !ok {
		return &res, nil
	}
	st, err := sj.Style(ctx, reply, llm.StyleGuide{HumanSounding: r.HumanSounding.Guidance, Tone: r.Tone.Guidance})
	if err != nil {
		return nil, modelError("read draft style", err)
	}
	res.AddModel(rubric.HumanSounding, st.HumanSounding, st.Reasoning)
	res.AddModel(rubric.Tone, st.Tone, "")
	return &res, nil
}

// withNames hands the ticket account's names to a remote model client, which hides them
// (redact.WithNames): the reply and the claims quote the customer by name once restored.
func withNames(ctx context.Context, t *ticket.Ticket) context.Context {
	return redact.WithNames(ctx, redact.NameForms(t.Account.Name))
}
