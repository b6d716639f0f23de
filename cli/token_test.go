package cli

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/store"
)

// `token link` prints a sign-in path whose code the store accepts exactly once, and mints
// none for a help-desk token, a revoked token or a page outside the app. Not parallel: it
// sets DATABASE_URL.
func TestTokenLinkPrintsAOneTimeLink(t *testing.T) {
	s := scratchDB(t)
	ctx := context.Background()
	_, hash := auth.NewToken()
	agent, err := s.CreateToken(ctx, "sidebar", string(auth.Agent), nil, hash)
	if err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatInt(agent.ID, 10)

	out := mustRun(t, newTokenCmd(), "link", id, "--next", "/app/tickets/T-1001")
	u, err := url.Parse(strings.TrimSpace(out))
	if err != nil || u.Path != "/app/session" || u.Query().Get("next") != "/app/tickets/T-1001" || u.Query().Has("token") {
		t.Fatalf("the link must be /app/session with a code and next, never the token: %q", out)
	}
	c := u.Query().Get("code")
	if got, err := s.UseSignInCode(ctx, auth.HashToken(c)); err != nil || got.ID != agent.ID {
		t.Fatalf("the printed code must sign token %d in: %+v, %v", agent.ID, got, err)
	}
	if _, err := s.UseSignInCode(ctx, auth.HashToken(c)); err == nil {
		t.Fatal("the printed code must work only once")
	}

	if _, err, code := run(t, newTokenCmd(), "link", id, "--next", "https://evil.example/"); code != 2 {
		t.Fatalf("a page outside the app is a usage error: exit %d, %v", code, err)
	}
	_, hash = auth.NewToken()
	hook, err := s.CreateToken(ctx, "webhooks", string(auth.Helpdesk), nil, hash)
	if err != nil {
		t.Fatal(err)
	}
	if _, err, code := run(t, newTokenCmd(), "link", strconv.FormatInt(hook.ID, 10)); code != 2 {
		t.Fatalf("a help-desk token gets no link: exit %d, %v", code, err)
	}
	if err := s.RevokeToken(ctx, agent.ID); err != nil {
		t.Fatal(err)
	}
	if _, err, code := run(t, newTokenCmd(), "link", id); code != 1 || !strings.Contains(err.Error(), store.ErrNotFound.Error()) {
		t.Fatalf("a revoked token gets no link: exit %d, %v", code, err)
	}
}

// `token create --agent` binds the token to the agents named (the default agent when none
// is), refuses an ID that cannot name an agent, and `token list` shows each token's agents.
// Not parallel: it sets DATABASE_URL.
func TestTokenCreateBindsAgents(t *testing.T) {
	s := scratchDB(t)
	ctx := context.Background()

	out := mustRun(t, newTokenCmd(), "create", "--role", "reviewer", "--name", "ops leads", "--agent", "billing", "--agent", "payments")
	if !strings.Contains(out, "agents billing,payments") {
		t.Fatalf("the printed token must name its agents: %q", out)
	}
	printed := strings.Split(strings.TrimSpace(out), "\n")
	tok := printed[len(printed)-1]
	got, err := s.ActiveTokenByHash(ctx, auth.HashToken(tok))
	if err != nil || strings.Join(got.Agents, ",") != "billing,payments" {
		t.Fatalf("the stored token acts for billing and payments: %+v, %v", got, err)
	}
	if _, err, code := run(t, newTokenCmd(), "create", "--role", "agent", "--name", "desk"); err != nil {
		t.Fatalf("token create without --agent: exit %d: %v", code, err)
	}
	if _, err, code := run(t, newTokenCmd(), "create", "--role", "agent", "--name", "bad", "--agent", "Pay Ments"); code != 2 || !strings.Contains(err.Error(), "--agent") {
		t.Fatalf("an agent ID with capitals and a space is a usage error naming --agent: exit %d, %v", code, err)
	}

	out = mustRun(t, newTokenCmd(), "list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "AGENTS") || !strings.Contains(lines[1], "billing,payments") ||
		!strings.Contains(lines[2], "desk") || !strings.Contains(lines[2], "billing ") {
		t.Fatalf("token list shows each token's agents, the default agent for a token created without --agent:\n%s", out)
	}
}
