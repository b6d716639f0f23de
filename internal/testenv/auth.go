package testenv

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

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

// Request is a JSON request to url with role's token, signed as the help desk signs its
// calls when role is the help desk: how a real caller of that role reaches the API.
func (c *Creds) Request(t testing.TB, method, url string, role auth.Role, body []byte) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatalf("request %s %s: %v", method, url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.Tokens[role])
	if role == auth.Helpdesk {
		req.Header.Set(auth.SignatureHeader, auth.Sign(c.Secret, req.Method, req.URL.RequestURI(), body, time.Now()))
	}
	return req
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
