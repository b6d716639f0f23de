// Package sendcheck answers the send hook: is the text an agent is about to send safe to
// go out now? It owns the order of the verdicts, so the handler only binds, calls Check
// and answers:
//
//  1. stale: a version, revision or account the draft is bound to changed. It comes first,
//     whatever else is found, because every other finding is about a draft that is no
//     longer the one to send; the other findings still travel with it.
//  2. blocked: unresolved placeholders or system markers (guard.Placeholders).
//  3. unsupported: commitments no source eligible now backs, unless the agent overrides.
//  4. (refused, 404: no ticket, no draft, or a draft whose run ended.)
//  5. review_pending: the draft must be reviewed and no reviewer cleared it.
//  6. unchecked: the check itself could not run (Postgres down, the guard failed); the
//     send goes ahead with a warning, since blocking every reply is worse.
//  7. ok.
package sendcheck

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/sources"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/workflows"
)

// Causes of an unchecked verdict (drafts.SendCheck.Cause).
const (
	CauseCheckFailed = "check_failed" // the draft, ticket, versions or review entry could not be read
	CauseGuardFailed = "guard_failed" // the text could not be read against the eligible policy
)

// Checker runs send-checks. Every field is required.
type Checker struct {
	Store    *store.Store
	Sources  *sources.Cache
	Vocab    *guard.Vocabulary
	Temporal client.Client // told when a draft is found stale (SignalSendChecked)
	Log      *slog.Logger
}

// Request is one call of the send hook.
type Request struct {
	TicketID string
	Text     string
	// OverrideReason is the agent's reason for sending despite unsupported sentences.
	OverrideReason string
	At             time.Time
}

// RefusedError is a send-check refused because there is nothing to check the text
// against: no such ticket, no draft yet, or a draft whose run ended. The API answers 404.
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

// Check answers the send hook (see the package comment for the order). The text is kept
// in agent_texts first, so the verdict names it (TextID) and the stale signal carries only
// its ID and hash; a refused check deletes it again.
func (c *Checker) Check(ctx context.Context, req Request) (drafts.SendCheck, error) {
	start := c.Store.StartSendCheck(ctx, req.TicketID, req.Text, req.At)
	if err := start.DraftErr; err != nil && !errors.Is(err, store.ErrNotFound) {
		c.Log.Warn("send-check could not read the draft", "ticket", req.TicketID, "error", err)
	}
	if start.TextErr != nil {
		c.Log.Warn("send-check could not keep the text: checking without it", "ticket", req.TicketID, "error", start.TextErr)
	}
	f := Findings{Placeholders: guard.Placeholders(req.Text), OverrideReason: req.OverrideReason}
	f.Unbacked, f.Guarded = c.unbacked(ctx, req.TicketID, req.Text, start)
	switch {
	case errors.Is(start.DraftErr, store.ErrNotFound):
		f.Missing = fmt.Sprintf("no draft for ticket %s yet: open it in the sidebar first", req.TicketID)
		if c.unknownTicket(ctx, req.TicketID) {
			f.Missing = fmt.Sprintf("no ticket %s: open it in the sidebar first", req.TicketID)
		}
	case start.Draft != nil && drafts.Ended(start.Draft.Status):
		f.Missing = fmt.Sprintf("no open draft for ticket %s: its draft was %s; open it in the sidebar for a new one", req.TicketID, start.Draft.Status)
	}
	if start.Draft != nil {
		f.Iteration = start.Draft.Iteration
	}
	f.Stale, f.CheckErr = freshness(start)
	f.Review = gate(start)
	if f.CheckErr != nil {
		c.Log.Warn("send-check unavailable: send allowed unchecked", "ticket", req.TicketID, "error", f.CheckErr)
	}
	res, refused := Decide(f)
	if res.Verdict == drafts.VerdictStale && c.tellStale(ctx, req.TicketID, res, start.Text) {
		refused = &RefusedError{Msg: fmt.Sprintf("no open draft for ticket %s: open it in the sidebar first", req.TicketID)}
	}
	if refused != nil {
		if start.Text != nil {
			c.dropText(ctx, req.TicketID, start.Text.ID) // no verdict will name it
		}
		return drafts.SendCheck{}, refused
	}
	if start.Text != nil {
		res.TextID = start.Text.ID
	}
	return res, nil
}

