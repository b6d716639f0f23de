package web_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/contradictions"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/provenance"
)

// The review dashboard with a short review window: Kill asks for confirmation and a
// reason before it acts and says what it did; the decided tab shows who killed which draft
// and why; Pull back and Kill go from the page when the window closes (and stay gone on
// reload) while Approve stays, and approving says so.
func TestReviewDecisionsInABrowser(t *testing.T) {
	st := newStackWith(t, api.Config{ReviewDelay: 40 * time.Second})
	asked := time.Now().UTC().Add(-time.Hour)
	killed, kept, abstained := testenv.Unique("REVK-"), testenv.Unique("REVA-"), testenv.Unique("REVN-")
	st.post(t, auth.Agent, "/v1/drafts", refundTicket(killed, 1, asked, refundQuestion))
	st.post(t, auth.Agent, "/v1/drafts", refundTicket(kept, 1, asked, "Can we still get a refund of the annual charge?"))
	st.post(t, auth.Agent, "/v1/drafts", testenv.Ticket(abstained, 1, "free", "apac", asked, "Can you send me a hoodie with your logo on it?"))

	ctx := testenv.Browser(t, 1280, 1000)
	within(t, ctx, "open the draft to kill",
		chromedp.Navigate(st.signIn(t, auth.Reviewer, "/app/review?ticket="+url.QueryEscape(killed))), chromedp.WaitVisible(chromedp.ID("open-h")))
	assert.Contains(t, text(t, ctx, "tr.selected"), killed)
	assert.Regexp(t, `\dm\d\ds left`, text(t, ctx, "tr.selected"), "the review window counts down")
	assert.Contains(t, text(t, ctx, ".open-draft .email"), "renewed five days ago", "the original email")
	assert.Contains(t, text(t, ctx, ".open-draft table"), "supports", "the judge's verdicts")
	a11y(t, ctx)

	within(t, ctx, "press Kill", chromedp.Click(chromedp.CSS(`form[data-action="kill"] button`)), chromedp.WaitVisible(chromedp.ID("confirm")))
	assert.Contains(t, text(t, ctx, "#confirm-q"), "Kill this draft?")
	within(t, ctx, "cancel", chromedp.Click(chromedp.ID("confirm-no")), chromedp.WaitNotVisible(chromedp.ID("confirm")))
	assert.Contains(t, text(t, ctx, "tr.selected"), "waiting", "nothing is killed without confirmation")
	within(t, ctx, "kill with a reason", chromedp.Click(chromedp.CSS(`form[data-action="kill"] button`)),
		chromedp.SendKeys(chromedp.ID("confirm-reason"), "promises a refund outside policy"), chromedp.Click(chromedp.ID("confirm-yes")),
		chromedp.WaitVisible(chromedp.ID("flash")))
	assert.Contains(t, text(t, ctx, "#flash"), "Killed", "a message after the action")
	assert.NotContains(t, text(t, ctx, ".queue"), killed, "a killed draft leaves the queue")

	within(t, ctx, "open the other draft", chromedp.Navigate(st.URL+"/app/review?ticket="+url.QueryEscape(kept)), chromedp.WaitVisible(chromedp.ID("open-h")))
	assert.True(t, visible(t, ctx, `form[data-action="pull"]`), "Pull back while the window is open")
	assert.True(t, visible(t, ctx, `form[data-action="kill"]`), "Kill while the window is open")
	screenshot(t, ctx, "review")
	c, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	require.NoError(t, chromedp.Do(c, until(`document.querySelector('form.window-only') === null`)), "Pull back and Kill go when the window closes")
	within(t, ctx, "reload after the window", chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("open-h")))
	assert.False(t, visible(t, ctx, `form[data-action="pull"]`), "no Pull back after the window")
	assert.False(t, visible(t, ctx, `form[data-action="kill"]`), "no Kill after the window")
	assert.Contains(t, text(t, ctx, "tr.selected"), "closed")
	within(t, ctx, "approve", chromedp.Click(chromedp.CSS(`form[data-action="approve"] button`)), chromedp.WaitVisible(chromedp.ID("flash")))
	assert.Contains(t, text(t, ctx, "#flash"), "Approved")

	within(t, ctx, "open the abstained draft", chromedp.Navigate(st.URL+"/app/review?ticket="+url.QueryEscape(abstained)),
		chromedp.WaitVisible(chromedp.ID("approve-warning")))
	assert.Contains(t, text(t, ctx, "#approve-warning"), "abstained", "a warning before approving an abstained draft")
	within(t, ctx, "approve without a reason", chromedp.Click(chromedp.CSS(`form[data-action="approve"] button`)),
		chromedp.WaitVisible(chromedp.ID("confirm-reason")), chromedp.Click(chromedp.ID("confirm-yes")), chromedp.WaitVisible(chromedp.ID("decision-status")))
	assert.Contains(t, text(t, ctx, "#decision-status"), "Give a reason first")
	assert.Contains(t, text(t, ctx, "tr.selected"), "waiting", "not approved without a reason")
	within(t, ctx, "approve with a reason", chromedp.SendKeys(chromedp.ID("confirm-reason"), "agent will write the answer; the greeting is fine"),
		chromedp.Click(chromedp.ID("confirm-yes")), chromedp.WaitVisible(chromedp.ID("flash")))

	within(t, ctx, "the decided tab", chromedp.Click(chromedp.CSS(`a[href="/app/review?tab=decided"]`)), chromedp.WaitVisible(chromedp.ID("decided-h")))
	rows := text(t, ctx, "table.decided tbody")
	for _, want := range []string{killed, "killed", "test reviewer", "promises a refund outside policy", kept, abstained, "agent will write the answer"} {
		assert.Contains(t, rows, want)
	}
	a11y(t, ctx)
	assert.NotRegexp(t, developerWords, visibleText(t, ctx))
}

