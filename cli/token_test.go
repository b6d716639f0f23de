package cli

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/store"
)

// `token link` prints a sign-in path whose code the store accepts exactly once, and mints
// none for a help-desk token, a revoked token or a page outside the app. Not parallel: it
// sets DATABASE_URL.
func TestTokenLinkPrintsAOneTimeLink(t *testing.T) {
	s, dbURL := testdb.New(t)
	t.Setenv("DATABASE_URL", dbURL)
	ctx := context.Background()
	_, hash := auth.NewToken()
	agent, err := s.CreateToken(ctx, "sidebar", string(auth.Agent), nil, hash)
	if err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatInt(agent.ID, 10)

	out, err, code := run(t, newTokenCmd(), "link", id, "--next", "/app/tickets/T-1001")
	if err != nil {
		t.Fatalf("token link: exit %d: %v", code, err)
	}
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
