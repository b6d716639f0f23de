package api

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/sendcheck"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/workflows"
)

// startDraft is the sidebar: start the ticket's workflow, or reach the running one, for
// this revision, and answer with the draft once it is built. The ticket is validated
// before anything is written, and a revision this call stored is removed again if the
// workflow could not be reached, so a failed start leaves no orphan row.
func (s *Server) startDraft(c echo.Context) error {
	t, err := s.bindTicket(c)
	if err != nil {
		return err
	}
	return s.openDraft(c, t, false)
}

// openDraft opens a validated ticket's draft (update-with-start), answering the draft
// view: the one path of POST /v1/drafts and of Zendesk's events. fromHelpDesk says the
// ticket's facts are the help desk's own (a ticket read back from Zendesk's API), stored
// as its revision; otherwise openFacts decides what the caller may open.
func (s *Server) openDraft(c echo.Context, t *ticket.Ticket, fromHelpDesk bool) error {
	ctx := c.Request().Context()
	if err := s.mayDraft(ctx); err != nil {
		return err
	}
	fromBody := fromHelpDesk
	if !fromHelpDesk {
		var err error
		if t, fromBody, err = s.openFacts(ctx, c, t); err != nil {
			return err
		}
	}
	return s.open(c, t, fromBody)
}

// reopen starts a new draft for a ticket whose draft ended (a reviewer killed it, the
// agent discarded it) from the ticket's latest stored revision: the sidebar's "start a
// new draft", which has no ticket body to send.
func (s *Server) reopen(c echo.Context) error {
	ctx, id := c.Request().Context(), c.Param("ticket")
	if err := s.mayDraft(ctx); err != nil {
		return err
	}
	t, err := s.Store.LatestTicket(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("no ticket %s: the help desk opens it first", id))
	}
	if err != nil {
		return err
	}
	return s.open(c, t, false)
}

// mayDraft refuses a new draft while the kill switch is on (503 with what to do) or
// Temporal cannot be reached.
func (s *Server) mayDraft(ctx context.Context) error {
	halted, err := s.Store.Halted(ctx)
	if err != nil {
		return err
	}
	if halted {
		s.metrics.intake.WithLabelValues(agentLabel(ctx), "halted").Inc()
		return echo.NewHTTPError(http.StatusServiceUnavailable, "drafting is halted by the kill switch (`supportdraft killswitch off` resumes it); write this reply by hand")
	}
	return s.reachTemporal(ctx)
}

// open starts the ticket's workflow for revision t, or reaches the running one, and
// answers with the draft once it is built; save stores the revision first.
func (s *Server) open(c echo.Context, t *ticket.Ticket, save bool) error {
	ctx := c.Request().Context()
	workflowID, err := draftWorkflowID(ctx, t.TicketID)
	if err != nil {
		return err
	}
	inserted := false
	if save {
		if inserted, err = s.saveRevision(ctx, t); err != nil {
			return err
		}
	}
	settings, err := s.Store.AgentSettings(ctx)
	if err != nil {
		return err
	}
	in := &workflows.DraftInput{TicketID: t.TicketID, Revision: t.Revision, IdleTimeout: s.Config.IdleTimeout,
		CheckBudget: s.Config.CheckBudget, ReviewDelay: cmp.Or(settings.Window(), s.Config.ReviewDelay), ReviewThreshold: settings.ReviewThreshold,
		NotifySlack: s.Config.NotifySlack}
	view, err := workflows.Open(ctx, s.Temporal, workflowID, s.Config.TaskQueue, in)
	if err != nil {
		if inserted && !reachedWorkflow(err) {
			s.undoRevision(c, t)
		}
		return err
	}
	s.metrics.intake.WithLabelValues(agentLabel(ctx), "drafted").Inc()
	return s.respondView(c, view)
}

