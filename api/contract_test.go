package api_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
)

// The probe's inputs on the routes that skipped the contract (the inbox, the kill switch,
// /sent): each is refused with a 400 naming the field or the fault, and nothing is written.
func TestEveryRouteHoldsTheInputContract(t *testing.T) {
	t.Parallel()
	ts, s := offlineAPI(t, api.Config{})
	msg := `{"message_id":"<m-1@c.example>","thread_id":"th-1","received_at":"2026-11-02T09:14:00Z","from":{"email":"ana@c.example"},"to":["billing@x.example"],"subject":"Refund","body":"Can I get a refund?","thread":{"agent_replied":false,"earlier_messages":0}}`
	with := func(old, new string) string { return strings.Replace(msg, old, new, 1) }
	account := func(plan string) string {
		return with(`"body":`, `"account":{"plan":"`+plan+`","region":"eu"},"body":`)
	}
	sent := `{"text":"Refunds within 14 days.","sent_at":"2026-11-02T09:40:00Z","agent":"sam"}`
	cases := []struct{ name, path, body, want string }{
		{"inbox: unknown field", "/v1/inbox/messages", with(`"subject"`, `"priority":"high","subject"`), `"priority": unknown field`},
		{"inbox: repeated key", "/v1/inbox/messages", with(`"subject":"Refund"`, `"subject":"Refund","subject":"x"`), "duplicate key"},
		{"inbox: trailing data", "/v1/inbox/messages", msg + ` {}`, "after the JSON value"},
		{"inbox: thread th/1", "/v1/inbox/messages", with(`"th-1"`, `"th/1"`), `"thread_id"`},
		{"inbox: thread with a newline", "/v1/inbox/messages", with(`"th-1"`, `"th\n1"`), `"thread_id"`},
		{"inbox: thread with é", "/v1/inbox/messages", with(`"th-1"`, `"thé1"`), `"thread_id"`},
		{"inbox: message ID with NUL", "/v1/inbox/messages", with(`"<m-1@c.example>"`, `"<m\u00001@c.example>"`), `"message_id"`},
		{"inbox: message ID with a newline", "/v1/inbox/messages", with(`"<m-1@c.example>"`, `"<m\n1@c.example>"`), `"message_id"`},
		{"inbox: message ID with é", "/v1/inbox/messages", with(`"<m-1@c.example>"`, `"<mé@c.example>"`), `"message_id"`},
		{"inbox: plan *", "/v1/inbox/messages", account("*"), `"account.plan"`},
		{"inbox: plan of 5,000 characters", "/v1/inbox/messages", account(strings.Repeat("p", 5000)), `"account.plan"`},
		{"inbox: long subject", "/v1/inbox/messages", with(`"subject":"Refund"`, `"subject":"`+strings.Repeat("s", 2000)+`"`), `"subject"`},
		{"kill switch: unknown field", "/v1/admin/killswitch", `{"halted":true,"by":"ops","why":"x"}`, `"why": unknown field`},
		{"kill switch: repeated key", "/v1/admin/killswitch", `{"halted":true,"halted":false}`, "duplicate key"},
		{"kill switch: trailing data", "/v1/admin/killswitch", `{"halted":true} {"halted":false}`, "after the JSON value"},
		{"kill switch: no halted", "/v1/admin/killswitch", `{"by":"ops"}`, `"halted" is required`},
		{"sent: repeated agent", "/v1/drafts/T-1/sent", strings.Replace(sent, `"agent":"sam"`, `"agent":"sam","agent":"eve"`, 1), `"agent": duplicate key`},
		{"sent: unknown field", "/v1/drafts/T-1/sent", strings.Replace(sent, `"agent"`, `"blocked":false,"agent"`, 1), `"blocked": unknown field`},
		{"sent: trailing data", "/v1/drafts/T-1/sent", sent + `x`, "after the JSON value"},
		{"sent: NUL in agent", "/v1/drafts/T-1/sent", strings.Replace(sent, `"sam"`, `"s\u0000m"`, 1), `"agent"`},
		{"deep brackets", "/v1/drafts", `{"ticket_id":"T-1","x":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`, "nested more than 16 levels"},
	}
	for _, c := range cases {
		var e struct{ Error string }
		assert.Equal(t, http.StatusBadRequest, call(t, ts, "POST", c.path, c.body, &e), c.name)
		assert.Contains(t, e.Error, c.want, c.name)
	}
	var rows int
	require.NoError(t, s.Pool().QueryRow(context.Background(), `SELECT (SELECT count(*) FROM inbox_messages) + (SELECT count(*) FROM funnel_events) + (SELECT count(*) FROM ticket_revisions)`).Scan(&rows))
	assert.Zero(t, rows, "no refused request leaves a row")
	halted, err := s.Halted(context.Background())
	require.NoError(t, err)
	assert.False(t, halted, "no refused body turned the kill switch")
}

// The documented limit is the real one: 256 KiB is accepted up to the contract, a byte
// more is 413, declared or streamed; a body a megabyte deep in brackets is refused at the
// seventeenth bracket, streamed without a length.
func TestBodyLimitIs256KiB(t *testing.T) {
	t.Parallel()
	ts, _ := offlineAPI(t, api.Config{})
	post := func(body io.Reader, length int64) (int, string) {
		req, err := http.NewRequest("POST", ts.URL+"/v1/drafts", body)
		require.NoError(t, err)
		req.ContentLength = length // -1: chunked, no declared length
		req.Header.Set("Authorization", "Bearer "+ts.creds.Tokens[auth.Agent])
		req.Header.Set("Content-Type", "application/json")
		return roundTrip(t, req)
	}
	pad := func(n int) string { return `{"ticket_id":"` + strings.Repeat("x", n-len(`{"ticket_id":""}`)) + `"}` }
	code, msg := post(strings.NewReader(pad(256<<10)), 256<<10)
	assert.Equal(t, http.StatusBadRequest, code, "256 KiB passes the limit and meets the ticket contract: %s", msg)
	assert.Contains(t, msg, "ticket_id")
	code, _ = post(strings.NewReader(pad(256<<10+1)), 256<<10+1)
	assert.Equal(t, http.StatusRequestEntityTooLarge, code, "declared")
	code, _ = post(io.MultiReader(strings.NewReader(pad(256<<10+1))), -1)
	assert.Equal(t, http.StatusRequestEntityTooLarge, code, "streamed")
	deep := `{"ticket_id":"T-1","x":` + strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20) + `}`
	code, msg = post(io.MultiReader(strings.NewReader(deep)), -1)
	assert.Equal(t, http.StatusBadRequest, code, msg)
	assert.Contains(t, msg, "nested more than 16 levels")
}
