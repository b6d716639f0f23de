package api

import (
	"context"
	"errors"
	"fmt"
	"github.com/supportdraft/supportdraft/policy"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/workflows"
)

// startDraft is the sidebar: start the ticket's workflow, or reach the running one, for
// this revision, and answer with the draft the workflow returns once it is built.
func (s *Server) startDraft(c echo.Context) error {
	t, err := bindTicket(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if halted, err := s.Store.Halted(ctx); err != nil || halted {
		s.metrics.intake.WithLabelValues("halted").Inc()
		return echo.NewHTTPError(http.StatusServiceUnavailable, "drafting is halted by the kill switch (`supportdraft killswitch off` resumes it); write this reply by hand")
	}
	if err := s.Store.SaveTicket(ctx, t); err != nil {
		return err
	}
	in := &workflows.DraftInput{TicketID: t.TicketID, Revision: t.Revision, IdleTimeout: s.Config.IdleTimeout,
		CheckBudget: s.Config.CheckBudget, ReviewDelay: s.Config.ReviewDelay}
	view, err := workflows.Open(ctx, s.Temporal, workflows.DraftWorkflowID(t.TicketID), s.Config.TaskQueue, in)
	if err != nil {
		return err
	}
	s.metrics.intake.WithLabelValues("drafted").Inc()
	return s.respondView(c, view)
}

func bindTicket(c echo.Context) (*ticket.Ticket, error) {
	var t ticket.Ticket
	if err := c.Bind(&t); err != nil {
		return nil, echo.NewHTTPError(http.StatusBadRequest, "body is not a ticket revision (a JSON object with ticket_id, revision, updated_at, account and messages): "+bindMessage(err))
	}
	if err := t.Validate(); err != nil {
		return nil, echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	return &t, nil
}

func bindMessage(err error) string {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return fmt.Sprint(he.Message)
	}
	return err.Error()
}

// getDraft reads the ticket's latest draft from the store: it answers whether or not the
// workflow still runs.
func (s *Server) getDraft(c echo.Context) error {
	r, err := s.Store.LatestDraft(c.Request().Context(), c.Param("ticket"))
	if err != nil {
		return err
	}
	return s.respondView(c, workflows.NewDraftView(r))
}

// respondView answers with a draft view, linked to its workflow in the Temporal UI.
func (s *Server) respondView(c echo.Context, v *workflows.DraftView) error {
	v.LinkTemporalUI(s.Config.TemporalUI, s.Config.Namespace)
	return c.JSON(http.StatusOK, v)
}

type textBody struct {
	Text string `json:"text"`
}

func (s *Server) edit(c echo.Context) error {
	var b textBody
	if err := c.Bind(&b); err != nil || b.Text == "" {
		return echo.NewHTTPError(http.StatusBadRequest, `field "text" is required: the agent's edited reply`)
	}
	var res workflows.EditResult
	if err := s.update(c.Request().Context(), c.Param("ticket"), workflows.UpdateEdit, workflows.EditRequest{Text: b.Text}, &res); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, res)
}

// sendCheckBody is what the help desk posts before sending: the text, and the agent's
// reason when sending despite an unsupported verdict.
type sendCheckBody struct {
	Text           string `json:"text"`
	OverrideReason string `json:"override_reason"`
}

