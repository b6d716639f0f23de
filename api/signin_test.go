package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/internal/testenv"
)

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