// freshness compares the draft's bindings with the world now, as StartSendCheck read them:
// the stale reasons, or the error that kept the comparison (or the review gate's read)
// from running.
func freshness(start store.SendCheckStart) ([]drafts.StaleReason, error) {
	reviewErr := start.ReviewErr
	if errors.Is(reviewErr, store.ErrNotFound) {
		reviewErr = nil // never queued: no gate
	}
	if err := cmp.Or(start.DraftErr, start.TicketErr, start.EligibleErr, reviewErr); err != nil {
		return nil, err
	}
	now := store.SendTimeStateOf(start.Ticket, start.Draft.Bound, start.Eligible)
	return drafts.Staleness(start.Draft, now), nil
}

// gate is why the review gate holds the draft, read from the entry of the iteration being
// sent: nothing when it was never queued, needs no review, or a reviewer cleared it.
func gate(start store.SendCheckStart) []drafts.ReviewReason {
	if start.Review == nil || start.Draft == nil || start.Review.Iteration != start.Draft.Iteration {
		return nil
	}
	return start.Review.Gate()
}

// unbacked runs the guard on text against the chunks of the versions eligible now for the
// account of the ticket's latest revision, as StartSendCheck read them. guarded is false
// when the guard could not run (no stored ticket, database error): the send then goes on
// unchecked, never blocked by a checker that is down.
func (c *Checker) unbacked(ctx context.Context, ticketID, text string, start store.SendCheckStart) (out []drafts.Unbacked, guarded bool) {
	err := cmp.Or(start.TicketErr, start.EligibleErr)
	if err == nil {
		var read *guard.Sources
		if read, err = c.Sources.Read(ctx, start.Eligible); err == nil {
			return drafts.UnbackedCommitments(c.Vocab, text, read), true
		}
	}
	c.Log.Warn("send-check could not run the guard: the text is not checked against policy", "ticket", ticketID, "error", err)
	return nil, false
}

// tellStale tells the draft's workflow that the send hook found its draft stale, so that
// the sidebar shows the draft stale. ended reports a workflow that had ended since the
// draft was read. A workflow Temporal cannot reach now is only logged: the verdict stands
// (a stale draft must not go out because Temporal is down), and the next check tells it
// again.
func (c *Checker) tellStale(ctx context.Context, ticketID string, res drafts.SendCheck, ref *drafts.TextRef) (ended bool) {
	sig := workflows.SendCheckedSignal{Iteration: res.Iteration, Verdict: res.Verdict, Reasons: res.Reasons, Ref: ref}
	workflowID, err := workflows.DraftWorkflowIDFor(ctx, ticketID)
	if err == nil {
		err = c.Temporal.SignalWorkflow(ctx, workflowID, "", workflows.SignalSendChecked, sig)
	}
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return true
	}
	if err != nil {
		c.Log.Warn("send-check found the draft stale but could not tell its workflow", "ticket", ticketID, "error", err)
	}
	return false
}

// unknownTicket reports a ticket the database positively does not know. A database that
// cannot answer proves nothing: the send then stays "unchecked", not refused.
func (c *Checker) unknownTicket(ctx context.Context, id string) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	exists, err := c.Store.TicketExists(ctx, id)
	return err == nil && !exists
}

// dropText deletes the kept text of a refused check; the request's own context may be
// cancelled already.
func (c *Checker) dropText(ctx context.Context, ticketID string, id int64) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := c.Store.DeleteAgentText(ctx, id); err != nil {
		c.Log.Error("orphan agent text left after a refused send-check", "ticket", ticketID, "text", id, "error", err)
	}
}
