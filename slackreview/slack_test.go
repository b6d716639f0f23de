package slackreview_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/slackreview"
)

const secret = "8f742231b10e8888abcd99yyyzzz85a5"

// Sign builds the headers of a Slack request as Slack's documentation describes them:
// v0=hex(HMAC-SHA256(signing secret, "v0:" + timestamp + ":" + body)).
func Sign(body string, at time.Time, key string) http.Header {
	ts := strconv.FormatInt(at.Unix(), 10)
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte("v0:" + ts + ":" + body))
	h := http.Header{}
	h.Set("X-Slack-Request-Timestamp", ts)
	h.Set("X-Slack-Signature", "v0="+hex.EncodeToString(m.Sum(nil)))
	return h
}

var draft = slackreview.Draft{TicketID: "mail-0123", Iteration: 2, Subject: "Refund", Question: "Can I get a refund? <!channel> <https://evil.example|click>",
	Reply: "Annual plans can be refunded within 14 days.", Confidence: 0.82, Faithfulness: 0.9, Coverage: 0.7, Fit: 0.6, Bucket: "refunds"}

func TestVerify(t *testing.T) {
	t.Parallel()
	body := "payload=%7B%7D"
	now := time.Now()
	for _, tc := range []struct {
		name   string
		header http.Header
		body   string
		want   error
	}{
		{"signed now", Sign(body, now, secret), body, nil},
		{"signed four minutes ago", Sign(body, now.Add(-4*time.Minute), secret), body, nil},
		{"another secret", Sign(body, now, "another-secret-0000000000000000"), body, slackreview.ErrForged},
		{"body changed", Sign(body, now, secret), body + "x", slackreview.ErrForged},
		{"six minutes old", Sign(body, now.Add(-6*time.Minute), secret), body, slackreview.ErrStale},
		{"six minutes ahead", Sign(body, now.Add(6*time.Minute), secret), body, slackreview.ErrStale},
		{"unsigned", http.Header{}, body, slackreview.ErrUnsigned},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sig, err := slackreview.Verify(tc.header, []byte(tc.body), secret)
			if tc.want == nil {
				require.NoError(t, err)
				assert.Equal(t, tc.header.Get("X-Slack-Signature"), sig)
				return
			}
			assert.ErrorIs(t, err, tc.want)
		})
	}
}

// TestBlocks: the message shows the question (escaped: customer text mentions no one and
// links nowhere), the draft, the scores, and three buttons naming the draft.
func TestBlocks(t *testing.T) {
	t.Parallel()
	raw, err := json.Marshal(slackreview.Blocks(draft))
	require.NoError(t, err)
	s := string(raw)
	for _, want := range []string{"Draft to review: mail-0123 (iteration 2)", "Can I get a refund? \\u0026lt;!channel\\u0026gt;",
		"Annual plans can be refunded within 14 days.", "*Confidence* 0.82 · faithfulness 0.90 · coverage 0.70 · fit 0.60 · refunds",
		`"action_id":"approve"`, `"action_id":"pull"`, `"action_id":"kill"`, `"value":"mail-0123#2"`, `"style":"danger"`} {
		assert.Contains(t, s, want)
	}
	assert.NotContains(t, s, "<!channel>")
	long := draft
	long.Reply = strings.Repeat("ä", 5000)
	raw, err = json.Marshal(slackreview.Blocks(long))
	require.NoError(t, err)
	var blocks []struct {
		Text *struct{ Text string } `json:"text"`
	}
	require.NoError(t, json.Unmarshal(raw, &blocks))
	for _, b := range blocks {
		if b.Text != nil {
			assert.LessOrEqual(t, len(b.Text.Text), 3000, "Slack refuses longer text objects")
		}
	}
}

