package api_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
)

// offlineAPI serves the API over a scratch store and a Temporal client that can never
// connect: enough for every refusal that must happen before Temporal is asked.
func offlineAPI(t *testing.T, cfg api.Config) (*testAPI, *store.Store) {
	t.Helper()
	s, _ := testdb.New(t)
	cfg.TaskQueue, cfg.CheckBudget = "unused", 200*time.Millisecond
	return serve(t, &api.Server{Temporal: unreachableTemporal(t), Store: s, Config: cfg}), s
}

// send posts body with an agent's token and the given headers; a zero status means the
// client gave up waiting (Temporal unreachable).
func send(t *testing.T, ts *testAPI, path, body string, headers map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+ts.creds.Tokens[auth.Agent])
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := (&http.Client{Timeout: 2 * time.Second}).Do(req)
	if err != nil {
		return &http.Response{StatusCode: 0, Header: http.Header{}}
	}
	resp.Body.Close()
	return resp
}

func ticketRows(t *testing.T, s *store.Store) int {
	t.Helper()
	var n int
	require.NoError(t, s.Pool().QueryRow(context.Background(), `SELECT count(*) FROM ticket_revisions`).Scan(&n))
	return n
}

// Every input of the hardening probe is refused with a 400 that names the field, and
// nothing is written.
func TestProbeInputsAreRefusedBeforeAnyWrite(t *testing.T) {
	t.Parallel()
	ts, s := offlineAPI(t, api.Config{Tickets: ticket.Sets{Plans: []string{"pro", "team"}}})
	valid := `"updated_at":"2026-04-02T10:00:00Z","account":{"plan":"pro","region":"eu"},"messages":[{"author":"customer","at":"2026-04-02T10:00:00Z","body":"Refund?"}]`
	withID := func(id string) string { return `{"ticket_id":` + id + `,"revision":1,` + valid + `}` }
	cases := []struct{ name, body, field string }{
		{"revision past int32", `{"ticket_id":"T-1","revision":2147483648,` + valid + `}`, "revision"},
		{"NUL in ID", withID(`"T\u00001"`), "ticket_id"},
		{"newline in ID", withID(`"T\n1"`), "ticket_id"},
		{"é in ID", withID(`"Té"`), "ticket_id"},
		{"emoji in ID", withID(`"T🙂"`), "ticket_id"},
		{"slash in ID", withID(`"T/1"`), "ticket_id"},
		{"blank ID", withID(`" "`), "ticket_id"},
		{"unknown field", `{"ticket_id":"T-1","revision":1,"priority":"high",` + valid + `}`, "priority"},
		{"duplicate key", `{"ticket_id":"T-1","ticket_id":"T-2","revision":1,` + valid + `}`, "ticket_id"},
		{"trailing garbage", withID(`"T-1"`) + ` trailing`, "after the JSON value"},
		{"huge plan", strings.Replace(withID(`"T-1"`), `"plan":"pro"`, `"plan":"`+strings.Repeat("p", 100000)+`"`, 1), "account.plan"},
		{"star plan", strings.Replace(withID(`"T-1"`), `"plan":"pro"`, `"plan":"*"`, 1), "account.plan"},
		{"plan outside the configured set", strings.Replace(withID(`"T-1"`), `"plan":"pro"`, `"plan":"gold"`, 1), "account.plan"},
	}
	for _, c := range cases {
		var e struct{ Error string }
		assert.Equal(t, http.StatusBadRequest, call(t, ts, "POST", "/v1/drafts", c.body, &e), c.name)
		assert.Contains(t, e.Error, c.field, c.name)
	}
	var e struct{ Error string }
	assert.Equal(t, http.StatusBadRequest, call(t, ts, "GET", "/v1/drafts/%00", nil, &e))
	assert.Contains(t, e.Error, "ticket_id")
	assert.Equal(t, http.StatusBadRequest, call(t, ts, "POST", "/v1/drafts/T-1/edit", `{"text":"a\u0000b"}`, &e))
	assert.Contains(t, e.Error, `"text"`)
	assert.Equal(t, http.StatusBadRequest, call(t, ts, "POST", "/v1/drafts/T-1/send-check",
		`{"text":"`+strings.Repeat("x", api.MaxReplyBytes+1)+`"}`, &e))
	assert.Contains(t, e.Error, `"text"`)
	assert.Zero(t, ticketRows(t, s), "no refused request leaves a row")
}

