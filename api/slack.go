package api

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"
	"go.temporal.io/api/serviceerror"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/slackreview"
	"github.com/supportdraft/supportdraft/workflows"
)

// Slack is the interactivity side of the Slack app: the signing secret its requests are
// signed with, and who each Slack user is to us.
type Slack struct {
	SigningSecret string
	Reviewers     slackreview.Reviewers
	// Poster marks a decided draft's message as decided (nil: the message is left as is).
	Poster *slackreview.Poster
}

// slackInteraction takes a reviewer's click on a queued draft's Slack message. The route is
// open to callers without a token: the request's Slack signature is its credential, checked
// here, and a signature seen before is a replay. The Slack user must map to a reviewer
// whose role may take the same decision through the API; the decision then goes to the
// draft's workflow as the API's would, recorded as the reviewer's.
func (s *Server) slackInteraction(c echo.Context) error {
	if s.Config.Slack == nil {
		return echo.NewHTTPError(http.StatusNotFound, "Slack is not configured on this server (SUPPORTDRAFT_SLACK_SIGNING_SECRET)")
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "read body: "+err.Error())
	}
	sig, err := slackreview.Verify(c.Request().Header, body, s.Config.Slack.SigningSecret)
	if err != nil {
		reason := "forged"
		switch {
		case errors.Is(err, slackreview.ErrUnsigned):
			reason = "unsigned"
		case errors.Is(err, slackreview.ErrStale):
			reason = "stale"
		}
		s.metrics.slackRefused.WithLabelValues(reason).Inc()
		return echo.NewHTTPError(http.StatusUnauthorized, err.Error())
	}
	first, err := s.Store.FirstSlackRequest(c.Request().Context(), sig)
	if err != nil {
		return err
	}
	if !first {
		s.metrics.slackRefused.WithLabelValues("replayed").Inc()
		return echo.NewHTTPError(http.StatusUnauthorized, "X-Slack-Signature was already used: the request is a replay")
	}
	act, err := slackreview.ParseAction(body)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	who, ok := s.Config.Slack.Reviewers[act.UserID]
	if !ok || !who.Allowed(act.Action) {
		s.metrics.slackRefused.WithLabelValues("not_a_reviewer").Inc()
		return echo.NewHTTPError(http.StatusForbidden, fmt.Sprintf("Slack user %s may not %s drafts: map them to a reviewer in SUPPORTDRAFT_SLACK_REVIEWERS", act.UserID, act.Action))
	}
	// The message names the draft's agent: the decision acts for it.
	ctx := agent.With(c.Request().Context(), act.AgentID)
	// A click on the message of an earlier iteration must not decide the draft rebuilt since.
	queued, err := s.Store.QueuedIteration(ctx, act.TicketID)
	if err != nil {
		return err
	}
	if queued == 0 {
		return echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("ticket %s has no draft in the review queue", act.TicketID))
	}
	if queued != act.Iteration {
		return echo.NewHTTPError(http.StatusConflict, fmt.Sprintf("ticket %s: this message is about iteration %d, and iteration %d is queued now", act.TicketID, act.Iteration, queued))
	}
	update := map[string]string{slackreview.ActionApprove: workflows.UpdateApprove,
		slackreview.ActionPull: workflows.UpdatePull, slackreview.ActionKill: workflows.UpdateKill}[act.Action]
	var out any = &review.Entry{}
	if update == workflows.UpdateKill {
		out = &workflows.DraftState{}
	}
	decision := workflows.ReviewDecision{By: "slack:" + who.Name}
	if err := s.update(ctx, act.TicketID, update, decision, out); err != nil {
		var notFound *serviceerror.NotFound
		if errors.As(err, &notFound) {
			return echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("no draft for ticket %s: its workflow has ended", act.TicketID))
		}
		return err
	}
	s.Log.Info("review decision from Slack", "ticket", act.TicketID, "iteration", act.Iteration, "action", act.Action, "by", who.Name)
	if p := s.Config.Slack.Poster; p != nil {
		// The decision stands either way; a message left with its buttons only invites a
		// second click, which the workflow refuses.
		if err := p.Decided(c.Request().Context(), act, who.Name); err != nil {
			s.Log.Warn("could not mark the Slack message decided", "ticket", act.TicketID, "error", err)
		}
	}
	return c.JSON(http.StatusOK, out)
}
