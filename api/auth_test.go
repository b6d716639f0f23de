package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/workflows"
)

// authAPI serves the API over a real Temporal client (no worker: handlers that reach a
// workflow find none) and a scratch store.
func authAPI(t *testing.T) *testAPI {
	t.Helper()
	return serve(t, &api.Server{Temporal: testenv.Temporal(t), Store: testenv.Store(t),
		Config: api.Config{TaskQueue: testenv.Unique("auth-"), CheckBudget: 200 * time.Millisecond, IdleTimeout: time.Hour}})
}

type request struct {
	method, path string
	body         []byte
	header       map[string]string
}

func (ts *testAPI) do(t *testing.T, r request) (int, string) {
	t.Helper()
	req, err := http.NewRequest(r.method, ts.URL+r.path, bytes.NewReader(r.body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

// routes lists every route the server registers, with its parameters filled in.
func routes(t *testing.T) []request {
	t.Helper()
	srv := &api.Server{Auth: auth.NewAuthorizer(nil, []byte("k"), nil, nil)}
	var out []request
	for _, r := range srv.Handler().Routes() {
		path := strings.NewReplacer(":ticket", "T-AUTH-1", "*", "x").Replace(r.Path)
		out = append(out, request{method: r.Method, path: path, body: []byte(`{}`)})
	}
	require.NotEmpty(t, out)
	return out
}

func TestEveryRouteIsInTheRouteTable(t *testing.T) {
	srv := &api.Server{Auth: auth.NewAuthorizer(nil, []byte("k"), nil, nil)}
	for _, r := range srv.Handler().Routes() {
		_, ok := auth.Lookup(r.Method, r.Path)
		assert.True(t, ok, "%s %s has no entry in auth/routes.go", r.Method, r.Path)
	}
}

// Every route × every role × every kind of bad credential: public routes answer anyone;
// the others answer 401 without valid credentials, 403 to a role the table does not
// admit, and run (anything but 401/403) for a role it does, by bearer token and by session.
func TestRouteRoleMatrix(t *testing.T) {
	t.Parallel()
	ts := authAPI(t)
	ctx := context.Background()
	g := ts.creds.Authorizer

	revoked, hash := auth.NewToken()
	row, err := ts.store.CreateToken(ctx, "revoked", string(auth.Admin), nil, hash)
	require.NoError(t, err)
	liveSession := g.Sessions.New(row.ID, row.Name, auth.Admin, nil, time.Now())
	require.NoError(t, ts.store.RevokeToken(ctx, row.ID))
	expired := g.Sessions.New(ts.creds.IDs[auth.Admin], "admin", auth.Admin, nil, time.Now().Add(-2*auth.SessionTTL))

	bad := map[string]map[string]string{
		"no token":           {},
		"bad token":          {"Authorization": "Bearer sdt_not-a-real-token"},
		"not bearer":         {"Authorization": "Basic YWRtaW46YWRtaW4="},
		"revoked token":      {"Authorization": "Bearer " + revoked},
		"session of revoked": {"Cookie": auth.SessionCookie + "=" + g.Sessions.Encode(liveSession), "X-CSRF-Token": g.Sessions.CSRF(liveSession)},
		"expired session":    {"Cookie": auth.SessionCookie + "=" + g.Sessions.Encode(expired), "X-CSRF-Token": g.Sessions.CSRF(expired)},
		"forged session":     {"Cookie": auth.SessionCookie + "=" + auth.Sessions{Key: []byte("other key")}.Encode(expired)},
	}
	for _, r := range routes(t) {
		access, _ := auth.Lookup(r.method, strings.NewReplacer("T-AUTH-1", ":ticket", "/x", "/*").Replace(r.path))
		t.Run(r.method+" "+r.path, func(t *testing.T) {
			for name, h := range bad {
				r.header = h
				code, body := ts.do(t, r)
				if access.Public {
					assert.NotEqual(t, http.StatusUnauthorized, code, "%s: public route refused: %s", name, body)
					continue
				}
				assert.Equal(t, http.StatusUnauthorized, code, "%s: %s", name, body)
				assert.NotContains(t, body, "goroutine", "never a stack trace")
			}
			if access.Public {
				return
			}
			for _, role := range auth.Roles {
				r.header = map[string]string{"Authorization": "Bearer " + ts.creds.Tokens[role]}
				if role == auth.Helpdesk {
					r.header[auth.SignatureHeader] = auth.Sign(ts.creds.Secret, r.method, r.path, r.body, time.Now())
				}
				code, body := ts.do(t, r)
				if access.Allows(role) {
					assert.NotContains(t, []int{http.StatusUnauthorized, http.StatusForbidden}, code, "%s by bearer: %s", role, body)
				} else {
					assert.Equal(t, http.StatusForbidden, code, "%s by bearer: %s", role, body)
				}
				if role == auth.Helpdesk {
					continue // help-desk tokens get no session
				}
				sess := g.Sessions.New(ts.creds.IDs[role], string(role), role, nil, time.Now())
				r.header = map[string]string{"Cookie": auth.SessionCookie + "=" + g.Sessions.Encode(sess), "X-CSRF-Token": g.Sessions.CSRF(sess)}
				code, body = ts.do(t, r)
				if access.Allows(role) {
					assert.NotContains(t, []int{http.StatusUnauthorized, http.StatusForbidden}, code, "%s by session: %s", role, body)
				} else {
					assert.Equal(t, http.StatusForbidden, code, "%s by session: %s", role, body)
				}
				if r.method != http.MethodGet && access.Allows(role) {
					delete(r.header, "X-CSRF-Token")
					code, body = ts.do(t, r)
					assert.Equal(t, http.StatusForbidden, code, "%s by session without CSRF token: %s", role, body)
					assert.Contains(t, body, "CSRF")
				}
			}
		})
	}
}

// A help-desk webhook is accepted once with a good signature; a bad, stale, missing or
// replayed one is refused with 401 and counted.
func TestWebhookSignatures(t *testing.T) {
	t.Parallel()
	ts := authAPI(t)
	id := testenv.Unique("WH-")
	body, err := json.Marshal(refundTicket(id, 1, "pro", asked, "Can I get a refund?"))
	require.NoError(t, err)
	path := "/v1/tickets/" + id + "/revisions"
	hook := func(sig string) (int, string) {
		return ts.do(t, request{method: http.MethodPost, path: path, body: body,
			header: map[string]string{"Authorization": "Bearer " + ts.creds.Tokens[auth.Helpdesk], auth.SignatureHeader: sig}})
	}
	good := auth.Sign(ts.creds.Secret, http.MethodPost, path, body, time.Now())
	code, msg := hook(good)
	require.Equal(t, http.StatusAccepted, code, msg)

	code, msg = hook(good)
	assert.Equal(t, http.StatusUnauthorized, code)
	assert.Contains(t, msg, "already used")

	for name, sig := range map[string]string{
		"wrong secret": auth.Sign([]byte("another-secret-another-secret-xx"), http.MethodPost, path, body, time.Now()),
		"other body":   auth.Sign(ts.creds.Secret, http.MethodPost, path, append([]byte(" "), body...), time.Now()),
		"stale":        auth.Sign(ts.creds.Secret, http.MethodPost, path, body, time.Now().Add(-6*time.Minute)),
		"future":       auth.Sign(ts.creds.Secret, http.MethodPost, path, body, time.Now().Add(6*time.Minute)),
		"missing":      "",
		"no timestamp": strings.Split(good, ",")[1],
		"garbage":      "t=abc,v1=zz",
	} {
		code, msg := hook(sig)
		assert.Equal(t, http.StatusUnauthorized, code, "%s: %s", name, msg)
	}
	metrics := get(t, &testAPI{Server: ts.Server, creds: ts.creds}, "/metrics", auth.Admin)
	for _, line := range []string{
		`supportdraft_webhook_signatures_total{result="ok"} 1`,
		`supportdraft_webhook_signatures_total{result="replayed"} 1`,
		`supportdraft_webhook_signatures_total{result="stale"} 2`,
		`supportdraft_webhook_signatures_total{result="missing"} 1`,
		`supportdraft_webhook_signatures_total{result="bad"} 4`,
	} {
		assert.Contains(t, metrics, line)
	}
}

// signInLink asks the API for a one-time sign-in link for a token, as the help desk's
// sidebar does each time it opens.
func (ts *testAPI) signInLink(t *testing.T, token, next string) string {
	t.Helper()
	code, body := ts.do(t, request{method: http.MethodPost, path: "/v1/sign-in-links?next=" + url.QueryEscape(next),
		header: map[string]string{"Authorization": "Bearer " + token}})
	require.Equal(t, http.StatusOK, code, body)
	var l api.SignInLink
	require.NoError(t, json.Unmarshal([]byte(body), &l))
	assert.Equal(t, int(auth.SignInCodeTTL.Seconds()), l.ExpiresInSeconds)
	return l.Path
}

// open follows nothing: it returns a sign-in link's own answer and its body.
func (ts *testAPI) open(t *testing.T, path string) (*http.Response, string) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(ts.URL + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp, string(raw)
}

// A sign-in link trades a one-time code for an HttpOnly, SameSite session cookie and sends
// the browser only to a page of this app; the cookie then authenticates API calls.
func TestSessionExchange(t *testing.T) {
	t.Parallel()
	ts := authAPI(t)
	resp, _ := ts.open(t, ts.signInLink(t, ts.creds.Tokens[auth.Agent], "/app/tickets/T-1"))
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	assert.Equal(t, "/app/tickets/T-1", resp.Header.Get("Location"))
	cookies := resp.Cookies()
	require.Len(t, cookies, 1)
	ck := cookies[0]
	assert.Equal(t, auth.SessionCookie, ck.Name)
	assert.True(t, ck.HttpOnly)
	assert.Equal(t, http.SameSiteLaxMode, ck.SameSite)
	assert.Equal(t, int(auth.SessionTTL.Seconds()), ck.MaxAge)

	code, body := ts.do(t, request{method: http.MethodGet, path: "/v1/drafts/" + testenv.Unique("none-"),
		header: map[string]string{"Cookie": ck.Name + "=" + ck.Value}})
	assert.Equal(t, http.StatusNotFound, code, "the session authenticates: %s", body)

	// A link to another site is not minted; the exchange itself sends a bad next to the form.
	code, body = ts.do(t, request{method: http.MethodPost, path: "/v1/sign-in-links?next=" + url.QueryEscape("https://evil.example/"),
		header: map[string]string{"Authorization": "Bearer " + ts.creds.Tokens[auth.Agent]}})
	assert.Equal(t, http.StatusBadRequest, code, body)
	link, err := auth.SignInLink(context.Background(), ts.store, ts.creds.IDs[auth.Agent], "/app/")
	require.NoError(t, err)
	resp, _ = ts.open(t, strings.Replace(link, "next=%2Fapp%2F", "next="+url.QueryEscape("https://evil.example/"), 1))
	assert.Equal(t, "/app/login", resp.Header.Get("Location"))
	// Help-desk tokens get no session, and cannot ask for a link.
	link, err = auth.SignInLink(context.Background(), ts.store, ts.creds.IDs[auth.Helpdesk], "/app/")
	require.NoError(t, err)
	resp, _ = ts.open(t, link)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	code, _ = ts.do(t, request{method: http.MethodPost, path: "/v1/sign-in-links",
		header: map[string]string{"Authorization": "Bearer " + ts.creds.Tokens[auth.Helpdesk]}})
	assert.Equal(t, http.StatusForbidden, code)
}

// A sign-in link works once: a second open, a code past its 10 minutes, a code whose
// token was revoked, an unknown code and an API token in the address are all refused in
// plain words, with no session.
func TestSignInLinkWorksOnce(t *testing.T) {
	t.Parallel()
	ts := authAPI(t)
	ctx := context.Background()
	refused := func(name, path string, status int, words string) {
		t.Helper()
		resp, body := ts.open(t, path)
		assert.Equal(t, status, resp.StatusCode, "%s: %s", name, body)
		assert.Empty(t, resp.Cookies(), "%s: no session", name)
		assert.Contains(t, body, words, name)
	}

	link := ts.signInLink(t, ts.creds.Tokens[auth.Reviewer], "/app/review")
	resp, _ := ts.open(t, link)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	require.Len(t, resp.Cookies(), 1)
	refused("second use", link, http.StatusUnauthorized, "already been used")

	code, hash := auth.NewToken() // any 256-bit random string will do as a code here
	require.NoError(t, ts.store.CreateSignInCode(ctx, ts.creds.IDs[auth.Agent], hash, -time.Second))
	refused("expired", "/app/session?code="+url.QueryEscape(code)+"&next=/app/", http.StatusUnauthorized, "expired")

	tok, tokHash := auth.NewToken()
	row, err := ts.store.CreateToken(ctx, "revoked sidebar", string(auth.Agent), nil, tokHash)
	require.NoError(t, err)
	revokedLink := ts.signInLink(t, tok, "/app/")
	require.NoError(t, ts.store.RevokeToken(ctx, row.ID))
	refused("revoked token", revokedLink, http.StatusUnauthorized, "revoked")

	refused("unknown code", "/app/session?code=sdc_nosuchcode&next=/app/", http.StatusUnauthorized, "ask for a new link")
	refused("token in the address", "/app/session?token="+url.QueryEscape(ts.creds.Tokens[auth.Agent])+"&next=/app/",
		http.StatusBadRequest, "no code")
}

// The probe's findings, on the real stack: one signed delivery resent with its hex in
// ever more upper case is accepted once; one signed "sent" for a ticket, posted to two
// other tickets, ends neither; a signature made for one method does not pass for another.
func TestSignedDeliveryIsBoundToItsRequestAndAcceptedOnce(t *testing.T) {
	t.Parallel()
	ts, _ := stackAPI(t)
	ids := []string{testenv.Unique("SIG-A-"), testenv.Unique("SIG-B-"), testenv.Unique("SIG-C-")}
	for _, id := range ids {
		openDraft(t, ts, id, "Can I get a refund?")
	}
	helpdesk := func(method, path string, body []byte, sig string) (int, string) {
		return ts.do(t, request{method: method, path: path, body: body,
			header: map[string]string{"Authorization": "Bearer " + ts.creds.Tokens[auth.Helpdesk], auth.SignatureHeader: sig}})
	}

	check := []byte(`{"text":"You can get a refund within 14 days of purchase."}`)
	path := "/v1/drafts/" + ids[0] + "/send-check"
	sig := auth.Sign(ts.creds.Secret, http.MethodPost, path, check, time.Now())
	prefix, hexsig, _ := strings.Cut(sig, ",v2=")
	for n := 0; n <= 6; n++ {
		variant := prefix + ",v2=" + strings.ToUpper(hexsig[:n]) + hexsig[n:]
		code, msg := helpdesk(http.MethodPost, path, check, variant)
		if n == 0 {
			require.Equal(t, http.StatusOK, code, msg)
			continue
		}
		assert.Equal(t, http.StatusUnauthorized, code, "%d upper-case hex letters: %s", n, msg)
		assert.Contains(t, msg, "already used")
	}

	sent, err := json.Marshal(map[string]any{"text": "Refunds within 14 days.", "sent_at": time.Now().UTC(), "agent": "sam"})
	require.NoError(t, err)
	sentSig := auth.Sign(ts.creds.Secret, http.MethodPost, "/v1/drafts/"+ids[0]+"/sent", sent, time.Now())
	for _, other := range ids[1:] {
		code, msg := helpdesk(http.MethodPost, "/v1/drafts/"+other+"/sent", sent, sentSig)
		assert.Equal(t, http.StatusUnauthorized, code, "a signature for %s used on %s: %s", ids[0], other, msg)
		assert.Contains(t, msg, "does not match")
		var v workflows.DraftView
		require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+other, nil, &v))
		assert.NotEqual(t, drafts.StatusSent, v.Status, "%s was not sent", other)
	}

	putSig := auth.Sign(ts.creds.Secret, http.MethodPut, path, check, time.Now().Add(time.Second))
	code, msg := helpdesk(http.MethodPost, path, check, putSig)
	assert.Equal(t, http.StatusUnauthorized, code, "signed for PUT, sent as POST: %s", msg)
}

// RFC 7235: the scheme of an Authorization header is case-insensitive.
func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	t.Parallel()
	ts := authAPI(t)
	for _, scheme := range []string{"Bearer", "bearer", "BEARER", "bEaReR"} {
		code, body := ts.do(t, request{method: http.MethodGet, path: "/v1/drafts/" + testenv.Unique("NONE-"),
			header: map[string]string{"Authorization": scheme + " " + ts.creds.Tokens[auth.Agent]}})
		assert.Equal(t, http.StatusNotFound, code, "%s: %s", scheme, body)
	}
	code, _ := ts.do(t, request{method: http.MethodGet, path: "/v1/drafts/X-1",
		header: map[string]string{"Authorization": "Basic " + ts.creds.Tokens[auth.Agent]}})
	assert.Equal(t, http.StatusUnauthorized, code, "another scheme")
}

