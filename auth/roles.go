// Package auth decides who may call what: API tokens (stored as hashes), the roles they
// carry, the route→role table, short-lived signed sessions for the browser pages with
// CSRF tokens, and HMAC signatures on help-desk webhooks. The echo middleware in
// middleware.go applies all of it to every route in one place.
package auth

import (
	"fmt"
	"slices"
	"strings"
)

// Role is what a token may do.
type Role string

// The four roles. Agents read and edit drafts; reviewers also approve, pull back and kill
// queued drafts; admins also see the admin views and flip the kill switch; the help desk
// only delivers events (messages, revisions, send-checks, sent).
const (
	Agent    Role = "agent"
	Reviewer Role = "reviewer"
	Admin    Role = "admin"
	Helpdesk Role = "helpdesk"
)

// Roles lists every role, for validation and help text.
var Roles = []Role{Agent, Reviewer, Admin, Helpdesk}

// ParseRole checks a role name given on the command line.
func ParseRole(s string) (Role, error) {
	r := Role(strings.ToLower(strings.TrimSpace(s)))
	if !slices.Contains(Roles, r) {
		return "", fmt.Errorf("role %q: use one of agent, reviewer, admin, helpdesk", s)
	}
	return r, nil
}

// Access is the set of roles a route admits. Public routes admit anyone, token or not.
type Access struct {
	Public bool
	Roles  []Role
}

// Allows reports whether role may use a route with this access.
func (a Access) Allows(r Role) bool { return a.Public || slices.Contains(a.Roles, r) }

// Named access levels, so the route table reads as a policy rather than a list of lists.
var (
	public       = Access{Public: true}
	readDrafts   = Access{Roles: []Role{Agent, Reviewer, Admin}}
	adminOnly    = Access{Roles: []Role{Admin}}
	reviewDrafts = Access{Roles: []Role{Reviewer, Admin}}
	hookOnly     = Access{Roles: []Role{Helpdesk}}
	hookOrAgent  = Access{Roles: []Role{Agent, Reviewer, Admin, Helpdesk}}
)
