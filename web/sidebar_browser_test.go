package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
)

const refundQuestion = "Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge, and how long does it take to reach our card?"

// The agent's sidebar at 360×740, as the help desk opens it before the first draft
// exists: "Drafting…" until the draft appears by itself; then the actions on the first
// screen, the reply once (in the editor), citations that expand to the quote, Copy to
// the clipboard, the guard flagging an invented refund window, a send check that names the
// sentence and records an override with its reason, and a policy approval turning the
// open sidebar stale without a reload. Rebuild keeps the agent's edit beside the new draft.
func TestSidebarActionsFirstInABrowser(t *testing.T) {
	st := newStack(t)
	id := testenv.Unique("WEB-")
	ctx := testenv.Browser(t, 360, 740)
	within(t, ctx, "open the sidebar before the draft exists",
		chromedp.Navigate(st.signIn(t, auth.Agent, "/app/tickets/"+id)), chromedp.WaitVisible(chromedp.ID("drafting")))
	assert.Contains(t, text(t, ctx, "#state-chip"), "drafting")

	st.post(t, auth.Agent, "/v1/drafts", refundTicket(id, 1, time.Now().UTC().Add(-time.Hour), refundQuestion))
	within(t, ctx, "the first draft appears without a reload", chromedp.WaitVisible(chromedp.ID("editor")))

	wide, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`))
	require.NoError(t, err)
	assert.LessOrEqual(t, wide, 360.0, "nothing overflows the 360 px sidebar")
	bottom, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.getElementById('send-check').getBoundingClientRect().bottom`))
	require.NoError(t, err)
	assert.Less(t, bottom, 740.0, "Send check is on the first screen")
	reply, err := chromedp.Run(ctx, chromedp.Value(chromedp.ID("editor")))
	require.NoError(t, err)
	require.NotEmpty(t, reply)
	page := visibleText(t, ctx)
	for _, line := range strings.Split(reply, "\n") {
		if len(line) > 40 {
			assert.NotContains(t, page, line, "the draft is shown once, in the editor")
		}
	}
	assert.NotRegexp(t, developerWords, page, "no chunk IDs, HTTP verbs or field names in the page text")
	assert.Contains(t, text(t, ctx, ".question"), "renewed five days ago", "the customer's question above the draft")

	within(t, ctx, "expand a citation", chromedp.Click(chromedp.CSS(".cites .cite summary")),
		chromedp.WaitVisible(chromedp.CSS(".cites .cite blockquote")))
	assert.Contains(t, text(t, ctx, ".cites .cite summary"), "Refunds on annual plans")
	assert.NotEmpty(t, text(t, ctx, ".cites .cite blockquote"), "the verbatim quote shows on expand")
	a11y(t, ctx)
	screenshot(t, ctx, "sidebar")

	_, err = chromedp.CallBrowser(ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
		Permission: &cdpbrowser.PermissionDescriptor{Name: "clipboard-read"}, Setting: cdpbrowser.PermissionSettingGranted, Origin: st.URL})
	require.NoError(t, err)
	within(t, ctx, "copy the reply", chromedp.Click(chromedp.ID("copy")),
		until(`document.getElementById('action-status').textContent === 'Copied.'`))
	copied, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	assert.Equal(t, reply, copied, "Copy puts the reply on the clipboard")

	invented := "Thanks for asking. You can get a full refund within 60 days of renewal."
	within(t, ctx, "type an invented refund window into the editor",
		clear("editor"), chromedp.SendKeys(chromedp.ID("editor"), invented),
		chromedp.WaitVisible(chromedp.CSS("#guard ul.unsupported li")))
	flagged := text(t, ctx, "#guard ul.unsupported")
	assert.Contains(t, flagged, "60 days")
	assert.NotContains(t, flagged, "Thanks for asking", "a sentence that commits to nothing is not flagged")
	assert.Contains(t, text(t, ctx, "#guard .otherwise"), "within 14 days of the purchase date or the renewal date", "what policy in force says instead, as the agent types")

	within(t, ctx, "send check", chromedp.Click(chromedp.ID("send-check")), chromedp.WaitVisible(chromedp.ID("override-reason")))
	assert.Equal(t, "unsupported", text(t, ctx, "#verdict .verdict"))
	assert.Contains(t, text(t, ctx, "#verdict ul.unsupported"), "You can get a full refund within 60 days of renewal.", "the verdict names the sentence")
	assert.Contains(t, text(t, ctx, "#verdict ul.unsupported"), "No policy in force for this account says this.", "and says why in words")
	otherwise := text(t, ctx, "#verdict .otherwise")
	assert.Contains(t, otherwise, "Policy in force says:")
	assert.Contains(t, otherwise, "Annual Pro and Business plans can be refunded in full within 14 days of the purchase date or the renewal date.",
		"the eligible policy sentence that says otherwise, beside the sentence")
	within(t, ctx, "an override needs a reason", chromedp.Click(chromedp.ID("override")), chromedp.Sleep(300*time.Millisecond))
	assert.True(t, visible(t, ctx, "#override-reason"), "no reason: nothing is sent")
	reason := "Billing lead approved a goodwill refund in BL-7"
	within(t, ctx, "override with a reason", chromedp.SendKeys(chromedp.ID("override-reason"), reason), chromedp.Click(chromedp.ID("override")),
		until(`(document.querySelector('#verdict .what')?.textContent || '').includes('Override recorded')`))
	var recorded string
	require.NoError(t, st.store.Pool().QueryRow(context.Background(),
		`SELECT override_reason FROM send_checks WHERE ticket_id = $1 ORDER BY id DESC LIMIT 1`, id).Scan(&recorded))
	assert.Equal(t, reason, recorded, "the override is recorded with its reason")

	approved := time.Now().UTC().Add(-time.Minute)
	_, err = st.store.Import(context.Background(), []*policy.Version{{DocID: "billing/refunds-annual", Version: 6, Status: policy.StatusApproved,
		Source: "wiki", Title: "Refunds on annual plans", Area: "refunds", EffectiveFrom: &approved, ApprovedAt: &approved,
		Plans: []string{"pro", "business"}, Regions: []string{"eu", "uk"}, Locale: "en", ContentHash: "v6",
		Chunks: []policy.Chunk{{ID: "billing/refunds-annual@6#refund-window", Anchor: "refund-window", Heading: "Refund window",
			Text: "Refund window\nAnnual Pro and Business plans can be refunded in full within 21 days of the purchase date or the renewal date."}}}}, testenv.Embedder)
	require.NoError(t, err)
	within(t, ctx, "the stale banner appears without a reload", chromedp.WaitVisible(chromedp.ID("stale-banner")))
	assert.Contains(t, text(t, ctx, "#stale-reasons"), "v6")
	assert.Equal(t, "out of date", text(t, ctx, "#state-chip"))
	screenshot(t, ctx, "sidebar-stale")

	within(t, ctx, "rebuild", chromedp.Click(chromedp.ID("rebuild")), chromedp.WaitVisible(chromedp.ID("earlier")))
	assert.Equal(t, "2", strings.TrimSpace(textContent(t, ctx, "#iteration")), "Rebuild shows the new iteration")
	assert.Contains(t, text(t, ctx, "#flash"), "this is draft 2", "a message after the rebuild")
	assert.Equal(t, invented, textContent(t, ctx, "#earlier-text"), "the agent's edit is kept as its own version")
	assert.Contains(t, textContent(t, ctx, "#earlier .diff .added"), "within 21 days", "what changed between the drafts: the new window")
	assert.Contains(t, textContent(t, ctx, "#earlier .diff .removed"), "within 14 days", "and the old one")
	within(t, ctx, "take the earlier edit back", chromedp.Click(chromedp.CSS("#earlier summary")), chromedp.Click(chromedp.ID("use-earlier")))
	back, err := chromedp.Run(ctx, chromedp.Value(chromedp.ID("editor")))
	require.NoError(t, err)
	assert.Equal(t, invented, back)
}

