package slackreview

import (
	"fmt"
	"strings"

	"github.com/supportdraft/supportdraft/auth"
)

// Reviewer is who a Slack user is to us: a name for the record and a role.
type Reviewer struct {
	Name string
	Role auth.Role
}

// Reviewers maps Slack user IDs (U…) to reviewers. A Slack user not in it decides nothing.
type Reviewers map[string]Reviewer

// ParseReviewers reads "U024BE7LH=ana:reviewer,U0G9QF9C6=bob:admin"; the role defaults to
// reviewer. Errors name the entry.
func ParseReviewers(s string) (Reviewers, error) {
	out := Reviewers{}
	for entry := range strings.SplitSeq(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		user, who, ok := strings.Cut(entry, "=")
		name, role, _ := strings.Cut(who, ":")
		if !ok || strings.TrimSpace(user) == "" || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("reviewer %q: use SLACKUSERID=name or SLACKUSERID=name:role", entry)
		}
		r := auth.Reviewer
		if role != "" {
			var err error
			if r, err = auth.ParseRole(role); err != nil {
				return nil, fmt.Errorf("reviewer %q: %w", entry, err)
			}
		}
		out[strings.TrimSpace(user)] = Reviewer{Name: strings.TrimSpace(name), Role: r}
	}
	return out, nil
}

// route is the API route an action stands for: a decision from Slack is allowed to whom
// the same decision through the API is (auth's route table).
func route(action string) string { return "/v1/drafts/:ticket/" + action }

// Allowed reports whether the reviewer's role may take the action, by the route table.
func (r Reviewer) Allowed(action string) bool {
	access, ok := auth.Lookup("POST", route(action))
	return ok && access.Allows(r.Role)
}
