package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/helpdesk"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/workflows"
)

// inboxAPI serves the real API over a real worker running both the intake and the draft
// workflows (local classifier, local providers) on the Temporal dev server and a scratch
// store with the sample corpus; mail that names a lawyer goes to review.
func inboxAPI(t *testing.T) (*testAPI, *store.Store) {
	t.Helper()
	rules, err := inbox.ParseRules([]byte("rules:\n  - action: review\n    phrases: [lawyer]\n"))
	require.NoError(t, err)
	return funnelAPI(t, rules, api.Config{}, nil)
}

// funnelAPI is the stack under inboxAPI and rawMailAPI: billing@company.example is our
// support address, and the intake follows rules.
func funnelAPI(t *testing.T, rules *inbox.Rules, cfg api.Config, log *slog.Logger) (*testAPI, *store.Store) {
	t.Helper()
	s := testenv.Store(t)
	st := testenv.Stack(t, s, testenv.Temporal(t), nil)
	tq := testenv.StartFunnelWorker(t, st, "test-inbox-", &activities.Intake{Store: s, Rules: rules, Support: ownAddress(t), Triager: inbox.Classifier{}})
	return serveStack(t, st, tq, cfg, log), s
}

// ownAddress is our support address, billing@company.example.
func ownAddress(t *testing.T) *inbox.Support {
	t.Helper()
	support, err := inbox.NewSupport([]string{"billing@company.example"})
	require.NoError(t, err)
	return support
}

// postMessage delivers m as the help desk's webhook does and returns what the funnel
// decided; any answer but a 200 fails the test.
func postMessage(t *testing.T, ts *testAPI, m *inbox.Message) workflows.IntakeResult {
	t.Helper()
	var res workflows.IntakeResult
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/inbox/messages", m, &res))
	return res
}

// setHalted turns the kill switch on or off as an admin and returns its state.
func setHalted(t *testing.T, ts *testAPI, halted bool) api.KillSwitchState {
	t.Helper()
	var state api.KillSwitchState
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/admin/killswitch", map[string]any{"halted": halted, "by": "test"}, &state))
	return state
}

func message(id, thread string, earlier int, subject, body string) *inbox.Message {
	return &inbox.Message{MessageID: id, ThreadID: thread, ReceivedAt: asked, Subject: subject, Body: body,
		From: inbox.Address{Email: "ana@customer.example", Name: "Ana"}, To: []string{"billing@company.example"},
		Thread:  inbox.Thread{EarlierMessages: earlier},
		Account: &ticket.Account{ID: "A-77", Plan: "pro", Region: "eu", Locale: "en"}}
}

// TestWebhookToDraft follows one customer thread from the help desk's webhook to a built
// draft: the first message starts the ticket's draft workflow, a redelivery is a
// duplicate, a second message before any reply joins the draft as revision 2, and every
// step is in funnel_events.
func TestWebhookToDraft(t *testing.T) {
	t.Parallel()
	ts, s := inboxAPI(t)
	ctx := context.Background()
	thread := testenv.Unique("th-")
	first := message("<"+thread+".1@customer.example>", thread, 0, "Refund for our annual plan", refundQuestion)

	res := postMessage(t, ts, first)
	assert.Equal(t, inbox.DecisionDraft, res.Decision.Decision)
	assert.Equal(t, inbox.BucketRefunds, res.Bucket)
	assert.Equal(t, thread, res.TicketID, "the thread is the ticket")
	assert.Equal(t, 1, res.Revision)

	var v workflows.DraftView
	require.Eventually(t, func() bool {
		return call(t, ts, "GET", "/v1/drafts/"+thread, nil, &v) == http.StatusOK
	}, 3*time.Minute, 250*time.Millisecond, "the draft is built after the webhook answered")
	assert.Equal(t, 1, v.Revision)
	assert.NotEmpty(t, v.Reply)

	// The help desk signs a redelivery anew; a second later its signature differs, so the
	// webhook's replay guard lets it through and the funnel sees the duplicate.
	time.Sleep(1100 * time.Millisecond)
	dup := postMessage(t, ts, first)
	assert.Equal(t, inbox.DecisionSkip, dup.Decision.Decision)
	assert.Equal(t, inbox.StageDuplicate, dup.Stage)

	second := message("<"+thread+".2@customer.example>", thread, 1, "Re: Refund for our annual plan",
		"And how long does the refund take to reach our card?")
	res = postMessage(t, ts, second)
	assert.Equal(t, inbox.DecisionDraft, res.Decision.Decision)
	assert.Equal(t, 2, res.Revision, "a follow-up before any reply is the next revision")
	tk, err := s.Ticket(ctx, thread, 2)
	require.NoError(t, err)
	assert.Len(t, tk.Messages, 2, "all the questions of the thread stay in the ticket")
	require.Eventually(t, func() bool {
		return call(t, ts, "GET", "/v1/drafts/"+thread, nil, &v) == http.StatusOK && v.Revision == 2
	}, 3*time.Minute, 250*time.Millisecond, "the open draft is rebuilt for revision 2")

	events, err := s.FunnelEvents(ctx, first.MessageID)
	require.NoError(t, err)
	var steps []string
	for _, e := range events {
		steps = append(steps, e.Step+"/"+e.Outcome)
	}
	assert.Equal(t, []string{"kill_switch/pass", "first_response/pass", "filters/pass", "recipients/pass", "triage/pass", "draft/started", "duplicate/skip"}, steps)
}

