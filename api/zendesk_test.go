package api_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/integrations/zendesk"
	"github.com/supportdraft/supportdraft/integrations/zendesk/zendesktest"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/workflows"
)

var zendeskSecret = []byte("zendesk-signing-secret-0123456789")

// zendeskAPI serves the real API and worker with the Zendesk integration on, over a local
// Zendesk that speaks the documented JSON. Approved drafts go back to it as internal
// notes, after a short review window.
func zendeskAPI(t *testing.T, log *slog.Logger) (*testAPI, *zendesktest.Server, *api.Server) {
	t.Helper()
	s := testenv.Store(t)
	st := testenv.Stack(t, s, testenv.Temporal(t), nil)
	zd := zendesktest.New(t)
	zd.LastCommentAt = time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
	client := zendesk.NewClient(zd.URL, zd.Email, zd.Token)
	acts := st.Activities()
	acts.HelpDesk = client
	tq := testenv.StartWorker(t, st, "test-zendesk-", acts)
	z := &api.Zendesk{WebhookSecret: zendeskSecret, Client: client, Fields: zendesk.Fields{Plan: 360001, Region: 360002}}
	srv := st.API(api.Config{TaskQueue: tq, CheckBudget: 30 * time.Second, IdleTimeout: time.Hour, ReviewDelay: 5 * time.Second, Zendesk: z,
		FrameAncestors: []string{"https://acme.zendesk.com"}}, log)
	return serve(t, srv), zd, srv
}

// event is a documented ticket event for Zendesk ticket n.
func event(t *testing.T, fixture string, n int64) []byte {
	return bytes.ReplaceAll(zendesktest.Fixture(t, fixture), []byte("35436"), []byte(fmt.Sprint(n)))
}

// deliver posts body as Zendesk does, with the given signature headers.
func deliver(t *testing.T, ts *testAPI, body []byte, sig, at string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, ts.URL+"/v1/zendesk/events", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if sig != "" {
		req.Header.Set(zendesk.SignatureHeader, sig)
	}
	if at != "" {
		req.Header.Set(zendesk.SignatureTimestampHeader, at)
	}
	return roundTrip(t, req)
}

// Zendesk events in, drafts out: a signed ticket.created event reads the ticket back from
// the Tickets API and opens its draft through POST /v1/drafts' path; forged, stale,
// unsigned and replayed deliveries are refused and counted; the approved draft goes back
// to the ticket as an internal note; no customer text reaches the log.
func TestZendeskEventsToDraftAndBack(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	ts, zd, _ := zendeskAPI(t, slog.New(slog.NewTextHandler(&logs, nil)))
	n := time.Now().UnixNano() % 1_000_000_000
	ticketID := zendesk.TicketID(n)
	body := event(t, "event_ticket_created.json", n)
	at := time.Now().UTC().Format(time.RFC3339)
	sig := zendesk.Sign(zendeskSecret, at, body)

	code, answer := deliver(t, ts, body, sig, at)
	require.Equal(t, http.StatusOK, code, answer)
	var v workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+ticketID, nil, &v))
	assert.Equal(t, 2, v.Revision, "two public comments; the internal note is not the thread")
	assert.Equal(t, "pro", v.Account.Plan)
	assert.NotEmpty(t, v.Reply)

	old := time.Now().UTC().Add(-10 * time.Minute).Format(time.RFC3339)
	for name, tc := range map[string]struct{ sig, at, want string }{
		"replayed":   {sig, at, "already used"},
		"forged":     {zendesk.Sign([]byte("not the webhook's secret at all"), at, body), at, "does not match"},
		"stale":      {zendesk.Sign(zendeskSecret, old, body), old, "5 minutes"},
		"unsigned":   {"", "", "missing"},
		"other body": {sig, at, "does not match"},
	} {
		b := body
		if name == "other body" {
			b = event(t, "event_ticket_created.json", n+1)
		}
		code, answer := deliver(t, ts, b, tc.sig, tc.at)
		assert.Equal(t, http.StatusUnauthorized, code, name)
		assert.Contains(t, answer, tc.want, name)
	}

	// A comment added is the same path: the thread is read again (unchanged here), the
	// same revision answers the same draft.
	added := event(t, "event_comment_added.json", n)
	at2 := time.Now().UTC().Format(time.RFC3339)
	code, answer = deliver(t, ts, added, zendesk.Sign(zendeskSecret, at2, added), at2)
	require.Equal(t, http.StatusOK, code, answer)

	// Events supportdraft does not draft on are acknowledged; bad input is a 400 naming the field.
	ignored := []byte(`{"type":"zen:event-type:ticket.priority_changed","detail":{"id":"1"}}`)
	code, answer = deliver(t, ts, ignored, zendesk.Sign(zendeskSecret, at2, ignored), at2)
	assert.Equal(t, http.StatusAccepted, code, answer)
	noID := []byte(`{"type":"zen:event-type:ticket.created","detail":{"id":"x"}}`)
	code, answer = deliver(t, ts, noID, zendesk.Sign(zendeskSecret, at2, noID), at2)
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, answer, `detail.id`)

	metrics := get(t, ts, "/metrics", auth.Admin)
	for result, count := range map[string]int{"ok": 4, "replayed": 1, "bad": 2, "stale": 1, "missing": 1} {
		assert.Contains(t, metrics, fmt.Sprintf(`supportdraft_zendesk_webhooks_total{result=%q} %d`, result, count))
	}

	// The reviewer approves; when the window ends the draft is written to the ticket as
	// an internal note through PUT /api/v2/tickets/{id}.json.
	var approved review.Entry
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+ticketID+"/approve", nil, &approved))
	require.Eventually(t, func() bool { return len(zd.Notes()) == 1 }, time.Minute, 200*time.Millisecond, "the hand-off writes the note")
	note := zd.Notes()[0]
	assert.Equal(t, n, note.Ticket)
	assert.False(t, note.Public, "an internal note, never a public reply")
	assert.Contains(t, note.Body, v.Reply)

	// The agent's own public reply comes back as a comment added: nothing to draft.
	zd.ExtraComments = []map[string]any{{"id": 1290, "author_id": 235323, "plain_body": "Here is our answer.", "public": true,
		"created_at": "2026-04-02T10:10:00Z"}}
	at3 := time.Now().UTC().Add(time.Second).Format(time.RFC3339)
	code, answer = deliver(t, ts, added, zendesk.Sign(zendeskSecret, at3, added), at3)
	assert.Equal(t, http.StatusAccepted, code, answer)
	assert.Contains(t, answer, "agent's")

	assert.NotContains(t, logs.String(), "refund of the annual charge", "customer text never reaches the log")
	assert.NotContains(t, logs.String(), "Ana Lopez")
}