// The review queue narrowed by bucket and by who has a draft: a reviewer takes one with
// "Assign to me", the row says so, the draft's history notes who assigned it, and the
// "assigned to me" and "nobody" filters split the queue between them.
func TestReviewFiltersAndAssignmentInABrowser(t *testing.T) {
	st := newStack(t)
	asked := time.Now().UTC().Add(-time.Hour)
	refund, other := testenv.Unique("FILR-"), testenv.Unique("FILO-")
	st.post(t, auth.Agent, "/v1/drafts", refundTicket(refund, 1, asked, refundQuestion))
	st.post(t, auth.Agent, "/v1/drafts", refundTicket(other, 1, asked, "Can we still get a refund of the annual charge?"))
	// Filed under a bucket as the intake funnel files an email's draft.
	_, err := st.store.Pool().Exec(t.Context(), `UPDATE review_queue SET bucket = 'refunds' WHERE ticket_id = $1`, refund)
	require.NoError(t, err)

	ctx := testenv.Browser(t, 1280, 1000)
	within(t, ctx, "open the review page", chromedp.Navigate(st.signIn(t, auth.Reviewer, "/app/review")), chromedp.WaitVisible(chromedp.ID("filters")))
	a11y(t, ctx)
	within(t, ctx, "filter by the refunds bucket", chromedp.SetValue(chromedp.ID("f-bucket"), "refunds"), chromedp.Click(chromedp.ID("filter")),
		chromedp.WaitVisible(chromedp.ID("clear-filter")))
	queue := text(t, ctx, "table.queue tbody")
	assert.Contains(t, queue, refund)
	assert.NotContains(t, queue, other, "another bucket's draft is filtered out")

	within(t, ctx, "open the draft under the filter", chromedp.Click(chromedp.CSS(`table.queue a[href*="`+refund+`"]`)),
		chromedp.WaitVisible(chromedp.ID("assign-me")))
	assert.Contains(t, text(t, ctx, "tr.selected"), refund)
	assert.NotContains(t, text(t, ctx, "table.queue tbody"), other, "the filter stays while a draft is open")
	within(t, ctx, "assign it to me", chromedp.Click(chromedp.ID("assign-me")), chromedp.WaitVisible(chromedp.ID("flash")))
	assert.Equal(t, "Assigned to test reviewer.", text(t, ctx, "#flash"))
	assert.Equal(t, "test reviewer (you)", text(t, ctx, "tr.selected td.assignee"), "who has it, on the row")
	assert.Contains(t, text(t, ctx, "#notes"), "test reviewer assigned the review to test reviewer", "the assignment in the draft's history")
	assert.False(t, visible(t, ctx, "#assign-me"), "nothing to take: it is mine")
	var noted string
	require.NoError(t, st.store.Pool().QueryRow(t.Context(),
		`SELECT decided_by || ' → ' || assignee FROM review_notes WHERE ticket_id = $1 AND action = 'assign'`, refund).Scan(&noted))
	assert.Equal(t, "test reviewer → test reviewer", noted, "recorded in the review notes")

	within(t, ctx, "only mine", chromedp.Navigate(st.URL+"/app/review?assigned=me"), chromedp.WaitVisible(chromedp.ID("clear-filter")))
	queue = text(t, ctx, "table.queue tbody")
	assert.Contains(t, queue, refund)
	assert.NotContains(t, queue, other)
	within(t, ctx, "only nobody's", chromedp.SetValue(chromedp.ID("f-assigned"), "none"), chromedp.Click(chromedp.ID("filter")),
		chromedp.WaitReady(chromedp.CSS(`#f-assigned option[value="none"][selected]`)))
	queue = text(t, ctx, "table.queue tbody")
	assert.Contains(t, queue, other)
	assert.NotContains(t, queue, refund, "an assigned draft is not nobody's")
	within(t, ctx, "give it back to nobody", chromedp.Navigate(st.URL+"/app/review?ticket="+url.QueryEscape(refund)), chromedp.WaitVisible(chromedp.ID("assignee")),
		chromedp.SetValue(chromedp.ID("assignee"), ""), chromedp.Click(chromedp.ID("assign")), chromedp.WaitVisible(chromedp.ID("flash")))
	assert.Equal(t, "Nobody is assigned to this draft now.", text(t, ctx, "#flash"))
	assert.Equal(t, "—", text(t, ctx, "tr.selected td.assignee"))
	assert.NotRegexp(t, developerWords, visibleText(t, ctx))
}