// TestFollowUpKeepsTheThreadsFirstBucket: a customer's follow-up joins the open draft as
// a new revision, and the draft keeps the bucket the thread's first message was triaged
// into, even when the follow-up on its own triages into another one.
func TestFollowUpKeepsTheThreadsFirstBucket(t *testing.T) {
	t.Parallel()
	ts, _ := inboxAPI(t)
	thread := testenv.Unique("th-")
	first := message("<"+thread+".1@customer.example>", thread, 0, "Refund for our annual plan", refundQuestion)
	res := postMessage(t, ts, first)
	require.Equal(t, inbox.BucketRefunds, res.Bucket)
	var bucket string
	queued := func(iteration int) func() bool {
		return func() bool {
			var queue struct {
				Queue []review.Item `json:"queue"`
			}
			if call(t, ts, "GET", "/v1/review/queue", nil, &queue) != http.StatusOK {
				return false
			}
			for _, it := range queue.Queue {
				if it.TicketID == thread && it.Iteration >= iteration {
					bucket = it.Bucket
					return true
				}
			}
			return false
		}
	}
	require.Eventually(t, queued(1), 3*time.Minute, 250*time.Millisecond, "the first draft is built and queued")
	assert.Equal(t, inbox.BucketRefunds, bucket)

	second := message("<"+thread+".2@customer.example>", thread, 1, "Cancel instead",
		"Actually, please just cancel our subscription so it does not renew next year.")
	res = postMessage(t, ts, second)
	require.Equal(t, 2, res.Revision, "the follow-up joins the open draft")
	require.Equal(t, inbox.BucketCancellation, res.Bucket, "on its own the follow-up is a cancellation")
	require.Eventually(t, queued(2), 3*time.Minute, 250*time.Millisecond, "the draft is rebuilt for revision 2 and queued again")
	assert.Equal(t, inbox.BucketRefunds, bucket, "the thread keeps its first bucket")
}

func TestKillSwitchHaltsIntakeTheSidebarAndRebuilds(t *testing.T) {
	t.Parallel()
	ts, _ := inboxAPI(t)
	thread := testenv.Unique("th-")
	openDraft(t, ts, thread, "Can I get a refund of my annual plan?")

	state := setHalted(t, ts, true)
	require.True(t, state.Halted)

	msg := message("<"+thread+".k@customer.example>", testenv.Unique("th-"), 0, "Refund", "Can I get a refund?")
	res := postMessage(t, ts, msg)
	assert.Equal(t, inbox.StageKillSwitch, res.Stage, "intake reads the switch live")
	assert.Equal(t, http.StatusServiceUnavailable, call(t, ts, "POST", "/v1/drafts", refundTicket(testenv.Unique("T-"), 1, "pro", asked, "Refund?"), nil))
	assert.Equal(t, http.StatusConflict, call(t, ts, "POST", "/v1/drafts/"+thread+"/rebuild", nil, nil), "rebuilds are halted too")

	setHalted(t, ts, false)
	assert.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+thread+"/rebuild", nil, nil), "rebuilds resume once the switch is off")
	assert.Equal(t, http.StatusForbidden, callAs(t, ts, auth.Agent, "POST", "/v1/admin/killswitch", `{"halted": true}`, nil),
		"only admins flip the switch")
}