// A help desk that resends a revision with different content gets a 409 and the count
// goes up; the same content again is accepted. A revision far past the last is refused.
func TestRevisionContract(t *testing.T) {
	t.Parallel()
	ts, s := offlineAPI(t, api.Config{})
	id := testenv.Unique("R-")
	testenv.SaveTicket(t, s, refundTicket(id, 1, "pro", asked, "first words"))
	inserted, err := s.InsertTicket(context.Background(), refundTicket(id, 1, "pro", asked, "first words"))
	require.NoError(t, err, "the same content again is a no-op")
	assert.False(t, inserted)
	var e struct{ Error string }
	require.Equal(t, http.StatusConflict, call(t, ts, "POST", "/v1/tickets/"+id+"/revisions", refundTicket(id, 1, "pro", asked, "other words"), &e))
	assert.Contains(t, e.Error, `field "revision" 1 is already stored with different content`)
	require.Equal(t, http.StatusBadRequest, call(t, ts, "POST", "/v1/tickets/"+id+"/revisions",
		refundTicket(id, 2+ticket.MaxRevisionJump, "pro", asked, "jump"), &e))
	assert.Contains(t, e.Error, "at most 1000 past the last")
	assert.Contains(t, get(t, ts, "/metrics", auth.Admin), "supportdraft_revision_conflicts_total 1")
}

// A start whose workflow cannot be reached leaves no revision: Temporal's health is
// checked before the revision is stored (and a start that fails later removes it).
func TestFailedStartLeavesNoOrphanRow(t *testing.T) {
	t.Parallel()
	ts, s := offlineAPI(t, api.Config{})
	body := `{"ticket_id":"` + testenv.Unique("O-") + `","revision":1,"updated_at":"2026-04-02T10:00:00Z","account":{"plan":"pro","region":"eu"},"messages":[{"author":"customer","at":"2026-04-02T10:00:00Z","body":"Refund?"}]}`
	resp := send(t, ts, "/v1/drafts", body, nil)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "Temporal is unreachable: 503 within the client's two seconds")
	assert.Eventually(t, func() bool { return ticketRows(t, s) == 0 }, 5*time.Second, 50*time.Millisecond)
}

// A 5xx tells the client nothing about the database; the request ID leads to the log.
func TestServerErrorsAreGeneric(t *testing.T) {
	t.Parallel()
	ts, s := offlineAPI(t, api.Config{})
	s.Close() // the database goes away after the credentials were made
	req, _ := http.NewRequest("GET", ts.URL+"/v1/drafts/T-1", nil)
	req.Header.Set("Authorization", "Bearer "+ts.creds.Tokens[auth.Agent])
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	assert.GreaterOrEqual(t, resp.StatusCode, 500)
	id := resp.Header.Get("X-Request-Id")
	require.NotEmpty(t, id)
	assert.Contains(t, string(body), "request ID "+id)
	assert.NotContains(t, string(body), "pool", "no internals in the body")
}

func TestRateLimitHostAndOrigin(t *testing.T) {
	t.Parallel()
	ts, _ := offlineAPI(t, api.Config{RateLimit: api.RateLimit{PerMinute: 6, Burst: 2}})
	rebuild := func() *http.Response { return send(t, ts, "/v1/drafts/"+testenv.Unique("L-")+"/rebuild", "", nil) }
	for range 2 {
		assert.NotEqual(t, http.StatusTooManyRequests, rebuild().StatusCode)
	}
	resp := rebuild()
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "the burst of 2 is spent")
	assert.Equal(t, "10", resp.Header.Get("Retry-After"), "6 per minute: one every 10 s")

	hosts, _ := offlineAPI(t, api.Config{AllowedHosts: []string{"drafts.example.com"}})
	var e struct{ Error string }
	assert.Equal(t, http.StatusMisdirectedRequest, call(t, hosts, "GET", "/v1/drafts/T-1", nil, &e))

	origins, _ := offlineAPI(t, api.Config{AllowedOrigins: []string{"https://desk.example.com"}})
	resp = send(t, origins, "/v1/drafts/T-1/discard", "x=1", map[string]string{"Origin": "https://evil.example", "Content-Type": "application/x-www-form-urlencoded"})
	assert.Contains(t, []int{http.StatusForbidden}, resp.StatusCode, "a cross-site form cannot discard a draft")
	resp = send(t, origins, "/v1/drafts/T-1/edit", `{"text":"hi"}`, map[string]string{"Content-Type": "text/plain"})
	assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode, "edits are JSON only")
}

func TestHealthAndReadiness(t *testing.T) {
	t.Parallel()
	ts, _ := offlineAPI(t, api.Config{})
	var health, ready, live map[string]string
	assert.Equal(t, http.StatusOK, call(t, ts, "GET", "/healthz", nil, &health))
	assert.Equal(t, http.StatusServiceUnavailable, call(t, ts, "GET", "/readyz", nil, &ready))
	assert.Equal(t, map[string]string{"database": "ok", "temporal": "unreachable"}, ready)

	stack, _ := stackAPI(t)
	assert.Equal(t, http.StatusOK, call(t, stack, "GET", "/readyz", nil, &live))
}
