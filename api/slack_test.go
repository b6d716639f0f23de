package api_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/slackreview"
	"github.com/supportdraft/supportdraft/workflows"
)

const slackSecret = "slack-signing-secret-0123456789ab"

// slackAPI is stackAPI with the reviewers' Slack app configured: queued drafts are posted
// to slackURL (a local server speaking Slack's Web API), UREV is a reviewer, UAGENT an
// agent.
func slackAPI(t *testing.T, slackURL string) *testAPI {
	t.Helper()
	s := testenv.Store(t)
	st := testenv.Stack(t, s, testenv.Temporal(t), nil)
	acts := st.Activities()
	acts.Slack = slackreview.NewPoster("xoxb-test", "C0REVIEW", slackURL)
	tq := testenv.StartWorker(t, st, "test-slack-", acts)
	reviewers, err := slackreview.ParseReviewers("UREV=ana,UAGENT=carl:agent")
	require.NoError(t, err)
	return serveStack(t, st, tq, api.Config{NotifySlack: true,
		Slack: &api.Slack{SigningSecret: slackSecret, Reviewers: reviewers, Poster: acts.Slack}}, nil)
}

// slackRequest is a button click as Slack posts it, signed by the documented scheme:
// X-Slack-Signature = "v0=" + hex(HMAC-SHA256(secret, "v0:" + timestamp + ":" + body)).
func slackRequest(t *testing.T, ts *testAPI, user, action, ticketID string, iteration int, at time.Time, key string) *http.Request {
	t.Helper()
	payload, err := json.Marshal(map[string]any{
		"type": "block_actions", "user": map[string]string{"id": user},
		"actions": []map[string]string{{"type": "button", "action_id": action, "block_id": "review",
			"value": slackreview.ButtonValue(agent.Default, ticketID, iteration)}},
		"channel":   map[string]string{"id": "C0REVIEW"},
		"container": map[string]string{"type": "message", "message_ts": "1733300000.000100", "channel_id": "C0REVIEW"},
		"message": map[string]any{"ts": "1733300000.000100",
			"blocks": slackreview.Blocks(slackreview.Draft{TicketID: ticketID, Iteration: iteration, Question: "q", Reply: "r"})},
	})
	require.NoError(t, err)
	body := url.Values{"payload": {string(payload)}}.Encode()
	stamp := strconv.FormatInt(at.Unix(), 10)
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte("v0:" + stamp + ":" + body))
	req, err := http.NewRequest("POST", ts.URL+"/v1/slack/interactions", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Slack-Request-Timestamp", stamp)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(m.Sum(nil)))
	return req
}

// slackWebAPI is a local server speaking chat.postMessage as Slack's Web API does; it
// keeps each posted message's form.
type slackWebAPI struct {
	mu      sync.Mutex
	posted  []url.Values
	updated []url.Values // chat.update calls
}