// TestPost runs chat.postMessage against a local server speaking Slack's Web API: the
// token as a bearer, the channel and the blocks as form fields, {"ok": true, "ts": …}
// back; Slack's error code comes back in the error.
func TestPost(t *testing.T) {
	t.Parallel()
	var got url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/chat.postMessage" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		require.NoError(t, r.ParseForm())
		got = r.PostForm
		w.Header().Set("Content-Type", "application/json")
		// Slack takes the token as a bearer header or as the "token" form field.
		if r.Header.Get("Authorization") != "Bearer xoxb-test" && r.PostForm.Get("token") != "xoxb-test" {
			_, _ = w.Write([]byte(`{"ok": false, "error": "invalid_auth"}`))
			return
		}
		if r.PostForm.Get("channel") != "C0REVIEW" {
			_, _ = w.Write([]byte(`{"ok": false, "error": "channel_not_found"}`))
			return
		}
		_, _ = w.Write([]byte(`{"ok": true, "channel": "C0REVIEW", "ts": "1733300000.000100", "message": {"text": "x"}}`))
	}))
	defer srv.Close()

	ts, err := slackreview.NewPoster("xoxb-test", "C0REVIEW", srv.URL+"/api").Post(context.Background(), draft)
	require.NoError(t, err)
	assert.Equal(t, "1733300000.000100", ts)
	assert.Contains(t, got.Get("blocks"), `"action_id":"approve"`)
	assert.Equal(t, slackreview.Fallback(draft), got.Get("text"))

	_, err = slackreview.NewPoster("xoxb-test", "C0NOPE", srv.URL+"/api").Post(context.Background(), draft)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "channel_not_found")
	assert.Contains(t, err.Error(), "C0NOPE")
	_, err = slackreview.NewPoster("xoxb-wrong", "C0REVIEW", srv.URL+"/api").Post(context.Background(), draft)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid_auth")
}

// interaction is a block_actions payload as Slack posts it when a button is clicked.
func interaction(user, action, value string) string {
	p, _ := json.Marshal(map[string]any{
		"type": "block_actions", "user": map[string]string{"id": user, "username": "ana"},
		"actions": []map[string]string{{"type": "button", "action_id": action, "block_id": "review", "value": value}},
	})
	return url.Values{"payload": {string(p)}}.Encode()
}

func TestParseAction(t *testing.T) {
	t.Parallel()
	a, err := slackreview.ParseAction([]byte(interaction("U1", "kill", "mail-0123#2")))
	require.NoError(t, err)
	assert.Equal(t, slackreview.Action{UserID: "U1", AgentID: agent.Default, Action: slackreview.ActionKill, TicketID: "mail-0123", Iteration: 2}, *a)
	a, err = slackreview.ParseAction([]byte(interaction("U1", "approve", slackreview.ButtonValue("payments", "mail-0123", 3))))
	require.NoError(t, err)
	assert.Equal(t, slackreview.Action{UserID: "U1", AgentID: "payments", Action: slackreview.ActionApprove, TicketID: "mail-0123", Iteration: 3}, *a,
		"another agent's draft names its agent in the button")
	assert.Equal(t, "mail-0123#3", slackreview.ButtonValue(agent.Default, "mail-0123", 3), "the default agent's buttons read as before agents")
	for body, want := range map[string]string{
		"":                                       `"payload" field`,
		"x=1":                                    `"payload" field`,
		"payload=%7Bnot":                         `not an interaction`,
		interaction("U1", "send", "mail-0123#2"): `action_id "send"`,
		interaction("U1", "approve", "mail-0123"): `not a ticket and iteration`,
		interaction("", "approve", "mail-0123#1"): `"user.id" is missing`,
		interaction("U1", "approve", "<x>#1"):     `"ticket_id" is "<x>"`,
		interaction("U1", "approve", "Pay/T-1#1"): `agent ID "Pay"`,
	} {
		_, err := slackreview.ParseAction([]byte(body))
		require.Error(t, err, body)
		assert.Contains(t, err.Error(), want)
	}
}

func TestReviewers(t *testing.T) {
	t.Parallel()
	r, err := slackreview.ParseReviewers("U1=ana, U2=bob:admin, U3=carl:agent")
	require.NoError(t, err)
	assert.Equal(t, slackreview.Reviewer{Name: "ana", Role: auth.Reviewer}, r["U1"])
	for _, action := range []string{slackreview.ActionApprove, slackreview.ActionPull, slackreview.ActionKill} {
		assert.True(t, r["U1"].Allowed(action))
		assert.True(t, r["U2"].Allowed(action))
		assert.False(t, r["U3"].Allowed(action), "an agent may not %s", action)
	}
	for _, bad := range []string{"U1", "U1=", "=ana", "U1=ana:boss"} {
		_, err := slackreview.ParseReviewers(bad)
		assert.Error(t, err, bad)
	}
}