// openFacts decides which revision an open drafts from. Account facts (plan, region,
// locale, account ID) and revisions are the help desk's: a signed help-desk open stores
// its body as the revision. Anyone else (the sidebar's agent token or session) may name
// a ticket the help desk has sent and opens its latest stored revision; a body that
// would add a revision or change the account is refused with 409, so an agent cannot
// have a draft built for another plan or region. A ticket nobody has stored yet is
// stored from the sidebar's body as its first revision only. fromBody reports whether
// the body is to be stored.
func (s *Server) openFacts(ctx context.Context, c echo.Context, t *ticket.Ticket) (open *ticket.Ticket, fromBody bool, err error) {
	if p, ok := auth.From(c); ok && p.Role == auth.Helpdesk {
		return t, true, nil
	}
	stored, err := s.Store.LatestTicket(ctx, t.TicketID)
	switch {
	case errors.Is(err, store.ErrNotFound) && t.Revision == 1:
		return t, true, nil
	case errors.Is(err, store.ErrNotFound):
		return nil, false, echo.NewHTTPError(http.StatusConflict, fmt.Sprintf(
			`ticket %s: field "revision" is %d but no revision is stored: the sidebar may open a new ticket at revision 1; later revisions come from the help desk's signed webhook (POST /v1/tickets/%s/revisions)`,
			t.TicketID, t.Revision, t.TicketID))
	case err != nil:
		return nil, false, err
	case t.Revision > stored.Revision:
		return nil, false, echo.NewHTTPError(http.StatusConflict, fmt.Sprintf(
			`ticket %s: field "revision" is %d but the help desk's latest is %d: new revisions come from the help desk's signed webhook (POST /v1/tickets/%s/revisions)`,
			t.TicketID, t.Revision, stored.Revision, t.TicketID))
	case !sameAccount(t.Account, stored.Account):
		return nil, false, echo.NewHTTPError(http.StatusConflict, fmt.Sprintf(
			`ticket %s: field "account" differs from the help desk's (plan %s, region %s): account facts come only from the help desk`,
			t.TicketID, stored.Account.Plan, stored.Account.Region))
	}
	return stored, false, nil
}

// sameAccount compares the facts that decide eligibility and whose account it is; the
// optional name is not one of them.
func sameAccount(a, b ticket.Account) bool {
	return a.ID == b.ID && a.Plan == b.Plan && a.Region == b.Region && a.Eligibility().Locale == b.Eligibility().Locale
}

// reachedWorkflow reports an error the workflow itself returned (a validator's refusal, a
// failed build): the workflow holds the revision, so it stays stored.
func reachedWorkflow(err error) bool {
	var appErr *temporal.ApplicationError
	return errors.As(err, &appErr)
}

// undoRevision deletes a revision whose workflow was never reached; the request's own
// context may be cancelled already.
func (s *Server) undoRevision(c echo.Context, t *ticket.Ticket) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), 5*time.Second)
	defer cancel()
	if err := s.Store.DeleteTicketRevision(ctx, t.TicketID, t.Revision); err != nil {
		s.Log.Error("orphan ticket revision left after a failed start", "ticket", t.TicketID, "revision", t.Revision, "error", err)
	}
}

// getDraft reads the ticket's latest draft from the store: it answers whether or not the
// workflow still runs.
func (s *Server) getDraft(c echo.Context) error {
	r, err := s.Store.LatestIteration(c.Request().Context(), c.Param("ticket"))
	if err != nil {
		return err
	}
	agentID, err := agentOf(c.Request().Context(), r.TicketID)
	if err != nil {
		return err
	}
	return s.respondView(c, workflows.NewDraftView(agentID, r))
}

// respondView answers with a draft view, linked to its workflow in the Temporal UI.
func (s *Server) respondView(c echo.Context, v *workflows.DraftView) error {
	v.LinkTemporalUI(s.Config.TemporalUI, s.Config.Namespace)
	return c.JSON(http.StatusOK, v)
}

// edit keeps the agent's text in Postgres, has the workflow store it on the draft and check
// it (the update names the text by ID and hash, so its words never enter the history), and
// answers with the checks, read back from the store. A text the workflow never took is
// deleted again: a refused edit leaves no row.
func (s *Server) edit(c echo.Context) error {
	text, err := bindText(c)
	if err != nil {
		return err
	}
	ctx, id := c.Request().Context(), c.Param("ticket")
	if _, err := agentOf(ctx, id); err != nil {
		return err
	}
	ref, err := s.Store.SaveAgentText(ctx, id, store.TextEdit, text)
	if err != nil {
		return err
	}
	var res workflows.EditResult
	if err := s.update(ctx, id, workflows.UpdateEdit, workflows.EditRequest{Ref: &ref}, &res); err != nil {
		s.dropText(c, id, ref)
		return err
	}
	checks, err := s.Store.TextChecks(ctx, id, ref.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, checks)
}

// dropText deletes a kept text whose update did not go through; the request's own context
// may be cancelled already.
func (s *Server) dropText(c echo.Context, ticketID string, ref drafts.TextRef) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), 5*time.Second)
	defer cancel()
	if err := s.Store.DeleteAgentText(ctx, ref.ID); err != nil {
		s.Log.Error("orphan agent text left after a refused update", "ticket", ticketID, "text", ref.ID, "error", err)
	}
}