// A reply from the customer turns an open sidebar stale without a reload; the kill
// switch shows there too and hides Rebuild; a reviewer's kill (with a reason) leaves the
// agent only "Start a new draft", which starts one; a pull-back shows who and why.
func TestSidebarFollowsTheDraftInABrowser(t *testing.T) {
	st := newStack(t)
	id := testenv.Unique("LIVE-")
	asked := time.Now().UTC().Add(-time.Hour)
	st.post(t, auth.Agent, "/v1/drafts", refundTicket(id, 1, asked, refundQuestion))
	ctx := testenv.Browser(t, 360, 740)
	within(t, ctx, "open the sidebar", chromedp.Navigate(st.signIn(t, auth.Agent, "/app/tickets/"+id)), chromedp.WaitVisible(chromedp.ID("editor")))

	st.post(t, auth.Admin, "/v1/admin/killswitch", map[string]any{"halted": true, "by": "test admin"})
	within(t, ctx, "the kill switch shows without a reload", chromedp.WaitVisible(chromedp.ID("halted-banner")),
		chromedp.WaitNotVisible(chromedp.ID("rebuild")))
	assert.Contains(t, text(t, ctx, "#halted-banner"), "test admin")
	st.post(t, auth.Admin, "/v1/admin/killswitch", map[string]any{"halted": false, "by": "test admin"})
	within(t, ctx, "and goes when drafting resumes", chromedp.WaitNotVisible(chromedp.ID("halted-banner")), chromedp.WaitVisible(chromedp.ID("rebuild")))

	st.post(t, auth.Helpdesk, "/v1/tickets/"+id+"/revisions", refundTicket(id, 2, asked.Add(10*time.Minute), "Also: is VAT included in the refund?"))
	within(t, ctx, "the stale banner appears without a reload", chromedp.WaitVisible(chromedp.ID("stale-banner")))
	assert.Contains(t, text(t, ctx, "#stale-reasons"), "customer replied")

	st.post(t, auth.Reviewer, "/v1/drafts/"+id+"/kill", map[string]string{"reason": "promises a refund outside policy"})
	within(t, ctx, "the killed draft", chromedp.WaitVisible(chromedp.ID("restart")))
	assert.Equal(t, "killed", text(t, ctx, "#state-chip"))
	assert.Contains(t, text(t, ctx, "#state-detail"), "test reviewer: promises a refund outside policy", "who killed it and why")
	for _, sel := range []string{"#editor", "#send-check", "#rebuild", "#copy"} {
		assert.False(t, visible(t, ctx, sel), "%s cannot work on a killed draft", sel)
	}
	controls, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('main button, main textarea, main input, main select')]
		.filter(e => e.offsetParent !== null).map(e => e.textContent.trim() || e.id)`))
	require.NoError(t, err)
	assert.Equal(t, []string{"Start a new draft"}, controls, "a killed draft offers only a new draft")
	a11y(t, ctx)

	pulled := testenv.Unique("PULL-")
	st.post(t, auth.Agent, "/v1/drafts", refundTicket(pulled, 1, asked, refundQuestion))
	within(t, ctx, "open a draft a reviewer will pull back", chromedp.Navigate(st.URL+"/app/tickets/"+pulled), chromedp.WaitVisible(chromedp.ID("editor")))
	st.post(t, auth.Reviewer, "/v1/drafts/"+pulled+"/pull", map[string]string{"reason": "say when the refund arrives"})
	// The reason is kept once the workflow took the decision, a moment after the chip turns:
	// the next poll shows it.
	within(t, ctx, "the pull-back and its reason show without a reload", until(`document.getElementById('state-chip').textContent === 'pulled back' &&
		document.getElementById('state-detail').textContent.includes('Pulled back by test reviewer: say when the refund arrives')`))
	assert.True(t, visible(t, ctx, "#editor"), "a pulled-back draft stays the agent's to edit")

	within(t, ctx, "back to the killed draft", chromedp.Navigate(st.URL+"/app/tickets/"+id), chromedp.WaitVisible(chromedp.ID("restart")))
	st.post(t, auth.Admin, "/v1/admin/killswitch", map[string]any{"halted": true, "by": "test admin"})
	within(t, ctx, "start a new draft while drafting is paused", chromedp.Click(chromedp.ID("restart")), chromedp.WaitVisible(chromedp.ID("page-error")))
	// The live updates poll every two seconds; the refusal outlasts them.
	within(t, ctx, "let a poll pass", chromedp.Sleep(2500*time.Millisecond))
	assert.True(t, visible(t, ctx, "#page-error"), "a refused action stays on the page until the agent acts")
	refusal := text(t, ctx, "#page-error")
	assert.Contains(t, refusal, "Drafting is paused by an admin", "the API's refusal in plain words")
	assert.NotContains(t, refusal, "killswitch", "the API's own words stay in the details toggle")
	st.post(t, auth.Admin, "/v1/admin/killswitch", map[string]any{"halted": false, "by": "test admin"})
	within(t, ctx, "start a new draft", chromedp.Click(chromedp.ID("restart")), chromedp.WaitVisible(chromedp.ID("editor")))
	assert.NotEqual(t, "killed", text(t, ctx, "#state-chip"))
}

// textContent is an element's text whether or not it is rendered.
func textContent(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(`+jsString(sel)+`).textContent`))
	require.NoError(t, err)
	return s
}

