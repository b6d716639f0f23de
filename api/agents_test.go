package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/workflows"
)

// callToken sends body as JSON with a bearer token (signed as the help desk signs when
// signed is true) and extra headers, and answers the status and the error message.
func callToken(t *testing.T, ts *testAPI, tok string, signed bool, method, path string, body any, out any, headers ...string) (int, string) {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	req, err := http.NewRequest(method, ts.URL+path, bytes.NewReader(b))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	if signed {
		req.Header.Set(auth.SignatureHeader, auth.Sign(ts.creds.Secret, req.Method, req.URL.RequestURI(), b, time.Now()))
	}
	code, raw := roundTrip(t, req)
	var e struct{ Error string }
	_ = json.Unmarshal([]byte(raw), &e)
	if out != nil && code/100 == 2 {
		require.NoError(t, json.Unmarshal([]byte(raw), out), "body: %s", raw)
	}
	return code, e.Error
}

// addAgents gives billing its address and adds the payments agent with its own.
func addAgents(t *testing.T, s *store.Store) {
	t.Helper()
	_, err := s.Pool().Exec(context.Background(), `UPDATE agents SET addresses = '{billing@company.example}' WHERE id = 'billing';
		INSERT INTO agents (id, name, addresses) VALUES ('payments', 'Payments operations', '{payments@company.example}')`)
	require.NoError(t, err)
}

// A draft opened with a payments token lives in the payments agent's workflow, whose runs
// know their agent from the propagated header (the view's workflow ID is computed inside
// it). A billing token reaches no workflow of it: edit, discard and history answer 404. A
// token acting for both must name the agent (400 naming the choices), and a name outside
// the token is refused the same way; the named agent is then the one acted for.
func TestAgentTokensReachOnlyTheirAgentsWorkflows(t *testing.T) {
	t.Parallel()
	ts, s := stackAPI(t)
	addAgents(t, s)
	payments := testenv.Token(t, s, auth.Agent, "payments")
	billing := testenv.Token(t, s, auth.Agent, agent.Default)
	both := testenv.Token(t, s, auth.Reviewer, agent.Default, "payments")
	id := testenv.Unique("AG-")

	var v workflows.DraftView
	code, msg := callToken(t, ts, payments, false, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked,
		"Our annual Pro plan renewed five days ago. Can we still get a refund?"), &v)
	require.Equal(t, http.StatusOK, code, msg)
	assert.Equal(t, "draft/payments/"+id, v.WorkflowID)

	edit := map[string]string{"text": "Hello, your refund is on its way."}
	for _, path := range []string{"/edit", "/discard"} {
		code, msg = callToken(t, ts, billing, false, "POST", "/v1/drafts/"+id+path, edit, nil)
		assert.Equal(t, http.StatusNotFound, code, "%s with a billing token: %s", path, msg)
	}
	code, msg = callToken(t, ts, billing, false, "GET", "/v1/drafts/"+id+"/history", nil, nil)
	assert.Equal(t, http.StatusNotFound, code, "history with a billing token: %s", msg)
	// The draft's rows are the payments agent's: row-level security, not a filter in the
	// handler, makes them absent for a billing token.
	code, msg = callToken(t, ts, billing, false, "GET", "/v1/drafts/"+id, nil, nil)
	assert.Equal(t, http.StatusNotFound, code, "read with a billing token: %s", msg)
	code, msg = callToken(t, ts, billing, false, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": v.Reply}, nil)
	assert.Equal(t, http.StatusNotFound, code, "send-check with a billing token: %s", msg)
	code, msg = callToken(t, ts, payments, false, "GET", "/v1/drafts/"+id, nil, nil)
	assert.Equal(t, http.StatusOK, code, "read with the payments token: %s", msg)
	code, msg = callToken(t, ts, payments, false, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": v.Reply}, nil)
	assert.Equal(t, http.StatusOK, code, "send-check with the payments token: %s", msg)
	assert.Contains(t, get(t, ts, "/metrics", auth.Admin), `supportdraft_send_checks_total{agent="payments",verdict=`, "metrics name the agent")

	code, msg = callToken(t, ts, both, false, "POST", "/v1/drafts/"+id+"/edit", edit, nil)
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, msg, "billing, payments")
	code, msg = callToken(t, ts, payments, false, "POST", "/v1/drafts/"+id+"/edit?agent=billing", edit, nil)
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, msg, `agent "billing" is not one this token acts for: choose one of payments`)
	code, msg = callToken(t, ts, both, false, "POST", "/v1/drafts/"+id+"/edit?agent=billing", edit, nil, auth.AgentHeader, "payments")
	assert.Equal(t, http.StatusBadRequest, code, "query and header disagree: %s", msg)

	code, msg = callToken(t, ts, both, false, "POST", "/v1/drafts/"+id+"/edit?agent=billing", edit, nil)
	assert.Equal(t, http.StatusNotFound, code, "named billing: %s", msg)
	code, msg = callToken(t, ts, both, false, "POST", "/v1/drafts/"+id+"/edit", edit, nil, auth.AgentHeader, "payments")
	assert.Equal(t, http.StatusOK, code, "named payments: %s", msg)
	code, msg = callToken(t, ts, payments, false, "POST", "/v1/drafts/"+id+"/edit", edit, nil)
	assert.Equal(t, http.StatusOK, code, "the payments token: %s", msg)

	// The help desk names a non-default agent in the signed URL, never in a header the
	// signature does not cover.
	hook := testenv.Token(t, s, auth.Helpdesk, agent.Default, "payments")
	rev := refundTicket(id, 2, "pro", asked.Add(time.Minute), "Also: is VAT included?")
	code, msg = callToken(t, ts, hook, true, "POST", "/v1/tickets/"+id+"/revisions", rev, nil, auth.AgentHeader, "payments")
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, msg, "?agent=ID")
	var notified map[string]any
	code, msg = callToken(t, ts, hook, true, "POST", "/v1/tickets/"+id+"/revisions?agent=payments", rev, &notified)
	require.Equal(t, http.StatusAccepted, code, msg)
	assert.Equal(t, true, notified["draft_notified"], "the revision reached draft/payments/%s", id)
}