// Mail from our own support address, or carrying X-Loop, is a loop: skipped as
// automated, never drafted.
func TestMailLoopsAreSkipped(t *testing.T) {
	t.Parallel()
	ts, _ := inboxAPI(t)
	own := testenv.Unique("th-own-")
	fromUs := message("<"+own+"@company.example>", own, 0, "Re: Refund", "Can we still get a refund of the annual charge?")
	fromUs.From = inbox.Address{Email: "Billing+eu@company.example", Name: "Billing"}
	looped := testenv.Unique("th-loop-")
	withLoop := message("<"+looped+"@customer.example>", looped, 0, "Refund", "Can we still get a refund of the annual charge?")
	withLoop.Headers = map[string]string{"X-Loop": "helpdesk@company.example"}
	for _, m := range []*inbox.Message{fromUs, withLoop} {
		res := postMessage(t, ts, m)
		assert.Equal(t, inbox.DecisionSkip, res.Decision.Decision, m.ThreadID)
		assert.Equal(t, inbox.StageAutomated, res.Stage, m.ThreadID)
		assert.Contains(t, res.Decision.Reason, "loop", m.ThreadID)
		assert.Equal(t, http.StatusNotFound, call(t, ts, "GET", "/v1/drafts/"+m.ThreadID, nil, nil), "no draft for %s", m.ThreadID)
	}
}

// The probe's finding: a message skipped while the kill switch was on was then skipped as
// a duplicate when the help desk redelivered it, so it was lost. Now its redelivery after
// the switch is lifted runs the funnel; a redelivery after that is the duplicate.
func TestMessageSkippedWhileHaltedIsProcessedOnRedelivery(t *testing.T) {
	t.Parallel()
	ts, _ := inboxAPI(t)
	thread := testenv.Unique("th-")
	msg := message("<"+thread+"@customer.example>", thread, 0, "Refund for our annual plan", refundQuestion)
	setHalted(t, ts, true)
	res := postMessage(t, ts, msg)
	assert.Equal(t, inbox.StageKillSwitch, res.Stage)
	setHalted(t, ts, false)

	time.Sleep(1100 * time.Millisecond) // a redelivery is signed at a later second
	res = postMessage(t, ts, msg)
	assert.Equal(t, inbox.DecisionDraft, res.Decision.Decision, "processed, not a duplicate: %+v", res)

	time.Sleep(1100 * time.Millisecond)
	res = postMessage(t, ts, msg)
	assert.Equal(t, inbox.StageDuplicate, res.Stage, "once processed, a redelivery is a duplicate")
}

// The probe's finding: an approved draft was handed off while the kill switch was on. Now
// the hand-off waits through its retries; when the switch stays on past them, the draft
// returns to the review queue, waiting, with the reason, and the run goes on (not failed).
// Once the switch is lifted, a reviewer's new approval hands it off.
func TestHandOffHeldByTheKillSwitchReturnsTheDraftToTheQueue(t *testing.T) {
	t.Parallel()
	var delivered atomic.Int32
	desk := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		delivered.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(desk.Close)
	s := testenv.Store(t)
	c := testenv.Temporal(t)
	st := testenv.Stack(t, s, c, nil)
	acts := st.Activities()
	acts.HelpDesk = helpdesk.New(desk.URL, "0123456789abcdef0123456789abcdef")
	tq := testenv.StartWorker(t, st, "test-halted-", acts)
	ts := serveStack(t, st, tq, api.Config{}, nil)

	ctx := context.Background()
	id := testenv.Unique("KS-")
	testenv.SaveTicket(t, s, refundTicket(id, 1, "pro", asked, refundQuestion))
	_, err := workflows.Open(ctx, c, workflows.DraftWorkflowID(agent.Default, id), tq, &workflows.DraftInput{TicketID: id, Revision: 1,
		IdleTimeout: time.Hour, CheckBudget: 30 * time.Second, ReviewDelay: 2 * time.Second, HandOffAttempts: 2})
	require.NoError(t, err)
	require.NoError(t, s.SetHalted(ctx, true, "ops"))
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/approve", nil, nil))

	entry := func() (state, why string) {
		require.NoError(t, s.Pool().QueryRow(ctx, `SELECT state, handoff_error FROM review_queue WHERE ticket_id = $1`, id).Scan(&state, &why))
		return state, why
	}
	require.Eventually(t, func() bool {
		state, why := entry()
		return state == review.Waiting && strings.Contains(why, "kill switch")
	}, 30*time.Second, 100*time.Millisecond, "back in the queue with the reason")
	assert.Zero(t, delivered.Load(), "nothing reached the help desk while halted")
	var view workflows.DraftState
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+id, nil, &view))
	assert.Equal(t, drafts.StatusReady, view.Status, "the run goes on: not failed, not ended")
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": "Hi"}, nil),
		"the draft can still be checked and sent by hand")

	require.NoError(t, s.SetHalted(ctx, false, "ops"))
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/approve", nil, nil))
	require.Eventually(t, func() bool { state, _ := entry(); return state == review.HandedOff }, 30*time.Second, 100*time.Millisecond)
	assert.EqualValues(t, 1, delivered.Load())
	_, why := entry()
	assert.Empty(t, why)
}

