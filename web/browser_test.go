package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/ticket"
)

// stack is the real product for a browser: API and pages over a worker on the Temporal
// dev server and a scratch store with the sample corpus.
type stack struct {
	*httptest.Server
	creds *testenv.Creds
}

func newStack(t *testing.T) *stack {
	t.Helper()
	s := testenv.Store(t)
	parts := testenv.Stack(t, s, testenv.Temporal(t), nil)
	tq := testenv.Unique("test-web-")
	w := parts.Worker(tq, parts.Activities())
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
	creds := testenv.Auth(t, s)
	srv := parts.API(api.Config{TaskQueue: tq, CheckBudget: 30 * time.Second, IdleTimeout: time.Hour}, nil)
	srv.Auth = creds.Guard
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return &stack{Server: ts, creds: creds}
}

// post calls the API as role (signed, for the help desk) and fails the test on an error.
func (st *stack) post(t *testing.T, role auth.Role, path string, body any) {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, st.URL+path, bytes.NewReader(b))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+st.creds.Tokens[role])
	if role == auth.Helpdesk {
		req.Header.Set(auth.SignatureHeader, auth.Sign(st.creds.Secret, req.Method, req.URL.RequestURI(), b, time.Now()))
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Less(t, resp.StatusCode, 300, "POST %s as %s", path, role)
}

// signIn is the sign-in link `supportdraft dev` prints: the token exchange, then the page.
func (st *stack) signIn(role auth.Role, page string) string {
	return st.URL + "/app/session?token=" + url.QueryEscape(st.creds.Tokens[role]) + "&next=" + url.QueryEscape(page)
}

// browser starts Debian's chromium headless with a fresh profile, at width × height.
// scripts/test.sh installs it when it is missing. The profile and chromium's temporary
// files (its singleton socket directory, which it leaves behind when the test ends it)
// live in the test's own directory, which the test removes.
func browser(t *testing.T, width, height int) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not installed: run the tests with scripts/test.sh, which installs Debian's chromium")
	}
	dir := t.TempDir()
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(path), chromedp.UserDataDir(dir), chromedp.Env("TMPDIR="+dir),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.WindowSize(width, height),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true))
	t.Cleanup(cancel)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	t.Cleanup(cancelCtx)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))))
	return ctx
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

func refundTicket(id string, revision int, at time.Time, body string) *ticket.Ticket {
	return testenv.Ticket(id, revision, "pro", "eu", at, body)
}

// The agent's sidebar at 360 px: cited claims with their quotes, the guard marking an
// invented refund window as the agent types, and a new revision making the draft stale
// until Rebuild builds the next iteration. Then the admin view finds the draft under the
// policy version it cites.
func TestSidebarAndAdminInABrowser(t *testing.T) {
	st := newStack(t)
	id := testenv.Unique("WEB-")
	asked := time.Now().UTC().Add(-time.Hour)
	st.post(t, auth.Agent, "/v1/drafts", refundTicket(id, 1, asked,
		"Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge, and how long does it take to reach our card?"))

	ctx := browser(t, 360, 900)
	within(t, ctx, "open the sidebar through its sign-in link",
		chromedp.Navigate(st.signIn(auth.Agent, "/app/tickets/"+id)),
		chromedp.WaitVisible(chromedp.CSS(".sentences .cite summary")))
	summary := text(t, ctx, ".sentences .cite summary")
	assert.Contains(t, summary, "Refunds on annual plans")
	assert.Contains(t, summary, "v4")
	within(t, ctx, "expand a citation", chromedp.Click(chromedp.CSS(".sentences .cite summary")),
		chromedp.WaitVisible(chromedp.CSS(".sentences .cite blockquote")))
	assert.NotEmpty(t, text(t, ctx, ".sentences .cite blockquote"), "the verbatim quote shows on expand")
	assert.Contains(t, text(t, ctx, "#bound-h + ul"), "billing/refunds-annual")
	a11y(t, ctx)
	screenshot(t, ctx, "sidebar")

	within(t, ctx, "type an invented refund window into the editor",
		clear("editor"),
		chromedp.SendKeys(chromedp.ID("editor"), "Thanks for asking. You can get a full refund within 60 days of renewal."),
		chromedp.WaitVisible(chromedp.CSS("#guard ul.unsupported li")))
	flagged := text(t, ctx, "#guard ul.unsupported")
	assert.Contains(t, flagged, "60 days")
	assert.NotContains(t, flagged, "Thanks for asking", "a sentence that commits to nothing is not flagged")

	within(t, ctx, "send check", chromedp.Click(chromedp.ID("send-check")), chromedp.WaitVisible(chromedp.CSS("#verdict .verdict")))
	assert.NotEmpty(t, text(t, ctx, "#verdict .what"), "the verdict says what to do")

	st.post(t, auth.Helpdesk, "/v1/tickets/"+id+"/revisions", refundTicket(id, 2, asked.Add(10*time.Minute), "Also: is VAT included in the refund?"))
	reloadUntil(t, ctx, ".banner", "the stale banner after a new revision")
	assert.Contains(t, text(t, ctx, ".banner"), "customer replied")
	screenshot(t, ctx, "sidebar-stale")
	within(t, ctx, "press Rebuild", chromedp.Click(chromedp.CSS(".banner button")),
		chromedp.WaitNotPresent(chromedp.CSS(".banner")), chromedp.WaitVisible(chromedp.ID("iteration")))
	assert.Equal(t, "2", text(t, ctx, "#iteration"), "Rebuild shows the new iteration")

	admin := browser(t, 1280, 1000)
	within(t, admin, "open the admin view",
		chromedp.Navigate(st.signIn(auth.Admin, "/app/admin")), chromedp.WaitVisible(chromedp.CSS("#versions-h")))
	row, err := chromedp.Run(admin, chromedp.Evaluate[string](`(() => {
		const link = [...document.querySelectorAll('a.draft-link')].find(a => a.textContent === `+jsString(id)+`);
		if (!link) return '';
		const tr = link.closest('tr'), table = link.closest('table');
		return table.previousElementSibling.textContent + ' ' + tr.cells[0].textContent;
	})()`))
	require.NoError(t, err)
	assert.Contains(t, row, "billing/refunds-annual")
	assert.Contains(t, row, "v4", "the draft is listed under the version it cites")
	bars, err := chromedp.Run(admin, chromedp.Evaluate[[]string](`[...document.querySelectorAll('svg.chart rect.bar title')].map(t => t.textContent)`))
	require.NoError(t, err)
	assert.Contains(t, strings.Join(bars, "\n"), "refunds, week of", "the abstention chart draws this week's refunds drafts")
	a11y(t, admin)
	screenshot(t, admin, "admin")

	// The kill switch flips from the page and is read back live from the database.
	within(t, admin, "halt drafting", chromedp.Click(chromedp.ID("killswitch")),
		chromedp.WaitVisible(chromedp.CSS("#kill-h + p.verdict-blocked")))
	assert.Equal(t, "Resume drafting", text(t, admin, "#killswitch"))
	within(t, admin, "resume drafting", chromedp.Click(chromedp.ID("killswitch")),
		chromedp.WaitVisible(chromedp.CSS("#kill-h + p.verdict-ok")))
	assert.Equal(t, "Halt drafting", text(t, admin, "#killswitch"))
}