// The admin page: the kill switch asks before it pauses drafting; an agent's override
// is listed with its reason; citing drafts are counted by state under their version and
// only the open ones listed; times are shown in the viewer's zone with UTC on hover.
func TestAdminInABrowser(t *testing.T) {
	st := newStack(t)
	id := testenv.Unique("ADM-")
	st.post(t, auth.Agent, "/v1/drafts", refundTicket(id, 1, time.Now().UTC().Add(-time.Hour), refundQuestion))
	killed := testenv.Unique("ADMK-")
	st.post(t, auth.Agent, "/v1/drafts", refundTicket(killed, 1, time.Now().UTC().Add(-time.Hour), refundQuestion))
	st.post(t, auth.Reviewer, "/v1/drafts/"+killed+"/kill", map[string]string{"reason": "wrong customer"})
	reason := "customer was promised this by phone, see BL-9"
	st.post(t, auth.Agent, "/v1/drafts/"+id+"/send-check", map[string]string{
		"text": "You can get a full refund within 60 days of renewal.", "override_reason": reason})

	var events []inbox.Event
	at := time.Now().UTC()
	for i, path := range [][]string{ // the steps each message passed, the last one's outcome given
		{inbox.StepDuplicate, inbox.StepKillSwitch, inbox.StepFirstResponse, inbox.StepFilters, inbox.StepRecipients, inbox.StepTriage, inbox.StepDraft + ":" + inbox.OutcomeStarted},
		{inbox.StepDuplicate, inbox.StepKillSwitch, inbox.StepFirstResponse, inbox.StepFilters + ":" + inbox.OutcomeSkip},
		{inbox.StepDuplicate, inbox.StepKillSwitch, inbox.StepFirstResponse, inbox.StepFilters, inbox.StepRecipients, inbox.StepTriage + ":" + inbox.OutcomeSkip},
	} {
		for _, step := range path {
			step, outcome, ok := strings.Cut(step, ":")
			if !ok {
				outcome = inbox.OutcomePass
			}
			events = append(events, inbox.Event{MessageID: fmt.Sprintf("<%d@%s>", i, id), ThreadID: id, Step: step, Outcome: outcome, Reason: "test", At: at})
		}
	}
	require.NoError(t, st.store.RecordFunnel(t.Context(), events))
	accepted := "both windows stay until legal signs off, " + id
	require.NoError(t, st.store.AcceptContradictions(t.Context(), []contradictions.Finding{{Term: "refund (days)",
		A: contradictions.Side{Ref: "billing/refunds-annual@6", ChunkID: "billing/refunds-annual@6#refund-window", Values: []string{"30 days"}},
		B: contradictions.Side{Ref: "billing/refunds-annual@4", ChunkID: "billing/refunds-annual@4#refund-window", Values: []string{"14 days"}}}},
		accepted, "ops@example.com"))
	traced := "a refund for the hardware kit " + id
	_, err := st.store.RecordTrace(t.Context(), &provenance.Result{Term: traced, Outcome: provenance.Absent,
		Account: provenance.Account{Plan: "pro", Region: "eu", At: at}, Matches: []provenance.Match{}})
	require.NoError(t, err)

	admin := testenv.Browser(t, 1280, 1000)
	_, err = chromedp.Call(admin, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Kolkata"})
	require.NoError(t, err)
	within(t, admin, "open the admin view",
		chromedp.Navigate(st.signIn(t, auth.Admin, "/app/admin")), chromedp.WaitVisible(chromedp.CSS("#versions-h")))
	row, err := chromedp.Run(admin, chromedp.Evaluate[string](`(() => {
		const link = [...document.querySelectorAll('a.draft-link')].find(a => a.textContent === `+jsString(id)+`);
		if (!link) return '';
		const tr = link.closest('tr'), table = link.closest('table');
		return table.previousElementSibling.textContent + ' ' + tr.cells[0].textContent + ' | ' + tr.cells[3].textContent;
	})()`))
	require.NoError(t, err)
	assert.Contains(t, row, "billing/refunds-annual")
	assert.Contains(t, row, "v4", "the draft is listed under the version it cites")
	assert.Contains(t, row, "2: 1 killed, 1 ready", "citing drafts counted by state")
	links, err := chromedp.Run(admin, chromedp.Evaluate[string](`[...document.querySelectorAll('a.draft-link')].map(a => a.textContent).join(' ')`))
	require.NoError(t, err)
	assert.NotContains(t, links, killed, "a killed draft is counted, not listed as open")
	assert.Contains(t, text(t, admin, "#overrides-h + p"), "1 reply was sent with an override")
	assert.Contains(t, text(t, admin, "#overrides-h ~ table"), reason, "the override's reason, for admins")
	contradiction, err := chromedp.Run(admin, chromedp.Evaluate[string](`[...document.querySelectorAll('ul.accepted li')].map(li => li.textContent).find(t => t.includes(`+jsString(id)+`)) || ''`))
	require.NoError(t, err)
	for _, want := range []string{"refund (days)", "billing/refunds-annual@6", "section “refund window”", "says 30 days", "billing/refunds-annual@4", "says 14 days", "Accepted by ops@example.com", accepted} {
		assert.Contains(t, contradiction, want, "the accepted contradiction, in words")
	}
	trace, err := chromedp.Run(admin, chromedp.Evaluate[string](`[...document.querySelectorAll('table.traces tbody tr')].map(r => [...r.cells].map(c => c.textContent).join('|')).find(t => t.includes(`+jsString(id)+`)) || ''`))
	require.NoError(t, err)
	assert.Contains(t, trace, "“"+traced+"”|pro / eu|absent|nowhere|0|", "the trace, listed")
	bars, err := chromedp.Run(admin, chromedp.Evaluate[[]string](`[...document.querySelectorAll('svg.chart rect.bar title')].map(t => t.textContent)`))
	require.NoError(t, err)
	assert.Contains(t, strings.Join(bars, "\n"), "week of "+monday(time.Now()), "the abstention chart draws this week's draft")
	assert.Contains(t, text(t, admin, "#funnel-h + p"), "3 messages came in", "the funnel's total")
	steps, err := chromedp.Run(admin, chromedp.Evaluate[[]string](`[...document.querySelectorAll('table.funnel tbody tr')].map(r => [...r.cells].map(c => c.textContent).join('|'))`))
	require.NoError(t, err)
	require.Len(t, steps, 7, "every stage, in order")
	assert.Equal(t, "Seen before? (duplicate message)|3|3|0|0|0|0", steps[0])
	assert.Equal(t, "Automated mail or a block rule?|3|2|1|0|0|0", steps[3])
	assert.Equal(t, "Draft started|1|0|0|0|1|0", steps[6])
	stamp, err := chromedp.Run(admin, chromedp.Attributes(chromedp.CSS("time.local")))
	require.NoError(t, err)
	assert.Contains(t, stamp["title"], "UTC", "UTC on hover")
	stamped, err := time.Parse(time.RFC3339, stamp["datetime"])
	require.NoError(t, err)
	kolkata, err := time.LoadLocation("Asia/Kolkata")
	require.NoError(t, err)
	shown := strings.ReplaceAll(text(t, admin, "time.local"), "\u202f", " ")
	assert.Contains(t, shown, stamped.In(kolkata).Format("3:04 PM"), "the viewer's own zone on the page (UTC+5:30 here)")
	assert.NotContains(t, shown, "UTC")
	a11y(t, admin)
	screenshot(t, admin, "admin")

	within(t, admin, "press Pause drafting", chromedp.Click(chromedp.ID("killswitch")), chromedp.WaitVisible(chromedp.ID("kill-confirm")))
	halted, err := st.store.Halted(t.Context())
	require.NoError(t, err)
	assert.False(t, halted, "nothing is paused before the confirmation")
	within(t, admin, "confirm", chromedp.Click(chromedp.ID("kill-confirm-yes")), chromedp.WaitVisible(chromedp.CSS("#kill-h + p.verdict-blocked")))
	assert.Equal(t, "Resume drafting", text(t, admin, "#killswitch"))
	within(t, admin, "resume drafting", chromedp.Click(chromedp.ID("killswitch")), chromedp.WaitVisible(chromedp.CSS("#kill-h + p.verdict-ok")))
}

// Without a session a page answers 401 with a sign-in link that comes back to it; an
// agent's session is refused the admin page in words, not routes; /app/ is a home page.
func TestPagesRefuseWithoutTheRightSession(t *testing.T) {
	st := newStack(t)
	ctx := testenv.Browser(t, 800, 600)
	within(t, ctx, "admin page without a session", chromedp.Navigate(st.URL+"/app/admin"), chromedp.WaitVisible(chromedp.CSS("h1")))
	assert.Equal(t, "Please sign in", text(t, ctx, "h1"))
	within(t, ctx, "follow the sign-in link", chromedp.Click(chromedp.CSS(`main a[href^="/app/login"]`)), chromedp.WaitVisible(chromedp.ID("token")))
	a11y(t, ctx)
	within(t, ctx, "sign in with the form", chromedp.SendKeys(chromedp.ID("token"), st.creds.Tokens[auth.Admin]),
		chromedp.Submit(chromedp.ID("token")), chromedp.WaitVisible(chromedp.ID("versions-h")))
	assert.Equal(t, "Admin", text(t, ctx, "h1"), "sign-in returns to the page it came from")

	agent := testenv.Browser(t, 800, 600)
	within(t, agent, "admin page as an agent", chromedp.Navigate(st.signIn(t, auth.Agent, "/app/admin")), chromedp.WaitVisible(chromedp.CSS("h1")))
	assert.Equal(t, "This page is not open to your role", text(t, agent, "h1"))
	assert.NotRegexp(t, developerWords, visibleText(t, agent), "the route and verb stay in the details toggle")
	within(t, agent, "the home page", chromedp.Navigate(st.URL+"/app/"), chromedp.WaitVisible(chromedp.ID("ticket-id")))
	a11y(t, agent)
	assert.False(t, visible(t, agent, `a[href="/app/admin"]`), "an agent is not offered the admin page")
	assert.False(t, visible(t, agent, ".nojs"), "no notice while JavaScript runs")

	noJS := testenv.Browser(t, 360, 740)
	_, err := chromedp.Call(noJS, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
	require.NoError(t, err)
	within(t, noJS, "a page with JavaScript off", chromedp.Navigate(st.signIn(t, auth.Agent, "/app/")), chromedp.WaitVisible(chromedp.CSS(".nojs")))
	assert.Contains(t, text(t, noJS, ".nojs"), "JavaScript is off")
}