// A message to each agent's address is routed to its agent: its intake workflow and the
// draft workflow it starts carry the agent in their IDs (the draft's started by an
// activity, so under the agent the intake workflow propagated). A message to no agent's
// address goes to the default agent. A help-desk token that does not act for the agent
// a message is addressed to is refused (403 naming the agent).
func TestInboundMailIsRoutedByRecipient(t *testing.T) {
	t.Parallel()
	ts, s := inboxAPI(t)
	addAgents(t, s)
	c := testenv.Temporal(t)
	hook := testenv.Token(t, s, auth.Helpdesk, agent.Default, "payments")
	ctx := context.Background()

	exists := func(workflowID string) bool {
		_, err := c.DescribeWorkflowExecution(ctx, workflowID, "")
		return err == nil
	}
	for _, tc := range []struct {
		to, agent string
	}{
		{"Payments <payments@company.example>", "payments"},
		{"billing@company.example", agent.Default},
		{"someone@elsewhere.example", agent.Default},
	} {
		thread := testenv.Unique("rt-")
		m := message("<"+thread+".1@customer.example>", thread, 0, "Refund for our annual plan", refundQuestion)
		m.To = []string{tc.to}
		var res workflows.IntakeResult
		code, msg := callToken(t, ts, hook, true, "POST", "/v1/inbox/messages", m, &res)
		require.Equal(t, http.StatusOK, code, msg)
		require.NotEqual(t, inbox.DecisionSkip, res.Decision.Decision, "to %s: %+v", tc.to, res)
		assert.True(t, exists(workflows.IntakeWorkflowID("", tc.agent, m.MessageID)), "to %s: the intake runs for %s", tc.to, tc.agent)
		assert.True(t, exists(workflows.DraftWorkflowID(tc.agent, thread)), "to %s: the draft runs for %s", tc.to, tc.agent)
		other := map[string]string{agent.Default: "payments", "payments": agent.Default}[tc.agent]
		assert.False(t, exists(workflows.DraftWorkflowID(other, thread)), "to %s: no draft for %s", tc.to, other)
	}

	billingHook := testenv.Token(t, s, auth.Helpdesk, agent.Default)
	thread := testenv.Unique("rt-")
	m := message("<"+thread+".1@customer.example>", thread, 0, "Payout missing", "Our payout did not arrive.")
	m.To = []string{"payments@company.example"}
	code, msg := callToken(t, ts, billingHook, true, "POST", "/v1/inbox/messages", m, nil)
	assert.Equal(t, http.StatusForbidden, code)
	assert.Contains(t, msg, "agent payments")
}

