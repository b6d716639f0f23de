package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
)

// stack is the real product for a browser: API and pages over a worker on the Temporal
// dev server and a scratch store with the sample corpus.
type stack struct {
	*httptest.Server
	creds *testenv.Creds
	store *store.Store
}

func newStack(t *testing.T) *stack {
	return newStackWith(t, api.Config{})
}

// newStackWith is newStack with the API configured by cfg (a short review window).
func newStackWith(t *testing.T, cfg api.Config) *stack {
	t.Helper()
	s := testenv.Store(t)
	parts := testenv.Stack(t, s, testenv.Temporal(t), nil)
	tq := testenv.StartWorker(t, parts, "test-web-", nil)
	cfg.TaskQueue, cfg.CheckBudget, cfg.IdleTimeout = tq, 30*time.Second, time.Hour
	ts, creds := testenv.ServeAPI(t, parts.API(cfg, nil))
	return &stack{Server: ts, creds: creds, store: s}
}

// post calls the API as role (signed, for the help desk) and fails the test on an error.
func (st *stack) post(t *testing.T, role auth.Role, path string, body any) {
	t.Helper()
	code := st.call(t, role, path, body)
	require.Less(t, code, 300, "POST %s as %s", path, role)
}

// call POSTs to the API as role and returns the status.
func (st *stack) call(t *testing.T, role auth.Role, path string, body any) int {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(st.creds.Request(t, http.MethodPost, st.URL+path, role, b))
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

// signIn is a sign-in link like the one `supportdraft dev` prints: a fresh one-time code
// for the role's token, exchanged for a session, then the page.
func (st *stack) signIn(t *testing.T, role auth.Role, page string) string {
	t.Helper()
	link, err := auth.SignInLink(context.Background(), st.store, st.creds.IDs[role], page)
	require.NoError(t, err)
	return st.URL + link
}

// within runs steps with a deadline, so a missing element fails the test instead of hanging.
func within(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	require.NoError(t, chromedp.Do(c, steps...), what)
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	s, err := chromedp.Run(c, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	require.NoError(t, err, "text of %s", sel)
	return s
}

// screenshot saves the page as name.png under SUPPORTDRAFT_SCREENSHOTS (docs/screenshots
// for the README) or the test's temp dir, and checks it is a real picture by its size.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { window.scrollTo(0, 0); return true })()`))
	require.NoError(t, err)
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	assert.Greater(t, len(png), 20_000, "%s.png is too small to show the page", name)
	dir := os.Getenv("SUPPORTDRAFT_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644))
}

// a11y is the accessibility smoke check of the page in the browser: a header and a main
// landmark, one h1, and a label for every visible form control.
func a11y(t *testing.T, ctx context.Context) {
	t.Helper()
	problems, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
		const out = [];
		if (!document.querySelector('header')) out.push('no header landmark');
		if (!document.querySelector('main')) out.push('no main landmark');
		if (document.querySelectorAll('h1').length !== 1) out.push('not exactly one h1');
		if (!document.documentElement.lang) out.push('no lang on <html>');
		document.querySelectorAll('input:not([type=hidden]), textarea, select').forEach(el => {
			const labelled = (el.id && document.querySelector('label[for="' + el.id + '"]')) || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
			if (!labelled) out.push('unlabelled ' + el.tagName.toLowerCase() + (el.id ? '#' + el.id : ''));
		});
		document.querySelectorAll('button').forEach(b => { if (!b.textContent.trim() && !b.getAttribute('aria-label')) out.push('button without a name'); });
		return out;
	})()`))
	require.NoError(t, err)
	assert.Empty(t, problems, "accessibility smoke check")
}

// visibleText is the page's text as a person reads it: what is rendered, without the
// contents of closed details toggles or of form fields.
func visibleText(t *testing.T, ctx context.Context) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	require.NoError(t, err)
	return s
}

// visible reports whether sel is on the page and rendered.
func visible(t *testing.T, ctx context.Context, sel string) bool {
	t.Helper()
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const e = document.querySelector(`+jsString(sel)+`); return !!e && e.offsetParent !== null })()`))
	require.NoError(t, err)
	return ok
}

// developerWords are what page text must not show a person: chunk IDs, HTTP verbs and
// field names belong in a details toggle.
var developerWords = regexp.MustCompile(`\S+@\d+#\S+|\b(GET|POST)\b|override_reason|/v1/`)

func refundTicket(id string, revision int, at time.Time, body string) *ticket.Ticket {
	return testenv.Ticket(id, revision, "pro", "eu", at, body)
}

// clear empties a text field the way an agent's select-all and delete would.
func clear(id string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[bool](`(() => { document.getElementById(`+jsString(id)+`).value = ''; return true })()`)(ctx, t)
		return err
	})
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// until waits for a JavaScript expression to be true on the page, for as long as the
// context allows (within's minute, or a longer deadline of the caller's).
func until(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(0))(ctx, t)
		return err
	})
}

// monday is the start of t's ISO week as the abstention chart labels it.
func monday(t time.Time) string {
	t = t.UTC()
	return t.AddDate(0, 0, -((int(t.Weekday()) + 6) % 7)).Format("2006-01-02")
}
