package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
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
	"github.com/supportdraft/supportdraft/worker"
	"github.com/supportdraft/supportdraft/workflows"
)

// rawMailAPI is inboxAPI with billing@company.example as our own address and the server's
// log kept, to check that no customer text reaches it.
func rawMailAPI(t *testing.T) (*testAPI, *testenv.LogBuffer) {
	t.Helper()
	s := testenv.Store(t)
	c := testenv.Temporal(t)
	st := testenv.Stack(t, s, c, nil)
	tq := testenv.Unique("test-raw-")
	support, err := inbox.NewSupport([]string{"billing@company.example"})
	require.NoError(t, err)
	w := st.Worker(tq, st.Activities())
	worker.RegisterIntake(w, &activities.Intake{Store: s, Rules: &inbox.Rules{}, Support: support, Triager: inbox.Classifier{},
		StartDraft: workflows.DraftStarter(c, tq, workflows.DraftInput{IdleTimeout: time.Hour, CheckBudget: 30 * time.Second})})
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
	logs := &testenv.LogBuffer{}
	srv := st.API(api.Config{TaskQueue: tq, CheckBudget: 30 * time.Second, IdleTimeout: time.Hour, OwnAddresses: support},
		slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	return serve(t, srv), logs
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
	req, err := http.NewRequest("POST", ts.URL+"/v1/inbox/raw", bytes.NewReader(raw))
	require.NoError(t, err)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+ts.creds.Tokens[auth.Helpdesk])
	req.Header.Set(auth.SignatureHeader, auth.Sign(ts.creds.Secret, "POST", "/v1/inbox/raw", raw, time.Now()))
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if out != nil && resp.StatusCode == http.StatusOK {
		require.NoError(t, json.Unmarshal(body, out), "body: %s", body)
	}
	return resp.StatusCode, string(body)
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
	req, err := http.NewRequest("POST", ts.URL+"/v1/inbox/raw", strings.NewReader("From: a@b.example\r\n\r\nhi"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "message/rfc822")
	req.Header.Set("Authorization", "Bearer "+ts.creds.Tokens[auth.Helpdesk])
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "an unsigned delivery is refused like the JSON webhook's")
	assert.NotContains(t, logs.String(), secret)
}
