package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/worker"
	"github.com/supportdraft/supportdraft/workflows"
)

// inboxAPI serves the real API over a real worker running both the intake and the draft
// workflows (local classifier, local providers) on the Temporal dev server and a scratch
// store with the sample corpus.
func inboxAPI(t *testing.T) (*testAPI, *store.Store) {
	t.Helper()
	s := testenv.Store(t)
	c := testenv.Temporal(t)
	st := testenv.Stack(t, s, c, nil)
	tq := testenv.Unique("test-inbox-")
	support, err := inbox.NewSupport([]string{"billing@company.example"})
	require.NoError(t, err)
	rules, err := inbox.ParseRules([]byte("rules:\n  - action: review\n    phrases: [lawyer]\n"))
	require.NoError(t, err)
	w := st.Worker(tq, st.Activities())
	worker.RegisterIntake(w, &activities.Intake{Store: s, Rules: rules, Support: support, Triager: inbox.Classifier{},
		StartDraft: workflows.DraftStarter(c, tq, workflows.DraftInput{IdleTimeout: time.Hour, CheckBudget: 30 * time.Second})})
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
	srv := st.API(api.Config{TaskQueue: tq, CheckBudget: 30 * time.Second, IdleTimeout: time.Hour}, nil)
	return serve(t, srv), s
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
	first := message("<"+thread+".1@customer.example>", thread, 0, "Refund for our annual plan",
		"Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge?")

	var res workflows.IntakeResult
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/inbox/messages", first, &res))
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
	var dup workflows.IntakeResult
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/inbox/messages", first, &dup))
	assert.Equal(t, inbox.DecisionSkip, dup.Decision.Decision)
	assert.Equal(t, inbox.StageDuplicate, dup.Stage)

	second := message("<"+thread+".2@customer.example>", thread, 1, "Re: Refund for our annual plan",
		"And how long does the refund take to reach our card?")
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/inbox/messages", second, &res))
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
	first := message("<"+thread+".1@customer.example>", thread, 0, "Refund for our annual plan",
		"Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge?")
	var res workflows.IntakeResult
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/inbox/messages", first, &res))
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
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/inbox/messages", second, &res))
	require.Equal(t, 2, res.Revision, "the follow-up joins the open draft")
	require.Equal(t, inbox.BucketCancellation, res.Bucket, "on its own the follow-up is a cancellation")
	require.Eventually(t, queued(2), 3*time.Minute, 250*time.Millisecond, "the draft is rebuilt for revision 2 and queued again")
	assert.Equal(t, inbox.BucketRefunds, bucket, "the thread keeps its first bucket")
}

func TestKillSwitchHaltsIntakeTheSidebarAndRebuilds(t *testing.T) {
	t.Parallel()
	ts, _ := inboxAPI(t)
	thread := testenv.Unique("th-")
	var v workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts", refundTicket(thread, 1, "pro", asked, "Can I get a refund of my annual plan?"), &v))

	var state api.KillSwitchState
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/admin/killswitch", map[string]any{"halted": true, "by": "test"}, &state))
	require.True(t, state.Halted)

	var res workflows.IntakeResult
	msg := message("<"+thread+".k@customer.example>", testenv.Unique("th-"), 0, "Refund", "Can I get a refund?")
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/inbox/messages", msg, &res))
	assert.Equal(t, inbox.StageKillSwitch, res.Stage, "intake reads the switch live")
	assert.Equal(t, http.StatusServiceUnavailable, call(t, ts, "POST", "/v1/drafts", refundTicket(testenv.Unique("T-"), 1, "pro", asked, "Refund?"), nil))
	assert.Equal(t, http.StatusConflict, call(t, ts, "POST", "/v1/drafts/"+thread+"/rebuild", nil, nil), "rebuilds are halted too")

	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/admin/killswitch", map[string]any{"halted": false}, &state))
	assert.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+thread+"/rebuild", nil, nil), "rebuilds resume once the switch is off")
	req, err := http.NewRequest("POST", ts.URL+"/v1/admin/killswitch", strings.NewReader(`{"halted": true}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+ts.creds.Tokens[auth.Agent])
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "only admins flip the switch")
}
