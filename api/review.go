package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/review"
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
func (s *Server) approve(c echo.Context) error { return s.decide(c, workflows.UpdateApprove) }
func (s *Server) pull(c echo.Context) error    { return s.decide(c, workflows.UpdatePull) }
func (s *Server) kill(c echo.Context) error    { return s.decide(c, workflows.UpdateKill) }

func (s *Server) decide(c echo.Context, update string) error {
	var out any = &review.Entry{}
	if update == workflows.UpdateKill {
		out = &workflows.DraftState{}
	}
	if err := s.update(c.Request().Context(), c.Param("ticket"), update, workflows.ReviewDecision{By: caller(c)}, out); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
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
	req := workflows.SentRequest{TextSHA256: review.TextHash(b.Text), Blocked: len(guard.Placeholders(b.Text)) > 0,
		SentAt: b.SentAt.UTC(), Agent: b.Agent}
	var res workflows.SentResult
	if err := s.update(c.Request().Context(), c.Param("ticket"), workflows.UpdateSent, req, &res); err != nil {
		return err
	}
	if res.Verdict == drafts.VerdictBlocked {
		s.Log.Warn("a reply went out with unresolved placeholders", "ticket", res.TicketID, "iteration", res.Iteration)
	}
	return c.JSON(http.StatusOK, res)
}
