package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/workflows"
)

// agentOf is the one agent the request acts for. A token acting for several agents must
// name one for a request about one ticket: 400 says how.
func agentOf(ctx context.Context, ticketID string) (string, error) {
	id, err := agent.ID(ctx)
	if err != nil {
		return "", echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf(
			"ticket %s: this token acts for agents %s: name the ticket's agent with ?%s=ID or the %s header",
			ticketID, strings.Join(agent.IDs(ctx), ", "), auth.AgentParam, auth.AgentHeader))
	}
	return id, nil
}

// draftWorkflowID is the ticket's draft workflow under the one agent the request acts for.
func draftWorkflowID(ctx context.Context, ticketID string) (string, error) {
	id, err := agentOf(ctx, ticketID)
	if err != nil {
		return "", err
	}
	return workflows.DraftWorkflowID(id, ticketID), nil
}

// agentLabel is the agent a request acted for, as the metrics' agent label: every
// request a counter counts is about one ticket, so it names one agent.
func agentLabel(ctx context.Context) string { return strings.Join(agent.IDs(ctx), ",") }