// rawMailAPI is inboxAPI with billing@company.example as our own address and the server's
// log kept, to check that no customer text reaches it.
func rawMailAPI(t *testing.T) (*testAPI, *testenv.LogBuffer) {
	t.Helper()
	logs := &testenv.LogBuffer{}
	ts, _ := funnelAPI(t, &inbox.Rules{}, api.Config{OwnAddresses: ownAddress(t)},
		slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	return ts, logs
}

var fixtureID = regexp.MustCompile(`<([a-z0-9-]+)@`)

// fixture reads a mail of package email's testdata with its message IDs made unique to
// run: workflow IDs are shared by every test run on the dev server.
func fixture(t *testing.T, name, run string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "email", "testdata", name))
	require.NoError(t, err)
	return fixtureID.ReplaceAll(raw, []byte("<"+run+"-$1@"))
}

// postRaw posts a raw mail signed as the help desk signs its webhooks.
func postRaw(t *testing.T, ts *testAPI, raw []byte, contentType string, out any) (int, string) {
	t.Helper()
	return postRawAs(t, ts, ts.creds.Tokens[auth.Helpdesk], raw, contentType, out)
}

// postRawAs is postRaw with the help-desk token tok, which may act for other agents.
func postRawAs(t *testing.T, ts *testAPI, tok string, raw []byte, contentType string, out any) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", ts.URL+"/v1/inbox/raw", bytes.NewReader(raw))
	require.NoError(t, err)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set(auth.SignatureHeader, auth.Sign(ts.creds.Secret, "POST", "/v1/inbox/raw", raw, time.Now()))
	code, body := roundTrip(t, req)
	if out != nil && code == http.StatusOK {
		require.NoError(t, json.Unmarshal([]byte(body), out), "body: %s", body)
	}
	return code, body
}