// sendCheck is the send hook: sendcheck.Checker decides the verdict (its package comment
// gives the order); a check with nothing to check against (no ticket, no draft, an ended
// draft) is a 404 and a malformed body a 400.
func (s *Server) sendCheck(c echo.Context) error {
	b, err := bindSendText(c, true)
	if err != nil {
		return err
	}
	if _, err := agentOf(c.Request().Context(), c.Param("ticket")); err != nil {
		return err // the verdict is recorded for one agent
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), s.Config.CheckBudget+time.Second)
	defer cancel()
	res, err := s.checker.Check(ctx, sendcheck.Request{TicketID: c.Param("ticket"), Text: b.Text,
		OverrideReason: b.OverrideReason, At: time.Now()})
	var refused *sendcheck.RefusedError
	if errors.As(err, &refused) {
		return echo.NewHTTPError(http.StatusNotFound, refused.Msg)
	}
	if err != nil {
		return err
	}
	return s.answerSendCheck(c, c.Param("ticket"), res)
}

// answerSendCheck counts the verdict, keeps it in send_checks and answers the hook. The API
// records it, not the workflow, so that every answer the hook got is on record, including
// those given without the workflow (placeholders, Temporal unreachable). A verdict the
// database cannot take goes to the local spool (replayed when the database is back); only
// if that fails too is it just logged: a failed record never turns into a refused send.
func (s *Server) answerSendCheck(c echo.Context, ticketID string, res drafts.SendCheck) error {
	s.metrics.sendChecks.WithLabelValues(agentLabel(c.Request().Context()), res.Verdict).Inc()
	if res.Verdict == drafts.VerdictUnchecked {
		s.metrics.unchecked.WithLabelValues(agentLabel(c.Request().Context()), res.Cause).Inc()
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), time.Second)
	defer cancel()
	at := time.Now()
	if err := s.Store.RecordSendCheckAt(ctx, ticketID, res, at); err != nil {
		s.Log.Error("send-check verdict not recorded in send_checks: spooling it", "ticket", ticketID, "verdict", res.Verdict, "error", err)
		if s.Config.Spool == nil {
			return c.JSON(http.StatusOK, res)
		}
		if err := s.Config.Spool.Add(ticketID, res, at); err != nil {
			s.Log.Error("send-check verdict lost: spool unwritable", "ticket", ticketID, "verdict", res.Verdict, "error", err)
		} else {
			s.metrics.spooled.Inc()
		}
	}
	return c.JSON(http.StatusOK, res)
}

func (s *Server) rebuild(c echo.Context) error {
	var view workflows.DraftView
	if err := s.update(c.Request().Context(), c.Param("ticket"), workflows.UpdateRebuild, nil, &view); err != nil {
		return err
	}
	return s.respondView(c, &view)
}

func (s *Server) discard(c echo.Context) error {
	var state workflows.DraftState
	if err := s.update(c.Request().Context(), c.Param("ticket"), workflows.UpdateDiscard, nil, &state); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, state)
}

// newRevision is the help desk's webhook: store the revision; if a draft is open, tell it.
func (s *Server) newRevision(c echo.Context) error {
	t, err := s.bindTicket(c)
	if err != nil {
		return err
	}
	if t.TicketID != c.Param("ticket") {
		return echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf(`field "ticket_id" is %q but the URL names ticket %q`, t.TicketID, c.Param("ticket")))
	}
	ctx := c.Request().Context()
	workflowID, err := draftWorkflowID(ctx, t.TicketID)
	if err != nil {
		return err
	}
	if _, err := s.saveRevision(ctx, t); err != nil {
		return err
	}
	// Stored first: the send hook reads revisions from Postgres, so a draft turns stale
	// there even while Temporal is down; the help desk's retry of a 503 is a no-op store.
	if err := s.reachTemporal(ctx); err != nil {
		return err
	}
	err = s.Temporal.SignalWorkflow(ctx, workflowID, "", workflows.SignalRevision,
		workflows.RevisionSignal{Revision: t.Revision, UpdatedAt: t.UpdatedAt})
	var notFound *serviceerror.NotFound
	if err != nil && !errors.As(err, &notFound) {
		return err
	}
	return c.JSON(http.StatusAccepted, map[string]any{"ticket_id": t.TicketID, "revision": t.Revision, "draft_notified": err == nil})
}

// update sends a workflow update and waits for its result.
func (s *Server) update(ctx context.Context, ticketID, name string, arg, out any) error {
	workflowID, err := draftWorkflowID(ctx, ticketID)
	if err != nil {
		return err
	}
	if err := s.reachTemporal(ctx); err != nil {
		return err
	}
	opts := client.UpdateWorkflowOptions{WorkflowID: workflowID, UpdateName: name,
		WaitForStage: client.WorkflowUpdateStageCompleted}
	if arg != nil {
		opts.Args = []any{arg}
	}
	h, err := s.Temporal.UpdateWorkflow(ctx, opts)
	if err != nil {
		return err
	}
	return h.Get(ctx, out)
}