// Login CSRF: a form on another site posting its own token to the sign-in exchange must
// not sign the victim's browser in; the same form from this app's own page does.
func TestSignInFormChecksOrigin(t *testing.T) {
	t.Parallel()
	ts := authAPI(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(headers map[string]string) *http.Response {
		form := url.Values{"token": {ts.creds.Tokens[auth.Agent]}, "next": {"/app/review"}}
		req, err := http.NewRequest(http.MethodPost, ts.URL+"/app/session", strings.NewReader(form.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	for name, h := range map[string]map[string]string{
		"evil Origin":           {"Origin": "https://evil.example"},
		"cross-site, no Origin": {"Sec-Fetch-Site": "cross-site"},
		"Origin null alone":     {"Origin": "null"},
		"Origin null, cross":    {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
	} {
		resp := post(h)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, name)
		assert.Empty(t, resp.Cookies(), "%s: no session cookie", name)
	}
	u, err := url.Parse(ts.URL)
	require.NoError(t, err)
	resp := post(map[string]string{"Origin": "http://" + u.Host, "Sec-Fetch-Site": "same-origin"})
	assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
	assert.NotEmpty(t, resp.Cookies(), "the app's own sign-in form works")
	resp = post(map[string]string{"Origin": "null", "Sec-Fetch-Site": "same-origin"})
	assert.Equal(t, http.StatusSeeOther, resp.StatusCode, "the form as Chrome posts it from a no-referrer page")
}
