package testenv

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/store"
)

// Creds are one token per role in a test store and the guard that knows them.
type Creds struct {
	Tokens     map[auth.Role]string
	IDs        map[auth.Role]int64
	Secret     []byte // the help-desk webhook secret
	Authorizer *auth.Authorizer
}

// Auth creates a token of every role in s and a guard over s with a fixed webhook secret.
func Auth(t testing.TB, s *store.Store) *Creds {
	t.Helper()
	c := &Creds{Tokens: map[auth.Role]string{}, IDs: map[auth.Role]int64{}, Secret: []byte("test-webhook-secret-0123456789abcdef")}
	for _, r := range auth.Roles {
		tok, hash := auth.NewToken()
		row, err := s.CreateToken(context.Background(), "test "+string(r), string(r), nil, hash)
		if err != nil {
			t.Fatalf("create %s token: %v", r, err)
		}
		c.Tokens[r], c.IDs[r] = tok, row.ID
	}
	c.Authorizer = auth.NewAuthorizer(s, []byte(Unique("session-key-")), c.Secret, slog.New(slog.DiscardHandler))
	return c
}

// Token creates a token of role acting for agents in s and returns it.
func Token(t testing.TB, s *store.Store, role auth.Role, agents ...string) string {
	t.Helper()
	tok, hash := auth.NewToken()
	if _, err := s.CreateToken(context.Background(), "test "+string(role), string(role), agents, hash); err != nil {
		t.Fatalf("create %s token for %v: %v", role, agents, err)
	}
	return tok
}

// ServeAPI serves srv over HTTP until the test ends, behind fresh credentials of every
// role in its store, which it returns for the test's requests.
func ServeAPI(t testing.TB, srv *api.Server) (*httptest.Server, *Creds) {
	t.Helper()
	creds := Auth(t, srv.Store)
	srv.Auth = creds.Authorizer
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts, creds
}