// A reviewer whose token names several agents gets a choice of agent on the review page
// and each queued draft's agent beside it, an admin of several the same choice on the admin
// page; one with a single agent gets neither. The
// queue's JSON names each entry's agent.
func TestReviewPageNamesTheAgentsOfAMultiAgentReviewer(t *testing.T) {
	t.Parallel()
	ts, s := stackAPI(t)
	addAgents(t, s)
	// The payments agent's own review window (its agent file's review_delay).
	_, err := s.Pool().Exec(context.Background(), `UPDATE agents SET settings = '{"review_delay": "37m"}' WHERE id = 'payments'`)
	require.NoError(t, err)
	id, paid := testenv.Unique("RA-"), testenv.Unique("RP-")
	openDraft(t, ts, id, "Our annual Pro plan renewed five days ago. Can we still get a refund?")
	code, msg := callToken(t, ts, testenv.Token(t, s, auth.Agent, "payments"), false, "POST", "/v1/drafts", refundTicket(paid, 1, "pro", asked,
		"When will the payout for last week reach our bank account?"), nil)
	require.Equal(t, http.StatusOK, code, msg)

	both := testenv.Token(t, s, auth.Reviewer, agent.Default, "payments")
	page := func(tok, path string) string {
		req, err := http.NewRequest("GET", ts.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+tok)
		code, b := roundTrip(t, req)
		require.Equal(t, http.StatusOK, code, b)
		return b
	}
	html := page(both, "/app/review?ticket="+id)
	assert.Contains(t, html, `<nav class="tabs agents" aria-label="Agents">`)
	assert.Contains(t, html, `<a href="/app/review?agent=payments">payments</a>`)
	assert.Contains(t, html, `<td class="agent">billing</td>`)
	assert.Contains(t, html, `data-agent="billing"`, "the open draft names its agent for the page's calls")
	assert.NotContains(t, html, `<meta name="agent"`, "a page acting for two agents names none")

	html = page(ts.creds.Tokens[auth.Reviewer], "/app/review?ticket="+id)
	assert.NotContains(t, html, `aria-label="Agents"`)
	assert.NotContains(t, html, `<td class="agent">`)
	assert.Contains(t, html, `<meta name="agent" content="billing">`)

	html = page(both, "/app/review?agent=billing")
	assert.Contains(t, html, `<a href="/app/review?agent=billing" aria-current="page">billing</a>`)
	assert.Contains(t, html, `<meta name="agent" content="billing">`, "the chosen agent is the page's")

	admins := testenv.Token(t, s, auth.Admin, agent.Default, "payments")
	html = page(admins, "/app/admin?agent=payments")
	assert.Contains(t, html, `<a href="/app/admin?agent=payments" aria-current="page">payments</a>`, "the admin page offers the same choice")
	assert.NotContains(t, page(ts.creds.Tokens[auth.Admin], "/app/admin"), `aria-label="Agents"`)

	var q struct {
		Queue []struct {
			TicketID    string    `json:"ticket_id"`
			AgentID     string    `json:"agent_id"`
			QueuedAt    time.Time `json:"queued_at"`
			ReviewUntil time.Time `json:"review_until"`
		}
	}
	queued := func(tok string) map[string]string {
		code, msg := callToken(t, ts, tok, false, "GET", "/v1/review/queue", nil, &q)
		require.Equal(t, http.StatusOK, code, msg)
		agents := map[string]string{}
		for _, it := range q.Queue {
			agents[it.TicketID] = it.AgentID
			if it.TicketID == paid {
				assert.Equal(t, 37*time.Minute, it.ReviewUntil.Sub(it.QueuedAt).Round(time.Minute), "the payments agent's review window")
			}
		}
		return agents
	}
	all := queued(both)
	assert.Equal(t, agent.Default, all[id], "ticket %s is queued under billing", id)
	assert.Equal(t, "payments", all[paid], "ticket %s is queued under payments", paid)
	mine := queued(ts.creds.Tokens[auth.Reviewer])
	assert.Contains(t, mine, id)
	assert.NotContains(t, mine, paid, "a billing reviewer never sees the payments agent's queue")
}