// reloadUntil reloads the page until sel is on it: the workflow marks a draft stale
// moments after the help desk's webhook, not within it.
func reloadUntil(t *testing.T, ctx context.Context, sel, what string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		within(t, ctx, what, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("h1")))
		found, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector(`+jsString(sel)+`) !== null`))
		require.NoError(t, err)
		if found {
			return
		}
		require.True(t, time.Now().Before(deadline), "%s: %s did not appear", what, sel)
		time.Sleep(200 * time.Millisecond)
	}
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

// Without a session the pages answer 401 with a way to sign in, never a redirect loop or
// a stack trace; an agent's session is refused the admin page with 403.
func TestPagesRefuseWithoutTheRightSession(t *testing.T) {
	st := newStack(t)
	ctx := browser(t, 800, 600)
	within(t, ctx, "admin page without a session", chromedp.Navigate(st.URL+"/app/admin"), chromedp.WaitVisible(chromedp.CSS("h1")))
	assert.Contains(t, text(t, ctx, "h1"), "401")
	assert.Contains(t, text(t, ctx, "main"), "Sign in")
	within(t, ctx, "admin page as an agent", chromedp.Navigate(st.signIn(auth.Agent, "/app/admin")), chromedp.WaitVisible(chromedp.CSS("h1")))
	assert.Contains(t, text(t, ctx, "h1"), "403")
	within(t, ctx, "sign-in form", chromedp.Navigate(st.URL+"/app/login?next=/app/admin"), chromedp.WaitVisible(chromedp.ID("token")))
	a11y(t, ctx)
	within(t, ctx, "sign in with the form", chromedp.SendKeys(chromedp.ID("token"), st.creds.Tokens[auth.Admin]),
		chromedp.Submit(chromedp.ID("token")), chromedp.WaitVisible(chromedp.ID("versions-h")))
	assert.Equal(t, "Admin", text(t, ctx, "h1"))
}

// The review dashboard: a finished draft waits in the queue with its window counting
// down; opened, it shows the customer's email, the judge's verdicts and the sources; a
// reviewer approves it from the page.
func TestReviewDashboardApprovesInABrowser(t *testing.T) {
	st := newStack(t)
	id := testenv.Unique("REV-")
	st.post(t, auth.Agent, "/v1/drafts", refundTicket(id, 1, time.Now().UTC().Add(-time.Hour),
		"Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge?"))

	ctx := browser(t, 1280, 1000)
	within(t, ctx, "open the review dashboard",
		chromedp.Navigate(st.signIn(auth.Reviewer, "/app/review?ticket="+url.QueryEscape(id))),
		chromedp.WaitVisible(chromedp.ID("open-h")))
	assert.Contains(t, text(t, ctx, "tr.selected"), id)
	assert.Regexp(t, `\dm\d\ds left`, text(t, ctx, "tr.selected"), "the review window counts down")
	assert.Contains(t, text(t, ctx, ".open-draft .email"), "renewed five days ago", "the original email")
	assert.Contains(t, text(t, ctx, ".open-draft table"), "supports", "the judge's verdicts")
	sources, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.open-draft details.cite summary')].map(s => s.textContent)`))
	require.NoError(t, err)
	assert.Contains(t, strings.Join(sources, "\n"), "Refunds on annual plans", "the retrieved sources")
	a11y(t, ctx)
	screenshot(t, ctx, "review")

	within(t, ctx, "approve", chromedp.Click(chromedp.CSS(`form[action$="/approve"] button`)),
		chromedp.WaitVisible(chromedp.CSS(".open-draft p.verdict-ok")))
	assert.Contains(t, text(t, ctx, ".open-draft p.verdict-ok"), "Approved by test reviewer")
	assert.Contains(t, text(t, ctx, "tr.selected"), "approved")
}
