package activities

import (
	"context"
	"errors"
	"time"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/store"
)

// EditInput is the agent's edited text for the current iteration.
type EditInput struct {
	TicketID  string `json:"ticket_id"`
	Iteration int    `json:"iteration"`
	Text      string `json:"text"`
}

// SaveEdit stores the agent's text and re-runs the deterministic checks on it. Nothing is
// struck from an agent's own words: the result tells the agent which sentences would bind
// the company without an eligible source behind them. The words are judged against every
// source eligible now for the draft's account, not against the draft's claims, so a
// faithful paraphrase of any current policy passes; what fails goes to the rejection log.
func (a *Activities) SaveEdit(ctx context.Context, in EditInput) (*guard.Result, error) {
	if err := a.Store.SaveEdit(ctx, in.TicketID, in.Iteration, in.Text); err != nil {
		return nil, err
	}
	record, err := a.Store.Iteration(ctx, in.TicketID, in.Iteration)
	if err != nil {
		return nil, err
	}
	sources, err := a.Store.EligibleChunks(ctx, time.Now(), record.Account.Plan, record.Account.Region)
	if err != nil {
		return nil, err
	}
	res := a.Vocab.Check(guard.Input{Reply: in.Text, Sources: sources, Mode: guard.ModeAnySource})
	area, err := a.Store.DraftArea(ctx, in.TicketID, in.Iteration)
	if err != nil {
		return nil, err
	}
	if err := a.Store.LogRejections(ctx, in.TicketID, in.Iteration, area, res.Sentences); err != nil {
		return nil, err
	}
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
	now := drafts.SendTimeState{Revision: latest.Revision, RevisionAt: latest.UpdatedAt, Plan: latest.Account.Plan,
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
// recorded verdicts itself still schedule it (see the workflow's send-check-recorded-by-api).
func (a *Activities) RecordSendCheck(ctx context.Context, ticketID string, c drafts.SendCheck) error {
	return a.Store.RecordSendCheck(ctx, ticketID, c)
}
