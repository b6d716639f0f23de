package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/workflows"
)

// reviewQueue answers GET /v1/review/queue: the drafts waiting for a person, oldest first,
// read from the table the draft workflows keep.
func (s *Server) reviewQueue(c echo.Context) error {
	items, err := s.Store.ReviewQueue(c.Request().Context())
	if err != nil {
		return err
	}
	if items == nil {
		items = []review.Item{}
	}
	return c.JSON(http.StatusOK, map[string]any{"queue": items})
}

// approve, pull and kill are a reviewer's decisions on a queued draft, sent to its
// workflow as updates; the workflow says whether the decision still applies (409 if not).
// The body may give the decision's reason, {"reason": "..."}: kept with the decision
// once the workflow took it, for the agent's sidebar and the review page.
func (s *Server) approve(c echo.Context) error { return s.decide(c, workflows.UpdateApprove) }
func (s *Server) pull(c echo.Context) error    { return s.decide(c, workflows.UpdatePull) }
func (s *Server) kill(c echo.Context) error    { return s.decide(c, workflows.UpdateKill) }

func (s *Server) decide(c echo.Context, update string) error {
	reason, err := bindReason(c)
	if err != nil {
		return err
	}
	ctx, id, by := c.Request().Context(), c.Param("ticket"), caller(c)
	var entry review.Entry
	var state workflows.DraftState
	var out any = &entry
	if update == workflows.UpdateKill {
		out = &state
	}
	if err := s.update(ctx, id, update, workflows.ReviewDecision{By: by}, out); err != nil {
		return err
	}
	if reason != "" {
		iteration := entry.Iteration
		if state.Review != nil {
			iteration = state.Review.Iteration
		}
		if err := s.Store.AddReviewNote(ctx, id, iteration, store.ReviewNote{Action: update, By: by, Reason: reason}); err != nil {
			return err
		}
	}
	return c.JSON(http.StatusOK, out)
}

// bindReason reads the optional decision body {"reason": "..."}; no body is no reason.
func bindReason(c echo.Context) (string, error) {
	if c.Request().ContentLength == 0 {
		return "", nil
	}
	var b struct {
		Reason string `json:"reason"`
	}
	if err := decodeBody(c, `{"reason": "why"} or empty`, &b); err != nil {
		return "", err
	}
	b.Reason = strings.TrimSpace(b.Reason)
	if len(b.Reason) > 2000 || !validText(b.Reason) {
		return "", badRequest(`field "reason" must be valid text of at most 2,000 bytes`)
	}
	return b.Reason, nil
}

// assignBody is POST /v1/drafts/{ticket}/assign: the reviewer to take the review, "" for
// nobody.
type assignBody struct {
	Assignee *string `json:"assignee"`
}

// assign gives a queued review to a reviewer, or to nobody. It is bookkeeping for the
// review dashboard, not a decision, so it goes to the store and not to the workflow.
func (s *Server) assign(c echo.Context) error {
	var b assignBody
	if err := decodeBody(c, `{"assignee": "reviewer's name, or \"\" for nobody"}`, &b); err != nil {
		return err
	}
	if b.Assignee == nil {
		return badRequest(`field "assignee" is required: a reviewer's name, or "" for nobody`)
	}
	assignee := strings.TrimSpace(*b.Assignee)
	if len(assignee) > 200 || !validText(assignee) {
		return badRequest(`field "assignee" must be valid text of at most 200 bytes`)
	}
	id := c.Param("ticket")
	err := s.Store.AssignReview(c.Request().Context(), id, assignee, caller(c))
	if errors.Is(err, store.ErrNotFound) {
		return echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("ticket %s is not waiting for review", id))
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"ticket_id": id, "assignee": assignee})
}

// overrideBody is POST /v1/drafts/{ticket}/override: why the reviewer lets the draft be
// sent without approving it.
type overrideBody struct {
	Reason string `json:"reason"`
}

// override is a reviewer clearing the review gate with a reason: send-check then answers
// ok (if nothing else stops the send), and the entry keeps who and why.
func (s *Server) override(c echo.Context) error {
	var b overrideBody
	if err := decodeBody(c, `{"reason": "why this draft may be sent without approval"}`, &b); err != nil {
		return err
	}
	if err := checkReason("reason", b.Reason); err != nil {
		return err
	}
	var e review.Entry
	d := workflows.ReviewDecision{By: caller(c), Reason: strings.TrimSpace(b.Reason)}
	if err := s.update(c.Request().Context(), c.Param("ticket"), workflows.UpdateOverride, d, &e); err != nil {
		return err
	}
	s.metrics.reviewOverrides.WithLabelValues(agentLabel(c.Request().Context()), "override").Inc()
	return c.JSON(http.StatusOK, e)
}

// checkReason refuses a missing, oversized or malformed reason, naming its field.
func checkReason(field, reason string) error {
	switch {
	case strings.TrimSpace(reason) == "":
		return badRequest(`field %q is required: say why`, field)
	case len(reason) > 2000 || !validText(reason):
		return badRequest(`field %q must be valid text of at most 2,000 bytes`, field)
	}
	return nil
}

// caller names who decided: the name of the caller's token.
func caller(c echo.Context) string {
	if p, ok := auth.From(c); ok && p.Name != "" {
		return p.Name
	}
	return "unknown"
}

// sent is the help desk's report of the reply that went out. The text is hashed here and
// checked for placeholders; only the hash and the verdict reach the workflow, which
// records them, notes whether the text was edited, and ends.
func (s *Server) sent(c echo.Context) error {
	b, err := bindSent(c)
	if err != nil {
		return err
	}
	if b.OverrideReason != "" {
		if err := checkReason("override_reason", b.OverrideReason); err != nil {
			return err
		}
		if strings.TrimSpace(b.Agent) == "" {
			return badRequest(`field "agent" is required with "override_reason": say who sent the reply`)
		}
	}
	req := workflows.SentRequest{TextSHA256: review.TextHash(b.Text), Blocked: len(guard.Placeholders(b.Text)) > 0,
		SentAt: b.SentAt.UTC(), Agent: b.Agent, OverrideReason: strings.TrimSpace(b.OverrideReason)}
	var res workflows.SentResult
	if err := s.update(c.Request().Context(), c.Param("ticket"), workflows.UpdateSent, req, &res); err != nil {
		return err
	}
	if res.Verdict == drafts.VerdictBlocked {
		s.Log.Warn("a reply went out with unresolved placeholders", "ticket", res.TicketID, "iteration", res.Iteration)
	}
	if res.Verdict == drafts.VerdictReviewPending {
		s.metrics.reviewOverrides.WithLabelValues(agentLabel(c.Request().Context()), "sent").Inc()
		s.Log.Warn("a reply went out without the review it needed", "ticket", res.TicketID, "agent", b.Agent)
	}
	return c.JSON(http.StatusOK, res)
}