// The sidebar's signed first load: a verified ZAF JWT opens a session (the configured
// agent token's) and serves the framed sidebar with frame-ancestors limited to the help
// desk; the session then reaches the API. Bad tokens are refused, counted, and named.
func TestZendeskSidebarSignedLoad(t *testing.T) {
	t.Parallel()
	ts, _, srv := zendeskAPI(t, nil)
	zcfg := srv.Config.Zendesk
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	aud := "https://acme.zendesk.com/api/v2/apps/installations/360001.json"
	zcfg.App = &zendesk.AppVerifier{Key: &key.PublicKey, Issuer: "acme.zendesk.com", Audience: aud}
	zcfg.AppToken = ts.creds.Tokens[auth.Agent]
	sign := func(claims jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(jwt.SigningMethodRS256, claims).SignedString(key)
		require.NoError(t, err)
		return s
	}
	good := jwt.MapClaims{"iss": "acme.zendesk.com", "aud": aud, "sub": "235323", "exp": time.Now().Add(time.Minute).Unix()}
	load := func(token string) *http.Response {
		resp, err := http.PostForm(ts.URL+zendesk.SidebarPath+"?origin=https%3A%2F%2Facme.zendesk.com&app_guid=g-1", url.Values{"token": {token}})
		require.NoError(t, err)
		t.Cleanup(func() { _ = resp.Body.Close() })
		return resp
	}

	resp := load(sign(good))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	page, _ := io.ReadAll(resp.Body)
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "frame-ancestors https://acme.zendesk.com")
	assert.Contains(t, string(page), zendesk.SDKURL)
	var session *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == auth.SessionCookie {
			session = c
		}
	}
	require.NotNil(t, session, "the verified load opens a session")
	csrf := between(string(page), `data-csrf="`, `"`)
	require.NotEmpty(t, csrf)

	// The session reaches the API as the agent: an unknown ticket is a 404, not a 401,
	// and send-check with the page's CSRF token is not refused.
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/v1/drafts/zendesk-1", nil)
	req.AddCookie(session)
	r, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = r.Body.Close()
	assert.Equal(t, http.StatusNotFound, r.StatusCode)
	req, _ = http.NewRequest(http.MethodPost, ts.URL+"/v1/drafts/zendesk-1/send-check", strings.NewReader(`{"text":"Hello"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", csrf)
	req.AddCookie(session)
	r, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = r.Body.Close()
	assert.Equal(t, http.StatusNotFound, r.StatusCode, "no draft yet, but the session and CSRF token passed")

	for name, tc := range map[string]struct {
		claims func(jwt.MapClaims)
		want   string
	}{
		"wrong audience": {func(c jwt.MapClaims) { c["aud"] = "https://acme.zendesk.com/api/v2/apps/installations/9.json" }, `aud`},
		"wrong issuer":   {func(c jwt.MapClaims) { c["iss"] = "evil.zendesk.com" }, `iss`},
		"expired":        {func(c jwt.MapClaims) { c["exp"] = time.Now().Add(-time.Hour).Unix() }, "expired"},
	} {
		c := jwt.MapClaims{}
		for k, v := range good {
			c[k] = v
		}
		tc.claims(c)
		resp := load(sign(c))
		body, _ := io.ReadAll(resp.Body)
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, name)
		assert.Contains(t, string(body), tc.want, name)
		assert.Empty(t, resp.Cookies(), name+": no session")
	}
	assert.Equal(t, http.StatusUnauthorized, load("").StatusCode)

	// The other pages may be framed by the help desk too, and only by it.
	login, err := http.Get(ts.URL + "/app/login")
	require.NoError(t, err)
	_ = login.Body.Close()
	assert.Contains(t, login.Header.Get("Content-Security-Policy"), "; frame-ancestors https://acme.zendesk.com")

	// Revoking the app's token closes the app.
	require.NoError(t, ts.store.RevokeToken(context.Background(), ts.creds.IDs[auth.Agent]))
	assert.Equal(t, http.StatusServiceUnavailable, load(sign(good)).StatusCode)

	metrics := get(t, ts, "/metrics", auth.Admin)
	assert.Contains(t, metrics, `supportdraft_zendesk_app_tokens_total{result="refused"} 4`)

	js, err := http.Get(ts.URL + "/app/zendesk/assets/sidebar.js")
	require.NoError(t, err)
	_ = js.Body.Close()
	assert.Equal(t, http.StatusOK, js.StatusCode)
	raw, err := http.Get(ts.URL + "/app/zendesk/assets/sidebar.html")
	require.NoError(t, err)
	_ = raw.Body.Close()
	assert.Equal(t, http.StatusNotFound, raw.StatusCode, "the page is served only with its session")
}

func between(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, to)
	return v
}
