package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/inbox"
)

// AgentForAddress is the agent one of whose addresses (exact, or globs such as
// payments@*) is among recipients, tried in order, with all of that agent's addresses; ""
// and nil when no agent's is. At each recipient the default agent is tried last, so an
// agent's own address wins over the default agent's broad globs.
func (s *Store) AgentForAddress(ctx context.Context, recipients []string) (string, *inbox.Support, error) {
	rows, err := s.db.Query(ctx, `SELECT id, addresses FROM agents WHERE cardinality(addresses) > 0 ORDER BY id = $1, id`, agent.Default)
	if err != nil {
		return "", nil, fmt.Errorf("read the agents' addresses: %w", err)
	}
	type entry struct {
		ID        string
		Addresses []string
	}
	agents, err := pgx.CollectRows(rows, pgx.RowToStructByPos[entry])
	if err != nil {
		return "", nil, fmt.Errorf("read the agents' addresses: %w", err)
	}
	supports := make([]*inbox.Support, len(agents))
	for i, a := range agents {
		if supports[i], err = inbox.NewSupport(a.Addresses); err != nil {
			return "", nil, fmt.Errorf("agent %s: %w", a.ID, err)
		}
	}
	for _, r := range recipients {
		for i, a := range agents {
			if supports[i].Is(r) {
				return a.ID, supports[i], nil
			}
		}
	}
	return "", nil, nil
}