// sendCheck is the send hook. Placeholders are refused first, with no dependency that
// could be down. Then the guard reads the text against every source eligible now for the
// account: commitments none backs make the verdict unsupported, unless the agent gives an
// override reason (kept with the verdict). Then the workflow checks freshness; if the API
// cannot reach it in time the answer is "unchecked" (send allowed, warning shown), logged
// and counted.
func (s *Server) sendCheck(c echo.Context) error {
	var b sendCheckBody
	if err := c.Bind(&b); err != nil || strings.TrimSpace(b.Text) == "" {
		return echo.NewHTTPError(http.StatusBadRequest, `body must be {"text": "the reply about to be sent"} with a non-empty text`)
	}
	id := c.Param("ticket")
	ctx, cancel := context.WithTimeout(c.Request().Context(), s.Config.CheckBudget+time.Second)
	defer cancel()
	iteration, err := s.Store.LastIteration(ctx, id)
	if err != nil {
		s.Log.Warn("send-check could not read the draft iteration", "ticket", id, "error", err)
	}
	if spans := guard.Placeholders(b.Text); len(spans) > 0 {
		return s.answerSendCheck(c, id, drafts.SendCheck{Verdict: drafts.VerdictBlocked, Placeholders: spans, Iteration: iteration,
			Warning: "The reply still contains unresolved placeholders: fill them in before sending."})
	}
	unbacked, guarded := s.unbacked(ctx, id, b.Text)
	if len(unbacked) > 0 && strings.TrimSpace(b.OverrideReason) == "" {
		return s.answerSendCheck(c, id, drafts.UnsupportedCheck(unbacked, iteration))
	}
	var res workflows.SendCheckResult
	err = s.update(ctx, id, workflows.UpdateSendCheck, workflows.SendCheckRequest{Text: b.Text}, &res)
	var notFound *serviceerror.NotFound
	switch {
	case errors.As(err, &notFound):
		return echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("no open draft for ticket %s: open it in the sidebar first", id))
	case err != nil && isRejection(err):
		return err // e.g. the draft was discarded: 409 from the error handler
	case err != nil:
		s.Log.Warn("send-check could not reach the draft workflow: allowing the send unchecked", "ticket", id, "error", err)
		s.metrics.unchecked.WithLabelValues("temporal_unreachable").Inc()
		res = drafts.SendCheck{Verdict: drafts.VerdictUnchecked, Warning: drafts.UncheckedWarning, Cause: "temporal_unreachable", Iteration: iteration}
	case res.Verdict == drafts.VerdictUnchecked:
		res.Cause = "check_failed"
		s.metrics.unchecked.WithLabelValues("check_failed").Inc()
	}
	if !guarded && res.Verdict == drafts.VerdictOK {
		res.Verdict, res.Warning = drafts.VerdictUnchecked, drafts.UnguardedWarning
		s.metrics.unchecked.WithLabelValues("guard_failed").Inc()
	}
	if len(unbacked) > 0 {
		res.Unsupported, res.OverrideReason = unbacked, strings.TrimSpace(b.OverrideReason)
	}
	return s.answerSendCheck(c, id, res)
}

// unbacked runs the guard on text against the sources eligible now for the ticket's
// account. guarded is false when it could not run (no stored ticket, database error): the
// send then goes on unchecked, never blocked by a checker that is down.
func (s *Server) unbacked(ctx context.Context, ticketID, text string) (out []drafts.Unbacked, guarded bool) {
	t, err := s.Store.LatestTicket(ctx, ticketID)
	if err == nil {
		var sources []policy.Evidence
		if sources, err = s.Store.EligibleChunks(ctx, time.Now(), t.Account.Plan, t.Account.Region); err == nil {
			return drafts.UnbackedCommitments(s.Vocab, text, sources), true
		}
	}
	s.Log.Warn("send-check could not run the guard: the text is not checked against policy", "ticket", ticketID, "error", err)
	return nil, false
}

// answerSendCheck counts the verdict, keeps it in send_checks and answers the hook. The API
// records it, not the workflow, so that every answer the hook got is on record, including
// those given without the workflow (placeholders, Temporal unreachable), and so that a
// send-check costs the workflow no extra activity. A failed record is logged; it never
// turns into a refused send (the workflow's history still holds its verdicts).
func (s *Server) answerSendCheck(c echo.Context, ticketID string, res drafts.SendCheck) error {
	s.metrics.sendChecks.WithLabelValues(res.Verdict).Inc()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), time.Second)
	defer cancel()
	if err := s.Store.RecordSendCheck(ctx, ticketID, res); err != nil {
		s.Log.Error("send-check verdict not recorded in send_checks", "ticket", ticketID, "verdict", res.Verdict, "error", err)
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
	t, err := bindTicket(c)
	if err != nil {
		return err
	}
	if t.TicketID != c.Param("ticket") {
		return echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf(`field "ticket_id" is %q but the URL names ticket %q`, t.TicketID, c.Param("ticket")))
	}
	ctx := c.Request().Context()
	if err := s.Store.SaveTicket(ctx, t); err != nil {
		return err
	}
	err = s.Temporal.SignalWorkflow(ctx, workflows.DraftWorkflowID(t.TicketID), "", workflows.SignalRevision,
		workflows.RevisionSignal{Revision: t.Revision, UpdatedAt: t.UpdatedAt})
	var notFound *serviceerror.NotFound
	if err != nil && !errors.As(err, &notFound) {
		return err
	}
	return c.JSON(http.StatusAccepted, map[string]any{"ticket_id": t.TicketID, "revision": t.Revision, "draft_notified": err == nil})
}

// update sends a workflow update and waits for its result.
func (s *Server) update(ctx context.Context, ticketID, name string, arg, out any) error {
	opts := client.UpdateWorkflowOptions{WorkflowID: workflows.DraftWorkflowID(ticketID), UpdateName: name,
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