// A browser session carries the agents of the token it was opened with, and acts for
// those its token still names: narrowing the token narrows its live sessions, and a
// session left with none of them is signed out.
func TestSessionsActForTheirTokensAgents(t *testing.T) {
	t.Parallel()
	ts := authAPI(t)
	ctx := context.Background()
	tok := testenv.Token(t, ts.store, auth.Reviewer, agent.Default, "payments")
	u, err := url.Parse(ts.URL)
	require.NoError(t, err)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{"token": {tok}, "next": {"/app/review"}}
	req, err := http.NewRequest(http.MethodPost, ts.URL+"/app/session", strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://"+u.Host)
	resp, err := noRedirect.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == auth.SessionCookie {
			cookie = c
		}
	}
	require.NotNil(t, cookie)
	sess, err := ts.creds.Authorizer.Sessions.Decode(cookie.Value, time.Now())
	require.NoError(t, err)
	assert.Equal(t, []string{agent.Default, "payments"}, sess.Agents)

	review := func() (int, string) {
		req, err := http.NewRequest(http.MethodGet, ts.URL+"/app/review", nil)
		require.NoError(t, err)
		req.AddCookie(cookie)
		return roundTrip(t, req)
	}
	code, html := review()
	require.Equal(t, http.StatusOK, code, html)
	assert.Contains(t, html, `aria-label="Agents"`)
	assert.NotContains(t, html, `<meta name="agent"`)

	_, err = ts.store.Pool().Exec(ctx, `UPDATE api_tokens SET agents = '{payments,ops}' WHERE hash = $1`, auth.HashToken(tok))
	require.NoError(t, err)
	code, html = review()
	require.Equal(t, http.StatusOK, code, html)
	assert.Contains(t, html, `<meta name="agent" content="payments">`, "the session acts for payments alone now")
	assert.NotContains(t, html, `aria-label="Agents"`)

	_, err = ts.store.Pool().Exec(ctx, `UPDATE api_tokens SET agents = '{ops}' WHERE hash = $1`, auth.HashToken(tok))
	require.NoError(t, err)
	code, html = review()
	assert.Equal(t, http.StatusUnauthorized, code, html)
}

// Raw mail is routed like the JSON webhook: mail to the payments address runs under the
// payments agent (its triage is still the billing one: per-agent buckets are the agent's
// settings), and the payments agent's own mail coming back is a loop, although the
// server's configured own addresses are billing's alone; billing's stays one too.
func TestRawMailIsRoutedAndLoopCheckedByItsAgent(t *testing.T) {
	t.Parallel()
	ts, _ := rawMailAPI(t)
	addAgents(t, ts.store)
	c := testenv.Temporal(t)
	hook := testenv.Token(t, ts.store, auth.Helpdesk, agent.Default, "payments")
	run := testenv.Unique("rawagent")
	post := func(from, to string, n int) workflows.IntakeResult {
		raw := "From: " + from + "\r\nTo: " + to + "\r\nSubject: Refund for our annual plan\r\nMessage-ID: <" + run + "-" + strconv.Itoa(n) +
			"@customer.example>\r\n\r\nOur annual Pro plan renewed five days ago. Can we still get a refund of the annual charge?"
		var res workflows.IntakeResult
		code, b := postRawAs(t, ts, hook, []byte(raw), "message/rfc822", &res)
		require.Equal(t, http.StatusOK, code, b)
		return res
	}

	res := post("ana@customer.example", "payments@company.example", 1)
	assert.NotEqual(t, inbox.DecisionSkip, res.Decision.Decision, "%+v", res)
	_, err := c.DescribeWorkflowExecution(context.Background(), workflows.IntakeWorkflowID("", "payments", res.MessageID), "")
	assert.NoError(t, err, "the intake of %s runs for payments", res.MessageID)

	for i, from := range []string{"payments@company.example", "billing@company.example"} {
		res = post(from, "payments@company.example", i+2)
		assert.Equal(t, inbox.DecisionSkip, res.Decision.Decision, "from %s: %+v", from, res)
		assert.Contains(t, res.Reason, "mail loop", "from %s", from)
	}
}
