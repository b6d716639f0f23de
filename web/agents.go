package web

import (
	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/auth"
)

// agentChoice is the choice of one agent that a page offers a person whose token names
// several: the page's path, their agents, and the one chosen ("" for all of them). What
// each choice shows is decided by the store's row-level security, not by the page.
type agentChoice struct {
	Path    string
	Agents  []string
	Current string
}

// choiceOf is the agent choice of the page at path, or nil for a person of one agent.
func choiceOf(c echo.Context, path string) *agentChoice {
	who, _ := auth.From(c)
	if len(who.Agents) < 2 {
		return nil
	}
	return &agentChoice{Path: path, Agents: who.Agents, Current: c.QueryParam(auth.AgentParam)}
}
