// Package agent names the agent a piece of work acts for. One deployment serves several
// agents (billing, payments operations, a second brand); each owns its corpus, drafts,
// messages and verdicts, and Postgres' row-level security keeps them apart. The agent
// travels in the context from the token, the message's address or the workflow's input
// down to the store, which sets it on the connection before any query runs.
package agent

import (
	"context"
	"fmt"
	"regexp"
)

// Default is the agent of a deployment that never named one: the billing agent every
// database created before agents existed migrates to.
const Default = "billing"

// validID is an agent ID: lower-case letters, digits and dashes, as in workflow IDs and URLs.
var validID = regexp.MustCompile(`^[a-z][a-z0-9-]{0,39}$`)

// CheckID says why id cannot name an agent, or nil.
func CheckID(id string) error {
	if !validID.MatchString(id) {
		return fmt.Errorf("agent ID %q: use 1-40 lower-case letters, digits and dashes, starting with a letter", id)
	}
	return nil
}

type ctxKey struct{}

// With returns ctx acting for the named agents. One agent is what every write needs; a
// reviewer's token may name several, which lets reads see each of them.
func With(ctx context.Context, ids ...string) context.Context {
	return context.WithValue(ctx, ctxKey{}, append([]string(nil), ids...))
}

// IDs are the agents ctx acts for: Default when none was named.
func IDs(ctx context.Context) []string {
	if ids, ok := ctx.Value(ctxKey{}).([]string); ok && len(ids) > 0 {
		return ids
	}
	return []string{Default}
}

// ID is the one agent ctx acts for, or an error when it names several: a write (a
// draft, an imported version, a message) belongs to exactly one agent.
func ID(ctx context.Context) (string, error) {
	ids := IDs(ctx)
	if len(ids) != 1 {
		return "", fmt.Errorf("this acts for %d agents (%v); name one", len(ids), ids)
	}
	return ids[0], nil
}
