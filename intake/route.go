package intake

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/inbox"
)

// Agents finds the agent an inbound message is addressed to (store.Store.AgentForAddress).
type Agents interface {
	AgentForAddress(ctx context.Context, recipients []string) (string, *inbox.Support, error)
}

// ErrAgentRefused marks a message routed to an agent its sender may not deliver for.
var ErrAgentRefused = errors.New("not an agent this sender delivers for")

// route is ctx acting for the agent m is addressed to, and t with that agent's addresses
// added to its own, so the agent's mail coming back is seen as a loop. The agent is the one whose addresses hold a To recipient, else a Cc
// recipient; none: the default agent. A target without Agents leaves ctx's agent as it is.
func (t Target) route(ctx context.Context, m *inbox.Message) (context.Context, Target, error) {
	if t.Agents == nil {
		return ctx, t, nil
	}
	id, own, err := t.Agents.AgentForAddress(ctx, slices.Concat(m.To, m.Cc))
	if err != nil {
		return nil, t, err
	}
	if id == "" {
		id = agent.Default
	}
	if t.Allowed != nil && !slices.Contains(t.Allowed, id) {
		return nil, t, fmt.Errorf("message %s is addressed to agent %s: %w", m.MessageID, id, ErrAgentRefused)
	}
	t.Own = t.Own.Union(own)
	return agent.With(ctx, id), t, nil
}