// Framed by the help desk (an origin the configuration allows), the sidebar offers
// Insert, which hands the reply to the help desk's page and to no other.
func TestInsertHandsTheReplyToTheHelpDesk(t *testing.T) {
	var sidebarURL string
	helpdesk := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><body><script>window.got = []; addEventListener("message", e => window.got.push(e.data));</script>
<iframe src=%q width="360" height="700" title="supportdraft"></iframe></body></html>`, sidebarURL)
	}))
	t.Cleanup(helpdesk.Close)
	st := newStackWith(t, api.Config{AllowedOrigins: []string{helpdesk.URL}})
	id := testenv.Unique("INS-")
	st.post(t, auth.Agent, "/v1/drafts", refundTicket(id, 1, time.Now().UTC().Add(-time.Hour), refundQuestion))
	sidebarURL = st.URL + "/app/tickets/" + id

	ctx := testenv.Browser(t, 800, 800)
	within(t, ctx, "sign in", chromedp.Navigate(st.signIn(t, auth.Agent, "/app/")), chromedp.WaitVisible(chromedp.ID("ticket-id")))
	assert.False(t, visible(t, ctx, "#insert"), "no Insert outside the help desk")
	within(t, ctx, "open the help desk with the sidebar framed", chromedp.Navigate(helpdesk.URL), chromedp.WaitReady(chromedp.CSS("iframe")))
	frames, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("iframe"), chromedp.Populate(-1, true)))
	require.NoError(t, err)
	require.Len(t, frames, 1)
	within(t, ctx, "press Insert", chromedp.WaitVisible(chromedp.ID("insert"), chromedp.FromNode(frames[0])),
		chromedp.Click(chromedp.ID("insert"), chromedp.FromNode(frames[0])), until(`window.got.length > 0`))
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]map[string]string](`window.got`))
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "supportdraft.insert", got[0]["type"])
	assert.Equal(t, id, got[0]["ticket"])
	assert.Contains(t, got[0]["text"], "refund", "the reply in the editor")
}
