package activities

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/store"
)

// EditInput names the agent's edited text for the current iteration: Ref is the text kept
// in agent_texts, so the history never holds the words.
type EditInput struct {
	TicketID  string          `json:"ticket_id"`
	Iteration int             `json:"iteration"`
	Ref       *drafts.TextRef `json:"ref,omitempty"`
}

// EditChecks is SaveEdit's answer: counts only. The sentence-by-sentence verdict quotes
// the agent's words, so it is kept with the text (store.TextChecks), where the API reads it.
type EditChecks struct {
	TextID    int64 `json:"text_id"`
	Sentences int   `json:"sentences"`
	Flagged   int   `json:"flagged"` // sentences no eligible source backs
}

// SaveEdit reads the agent's text by reference (checking its hash), stores it on the draft
// and re-runs the deterministic checks on it. Nothing is struck from an agent's own words:
// the checks tell the agent which sentences would bind the company without an eligible
// source behind them. The words are judged against every source eligible now for the
// draft's account, not against the draft's claims, so a faithful paraphrase of any current
// policy passes; what fails goes to the rejection log.
func (a *Activities) SaveEdit(ctx context.Context, in EditInput) (*EditChecks, error) {
	text, ref, err := a.editText(ctx, in)
	if err != nil {
		return nil, err
	}
	if err := a.Store.SaveEdit(ctx, in.TicketID, in.Iteration, text); err != nil {
		return nil, err
	}
	record, err := a.Store.Iteration(ctx, in.TicketID, in.Iteration)
	if err != nil {
		return nil, err
	}
	sources, err := a.Sources.Eligible(ctx, time.Now(), record.Account.Plan, record.Account.Region)
	if err != nil {
		return nil, err
	}
	res := a.Vocab.Check(guard.Input{Reply: text, Read: sources, Mode: guard.ModeAnySource})
	if err := a.Store.SetTextChecks(ctx, ref.ID, &res); err != nil {
		return nil, err
	}
	area, err := a.Store.DraftArea(ctx, in.TicketID, in.Iteration)
	if err != nil {
		return nil, err
	}
	if err := a.Store.LogRejections(ctx, in.TicketID, in.Iteration, area, res.Sentences); err != nil {
		return nil, err
	}
	out := &EditChecks{TextID: ref.ID, Sentences: len(res.Sentences)}
	for _, s := range res.Sentences {
		if !s.Kept {
			out.Flagged++
		}
	}
	return out, nil
}

// editText is the edit's words and their reference. A reference that does not resolve
// (no such text for this ticket, or words that no longer match the hash) is a permanent
// failure: retrying will not bring the agent's words back.
func (a *Activities) editText(ctx context.Context, in EditInput) (string, drafts.TextRef, error) {
	if in.Ref == nil {
		return "", drafts.TextRef{}, temporal.NewNonRetryableApplicationError("edit "+in.TicketID+": no kept text named", "TextUnavailable", nil)
	}
	text, err := a.Store.AgentText(ctx, in.TicketID, *in.Ref)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrTextMismatch) {
		return "", *in.Ref, temporal.NewNonRetryableApplicationError(err.Error(), "TextUnavailable", err)
	}
	return text, *in.Ref, err
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
	now, err := a.Store.SendTimeState(ctx, latest, in.Bound.Bound, time.Now())
	if err != nil {
		return nil, err
	}
	return drafts.Staleness(&in.Bound, now), nil
}

// RecordSendCheck keeps the verdict in the database. Only drafts started before the API
// recorded verdicts itself still schedule it (see the workflow's send-check-recorded-by-api).
func (a *Activities) RecordSendCheck(ctx context.Context, ticketID string, c drafts.SendCheck) error {
	return a.Store.RecordSendCheck(ctx, ticketID, c)
}
