package activities

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/store"
)

// GuardInput is the model's reply, its checked claims and the eligible evidence.
type GuardInput struct {
	Reply    string              `json:"reply"`
	Checks   []drafts.ClaimCheck `json:"checks"`
	Evidence []llm.Evidence      `json:"evidence"`
}

// Guard runs the deterministic pass over every sentence: placeholders, failed claims, and
// commitment vocabulary that no surviving claim backs are struck; the rest is kept.
func (a *Activities) Guard(_ context.Context, in GuardInput) (*guard.Result, error) {
	res := a.Vocab.Check(guardInput(in.Reply, in.Checks, in.Evidence))
	return &res, nil
}

func guardInput(reply string, checks []drafts.ClaimCheck, evidence []llm.Evidence) guard.Input {
	in := guard.Input{Reply: reply, Mode: guard.ModeDraft}
	for _, e := range evidence {
		in.Sources = append(in.Sources, guard.Source{ID: e.ChunkID, Text: e.Text, Macro: e.Source == "macro"})
	}
	for _, c := range checks {
		in.Claims = append(in.Claims, guard.Claim{Sentence: c.Sentence, SourceIDs: c.ChunkIDs, Quote: c.Quote, Failure: c.Failure})
	}
	return in
}

// ComposeInput is everything the final draft is made of.
type ComposeInput struct {
	Draft    llm.Draft           `json:"draft"`
	Checks   []drafts.ClaimCheck `json:"checks"`
	Guarded  guard.Result        `json:"guarded"`
	Evidence []llm.Evidence      `json:"evidence"`
}

// Compose decides what the agent sees (see drafts.Compose).
func (a *Activities) Compose(_ context.Context, in ComposeInput) (*drafts.Composition, error) {
	c := drafts.Compose(in.Draft, in.Checks, in.Guarded, in.Evidence)
	return &c, nil
}

// ScoreInput is the composed reply to score against its evidence.
type ScoreInput struct {
	Ticket      TicketRef      `json:"ticket"`
	Reply       string         `json:"reply"`
	Evidence    []llm.Evidence `json:"evidence"`
	Unsupported int            `json:"unsupported"`
}

// Score is the judge's faithfulness, coverage and fit, and the capped confidence.
type Score struct {
	Scores     llm.Scores `json:"scores"`
	Confidence float64    `json:"confidence"`
}

// Score asks the judge for the three dimensions and combines them in code.
func (a *Activities) Score(ctx context.Context, in ScoreInput) (*Score, error) {
	t, err := a.Store.Ticket(ctx, in.Ticket.TicketID, in.Ticket.Revision)
	if err != nil {
		return nil, permanentIfMissing(err)
	}
	s, err := a.Judge.Score(ctx, llm.RequestFromTicket(t, nil).Question(), in.Reply, in.Evidence)
	if err != nil {
		return nil, modelError("score draft", err)
	}
	return &Score{Scores: s, Confidence: drafts.Confidence(s, in.Unsupported)}, nil
}

// Save stores the draft iteration and its rejections, and returns the summary the
// workflow keeps.
func (a *Activities) Save(ctx context.Context, r drafts.Record, area string) (*drafts.Summary, error) {
	if err := a.Store.SaveDraft(ctx, &r, area); err != nil {
		return nil, err
	}
	return r.Summarize(), nil
}

// StatusInput changes a draft's status.
type StatusInput struct {
	TicketID  string               `json:"ticket_id"`
	Iteration int                  `json:"iteration"`
	Status    string               `json:"status"`
	Reasons   []drafts.StaleReason `json:"reasons,omitempty"`
}

// MarkStatus records stale, discarded or closed on the saved draft.
func (a *Activities) MarkStatus(ctx context.Context, in StatusInput) error {
	return a.Store.SetDraftStatus(ctx, in.TicketID, in.Iteration, in.Status, in.Reasons)
}

// EditInput is the agent's edited text for the current iteration.
type EditInput struct {
	TicketID  string `json:"ticket_id"`
	Iteration int    `json:"iteration"`
	Text      string `json:"text"`
}

// SaveEdit stores the agent's text and re-runs the deterministic checks on it. Nothing is
// struck from an agent's own words: the result tells the agent which sentences would bind
// the company without an eligible source behind them.
func (a *Activities) SaveEdit(ctx context.Context, in EditInput) (*guard.Result, error) {
	if err := a.Store.SaveEdit(ctx, in.TicketID, in.Iteration, in.Text); err != nil {
		return nil, err
	}
	record, err := a.Store.Draft(ctx, in.TicketID, in.Iteration)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, c := range record.Claims {
		ids = append(ids, c.ChunkIDs...)
	}
	evidence, err := a.Store.Chunks(ctx, ids)
	if err != nil {
		return nil, err
	}
	res := a.Vocab.Check(guardInput(in.Text, record.Claims, evidence))
	return &res, nil
}

// FreshInput is a draft's bindings, to compare with the world at send time.
type FreshInput struct {
	TicketID string         `json:"ticket_id"`
	Bound    drafts.Summary `json:"bound"`
}

// CheckFresh reads the ticket's latest revision, its account, and the version of each bound
// document eligible now, and says what changed. An error here means the check could not
// run; the workflow then answers "unchecked".
func (a *Activities) CheckFresh(ctx context.Context, in FreshInput) ([]drafts.StaleReason, error) {
	latest, err := a.Store.LatestTicket(ctx, in.TicketID)
	if err != nil {
		return nil, err
	}
	now := drafts.Now{Revision: latest.Revision, RevisionAt: latest.UpdatedAt, Plan: latest.Account.Plan,
		Region: latest.Account.Region, Versions: map[string]drafts.CurrentVersion{}}
	at := time.Now()
	for _, b := range in.Bound.Bound {
		cur, err := a.Store.CurrentVersion(ctx, b.DocID, at, latest.Account.Plan, latest.Account.Region)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		now.Versions[b.DocID] = drafts.CurrentVersion{Version: cur.Version, ApprovedAt: cur.ApprovedAt}
	}
	return drafts.Staleness(&in.Bound, now), nil
}

// RecordSendCheck keeps the verdict in the database. Only drafts started before the API
// recorded verdicts itself still schedule it (see workflows' send-check-recorded-by-api).
func (a *Activities) RecordSendCheck(ctx context.Context, ticketID string, c drafts.SendCheck) error {
	return a.Store.RecordSendCheck(ctx, ticketID, c)
}

// area names the policy area a draft's rejections are filed under: that of its best evidence.
func Area(evidence []llm.Evidence) string {
	if len(evidence) == 0 {
		return "unknown"
	}
	return strings.TrimSpace(evidence[0].Area)
}