// TestRawMailThroughTheFunnel follows raw mail from an inbound-parse service: a first
// mail opens a ticket named for its thread, a reply that references it joins the same
// ticket as revision 2, a reply to that reply (In-Reply-To only) still finds the thread in
// the store, an auto-reply and our own mail coming back are skipped, a redelivery is a
// duplicate; nothing the customer wrote reaches the server's log.
func TestRawMailThroughTheFunnel(t *testing.T) {
	t.Parallel()
	ts, logs := rawMailAPI(t)
	run := testenv.Unique("raw")
	ctx := context.Background()

	var first workflows.IntakeResult
	code, body := postRaw(t, ts, fixture(t, "plain.eml", run), "message/rfc822", &first)
	require.Equal(t, http.StatusOK, code, body)
	assert.Equal(t, inbox.DecisionDraft, first.Decision.Decision)
	assert.Equal(t, inbox.BucketRefunds, first.Bucket)
	assert.Regexp(t, `^mail-[0-9a-f]{20}$`, first.TicketID)
	assert.Equal(t, 1, first.Revision)

	var reply workflows.IntakeResult
	code, body = postRaw(t, ts, fixture(t, "reply.eml", run), "message/rfc822", &reply)
	require.Equal(t, http.StatusOK, code, body)
	assert.Equal(t, first.TicketID, reply.TicketID, "the reply joins the thread's ticket")
	assert.Equal(t, 2, reply.Revision)

	third := "From: ana@customer.example\r\nTo: billing@company.example\r\nSubject: Re: Re: Refund\r\n" +
		"Message-ID: <" + run + "-plain-4@customer.example>\r\nIn-Reply-To: <" + run + "-plain-3@customer.example>\r\n\r\n" +
		"Also, can the refund go to a different card?"
	var res workflows.IntakeResult
	code, body = postRaw(t, ts, []byte(third), "message/rfc822", &res)
	require.Equal(t, http.StatusOK, code, body)
	assert.Equal(t, first.TicketID, res.TicketID, "In-Reply-To names a stored message: its thread is found in the store")
	assert.Equal(t, 3, res.Revision)
	tk, err := ts.store.Ticket(ctx, first.TicketID, 3)
	require.NoError(t, err)
	require.Len(t, tk.Messages, 3)
	assert.Equal(t, "Refund for my annual plan", tk.Subject)

	code, body = postRaw(t, ts, fixture(t, "autoreply.eml", run), "message/rfc822", &res)
	require.Equal(t, http.StatusOK, code, body)
	assert.Equal(t, inbox.DecisionSkip, res.Decision.Decision)
	assert.Equal(t, inbox.StageAutomated, res.Stage)

	loop := "From: Billing <billing@company.example>\r\nTo: billing@company.example\r\nSubject: Re: your refund\r\n" +
		"Message-ID: <" + run + "-loop@company.example>\r\n\r\nWe have refunded you."
	code, body = postRaw(t, ts, []byte(loop), "message/rfc822", &res)
	require.Equal(t, http.StatusOK, code, body)
	assert.Equal(t, inbox.DecisionSkip, res.Decision.Decision)
	assert.Contains(t, res.Reason, "mail loop")
	events, err := ts.store.FunnelEvents(ctx, "<"+run+"-loop@company.example>")
	require.NoError(t, err)
	require.Len(t, events, 1, "the loop is recorded")
	assert.Equal(t, inbox.StepFilters+"/"+inbox.OutcomeSkip, events[0].Step+"/"+events[0].Outcome)

	time.Sleep(1100 * time.Millisecond) // a fresh signature for the redelivery
	code, body = postRaw(t, ts, fixture(t, "plain.eml", run), "message/rfc822", &res)
	require.Equal(t, http.StatusOK, code, body)
	assert.Equal(t, inbox.StageDuplicate, res.Stage)

	for _, words := range []string{"renewed five days ago", "different card", "out of the office", "We have refunded you", "Ana Lima"} {
		assert.NotContains(t, logs.String(), words, "customer text in the server log")
	}
}

// TestRawMailRefusals: bad input is a 4xx that names what is wrong, and is never logged.
func TestRawMailRefusals(t *testing.T) {
	t.Parallel()
	ts, logs := rawMailAPI(t)
	secret := "Confidential-refund-words"
	for _, tc := range []struct {
		name, raw, contentType string
		code                   int
		want                   string
	}{
		{"json", `{"message_id": "x"}`, "application/json", http.StatusUnsupportedMediaType, "Content-Type message/rfc822"},
		{"no from", "To: billing@company.example\r\nSubject: " + secret + "\r\n\r\n" + secret, "message/rfc822", http.StatusBadRequest, `header \"From\" is missing`},
		{"not mail", "\r\n" + secret, "message/rfc822", http.StatusBadRequest, "no header lines"},
		{"too big", "From: a@b.example\r\n\r\n" + strings.Repeat(secret, 600_000/len(secret)), "message/rfc822", http.StatusRequestEntityTooLarge, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := postRaw(t, ts, []byte(tc.raw), tc.contentType, nil)
			assert.Equal(t, tc.code, code, body)
			assert.Contains(t, body, tc.want)
			assert.NotContains(t, body, secret)
		})
	}
	code, _ := ts.do(t, request{method: "POST", path: "/v1/inbox/raw", body: []byte("From: a@b.example\r\n\r\nhi"),
		header: map[string]string{"Content-Type": "message/rfc822", "Authorization": "Bearer " + ts.creds.Tokens[auth.Helpdesk]}})
	assert.Equal(t, http.StatusUnauthorized, code, "an unsigned delivery is refused like the JSON webhook's")
	assert.NotContains(t, logs.String(), secret)
}
