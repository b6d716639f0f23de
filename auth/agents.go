package auth

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/store"
)

// AgentParam and AgentHeader name the one agent a request acts for, when its token acts
// for several. A signed webhook names it only in the query, which its signature covers.
const (
	AgentParam  = "agent"
	AgentHeader = "X-Supportdraft-Agent"
)

// actingAgents are the agents a request's context acts for: the one it names, which must
// be one of the caller's, or else all of the caller's. A help desk that names none acts
// for the default agent when its token includes it: its webhooks predate agents.
func actingAgents(c echo.Context, p Principal) ([]string, error) {
	named := c.QueryParam(AgentParam)
	if h := c.Request().Header.Get(AgentHeader); h != "" {
		if p.Role == Helpdesk {
			return nil, echo.NewHTTPError(http.StatusBadRequest, "a signed webhook names its agent in the query (?agent=ID), which the signature covers, not in "+AgentHeader)
		}
		if named != "" && named != h {
			return nil, echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf("?agent=%q and %s %q name different agents: name one", named, AgentHeader, h))
		}
		named = h
	}
	if named == "" && p.Role == Helpdesk && len(p.Agents) > 1 && slices.Contains(p.Agents, agent.Default) {
		return []string{agent.Default}, nil
	}
	if named == "" {
		return p.Agents, nil
	}
	if !slices.Contains(p.Agents, named) {
		return nil, echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf("agent %q is not one this token acts for: choose one of %s", named, strings.Join(p.Agents, ", ")))
	}
	return []string{named}, nil
}

// sessionAgents are the agents a session acts for: those it was opened with that its
// token still names, so narrowing a token narrows its live sessions. A session cookie
// from before agents existed carries none and acts for its token's.
func sessionAgents(sess Session, t store.Token) []string {
	if len(sess.Agents) == 0 {
		return t.Agents
	}
	var still []string
	for _, a := range sess.Agents {
		if slices.Contains(t.Agents, a) {
			still = append(still, a)
		}
	}
	return still
}