func (s *slackWebAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.ParseForm() != nil {
		_, _ = w.Write([]byte(`{"ok": false, "error": "invalid_form_data"}`))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.URL.Path {
	case "/api/chat.postMessage":
		s.posted = append(s.posted, r.PostForm)
	case "/api/chat.update":
		s.updated = append(s.updated, r.PostForm)
	default:
		_, _ = w.Write([]byte(`{"ok": false, "error": "unknown_method"}`))
		return
	}
	_, _ = w.Write([]byte(`{"ok": true, "channel": "C0REVIEW", "ts": "1733300000.000100"}`))
}

// postedFor returns the blocks posted for a ticket's draft, or "".
func (s *slackWebAPI) postedFor(ticketID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.posted {
		if strings.Contains(f.Get("blocks"), slackreview.ButtonValue(agent.Default, ticketID, 1)) {
			return f.Get("blocks")
		}
	}
	return ""
}

// TestSlackReviewerDecisions: a queued draft is posted to the reviewers' channel with the
// question, the draft, the scores and the three buttons; a reviewer's clicks decide queued
// drafts as the API's reviewer routes do; forged, stale and replayed requests, clicks by
// someone who is not a reviewer and clicks on an outdated message are refused, and
// refusals are counted.
func TestSlackReviewerDecisions(t *testing.T) {
	t.Parallel()
	web := &slackWebAPI{}
	slackSrv := httptest.NewServer(web)
	t.Cleanup(slackSrv.Close)
	ts := slackAPI(t, slackSrv.URL+"/api/")
	kept, killed := testenv.Unique("SL-"), testenv.Unique("SL-")
	v := openDraft(t, ts, kept, refundQuestion)
	require.NotNil(t, v.Review)
	openDraft(t, ts, killed, refundQuestion)
	require.Eventually(t, func() bool { return web.postedFor(kept) != "" }, time.Minute, 50*time.Millisecond, "the queued draft is posted to Slack")
	blocks := web.postedFor(kept)
	for _, want := range []string{`"action_id":"approve"`, `"action_id":"pull"`, `"action_id":"kill"`} {
		assert.Contains(t, blocks, want)
	}
	var parsed []struct {
		Text *struct{ Text string } `json:"text"`
	}
	require.NoError(t, json.Unmarshal([]byte(blocks), &parsed))
	var texts strings.Builder
	for _, b := range parsed {
		if b.Text != nil {
			texts.WriteString(b.Text.Text + "\n")
		}
	}
	longest := ""
	for _, line := range strings.Split(v.Reply, "\n") {
		if len(line) > len(longest) {
			longest = line
		}
	}
	escape := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	assert.Contains(t, texts.String(), "renewed five days ago", "the customer's question")
	assert.Contains(t, texts.String(), escape.Replace(longest), "the draft's reply")
	now := time.Now()

	for _, tc := range []struct {
		name string
		req  *http.Request
		code int
		want string
	}{
		{"forged", slackRequest(t, ts, "UREV", "approve", kept, v.Iteration, now, "not-the-secret-000000000000000000"), http.StatusUnauthorized, "does not match"},
		{"stale", slackRequest(t, ts, "UREV", "approve", kept, v.Iteration, now.Add(-6*time.Minute), slackSecret), http.StatusUnauthorized, "more than 5 minutes"},
		{"an agent", slackRequest(t, ts, "UAGENT", "approve", kept, v.Iteration, now, slackSecret), http.StatusForbidden, "UAGENT may not approve"},
		{"a stranger", slackRequest(t, ts, "UNOBODY", "kill", kept, v.Iteration, now, slackSecret), http.StatusForbidden, "UNOBODY may not kill"},
		{"an old message", slackRequest(t, ts, "UREV", "approve", kept, v.Iteration+1, now, slackSecret), http.StatusConflict, "is queued now"},
		{"no such draft", slackRequest(t, ts, "UREV", "approve", "SL-none", 1, now, slackSecret), http.StatusNotFound, "SL-none has no draft"},
		{"a bad ticket", slackRequest(t, ts, "UREV", "approve", "<x>", 1, now, slackSecret), http.StatusBadRequest, `ticket_id`},
	} {
		code, body := roundTrip(t, tc.req)
		assert.Equal(t, tc.code, code, "%s: %s", tc.name, body)
		assert.Contains(t, body, tc.want, tc.name)
	}
	unsigned, err := http.NewRequest("POST", ts.URL+"/v1/slack/interactions", strings.NewReader("payload=%7B%7D"))
	require.NoError(t, err)
	code, _ := roundTrip(t, unsigned)
	assert.Equal(t, http.StatusUnauthorized, code)

	approve := slackRequest(t, ts, "UREV", "approve", kept, v.Iteration, now, slackSecret)
	raw := mustRead(t, approve)
	approve.Body = io.NopCloser(strings.NewReader(raw))
	replay := approve.Clone(t.Context())
	replay.Body = io.NopCloser(strings.NewReader(raw))
	code, body := roundTrip(t, approve)
	require.Equal(t, http.StatusOK, code, body)
	var entry review.Entry
	require.NoError(t, json.Unmarshal([]byte(body), &entry))
	assert.Equal(t, review.Approved, entry.State)
	assert.Equal(t, "slack:ana", entry.DecidedBy)
	web.mu.Lock()
	require.Len(t, web.updated, 1, "the clicked message is marked decided")
	upd := web.updated[0]
	web.mu.Unlock()
	assert.Equal(t, "C0REVIEW", upd.Get("channel"))
	assert.Equal(t, "1733300000.000100", upd.Get("ts"))
	assert.Contains(t, upd.Get("blocks"), "*Approved* by ana (iteration 1)")
	assert.NotContains(t, upd.Get("blocks"), `"action_id"`, "no buttons left to click")
	code, body = roundTrip(t, replay)
	assert.Equal(t, http.StatusUnauthorized, code)
	assert.Contains(t, body, "replay")

	code, body = roundTrip(t, slackRequest(t, ts, "UREV", "kill", killed, 1, now, slackSecret))
	require.Equal(t, http.StatusOK, code, body)
	var after workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+killed, nil, &after))
	assert.Equal(t, drafts.StatusKilled, after.Status)

	req, err := http.NewRequest("GET", ts.URL+"/metrics", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+ts.creds.Tokens[auth.Admin])
	_, metrics := roundTrip(t, req)
	for _, line := range []string{`reason="forged"} 1`, `reason="stale"} 1`, `reason="unsigned"} 1`, `reason="replayed"} 1`, `reason="not_a_reviewer"} 2`} {
		assert.Contains(t, metrics, "supportdraft_slack_requests_refused_total{"+line)
	}
}

// mustRead reads a request's body once (a replay needs the same bytes twice).
func mustRead(t *testing.T, r *http.Request) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	require.NoError(t, err)
	return string(b)
}
