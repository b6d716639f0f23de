package api_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/integrations/zendesk"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/ticket"
)

// zafStandIn plays the Apps framework client inside the sidebar frame: get, invoke and
// on over postMessage to the help-desk page, which plays Zendesk's side. A ticket.save
// handler's rejection cancels the save with its message, as the framework documents.
const zafStandIn = `window.ZAFClient = { init: function () {
  var pending = {}, handlers = {}, seq = 0;
  window.addEventListener('message', function (e) {
    var m = e.data;
    if (m.kind === 'reply') { var p = pending[m.id]; delete pending[m.id]; p(m.result); }
    if (m.kind === 'event') {
      var h = handlers[m.name] || function () { return true; };
      Promise.resolve().then(h).then(function (r) {
        e.source.postMessage({ kind: 'hook', id: m.id, ok: r !== false }, '*');
      }, function (err) {
        e.source.postMessage({ kind: 'hook', id: m.id, ok: false, message: String(err) }, '*');
      });
    }
  });
  function call(op, args) {
    return new Promise(function (resolve) { var id = ++seq; pending[id] = resolve; window.parent.postMessage({ kind: 'call', id: id, op: op, args: args }, '*'); });
  }
  return { get: function (p) { return call('get', [p]); }, invoke: function (n, a) { return call('invoke', [n, a]); }, on: function (n, f) { handlers[n] = f; } };
} };`

// helpDeskPage is a ticket page of a help desk: a reply box, a submit button that fires
// ticket.save in the app, and the app's frame, loaded as Zendesk loads a signed URL (a
// form POST of the JWT into the frame, origin and app_guid in the query).
// jsQuote is s as a JavaScript string literal.
func jsQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func helpDeskPage(sidebar, origin, token string, zendeskTicket int64) string {
	return `<!doctype html><html lang="en"><head><title>Ticket</title></head><body>
<textarea id="reply-box" aria-label="reply"></textarea><button id="save">Submit</button><p id="save-result"></p>
<iframe name="app" id="app" width="360" height="420" title="supportdraft"></iframe>
<form id="load" method="POST" target="app" action="` + sidebar + `?origin=` + origin + `&app_guid=g-1"><input type="hidden" name="token" value="` + token + `"></form>
<script>
var frame = document.getElementById('app'), box = document.getElementById('reply-box'), seq = 0;
frame.addEventListener('load', function () { document.body.dataset.loads = String(Number(document.body.dataset.loads || 0) + 1); });
window.addEventListener('message', function (e) {
  var m = e.data;
  document.body.dataset.framed = 'yes';
  if (m.kind === 'call') {
    var r = {};
    if (m.op === 'get' && m.args[0] === 'ticket.id') r = { 'ticket.id': ` + fmt.Sprint(zendeskTicket) + ` };
    if (m.op === 'get' && m.args[0] === 'comment.text') r = { 'comment.text': box.value };
    if (m.op === 'invoke' && m.args[0] === 'comment.appendText') box.value += m.args[1];
    e.source.postMessage({ kind: 'reply', id: m.id, result: r }, '*');
  }
  if (m.kind === 'hook') document.getElementById('save-result').textContent = m.ok ? 'saved' : 'cancelled: ' + m.message;
});
document.getElementById('save').addEventListener('click', function () {
  document.getElementById('save-result').textContent = '';
  frame.contentWindow.postMessage({ kind: 'event', name: 'ticket.save', id: ++seq }, '*');
});
document.getElementById('load').submit();
</script></body></html>`
}

// Done-when of the Zendesk app, in chromium: a help-desk page on another origin frames the
// sidebar through the signed-URL flow (JWT verified, session opened), the agent inserts
// the draft into the reply box, a save with the current draft goes through, and once the
// customer writes again the save is cancelled with the reason. A page on an origin that
// SUPPORTDRAFT_FRAME_ANCESTORS does not name cannot frame the sidebar.
func TestZendeskSidebarFramedInABrowser(t *testing.T) {
	t.Parallel()
	ts, _, srv := zendeskAPI(t, nil)
	z := srv.Config.Zendesk
	n := time.Now().UnixNano()%1_000_000_000 + 7
	body := event(t, "event_ticket_created.json", n)
	at := time.Now().UTC().Format(time.RFC3339)
	code, answer := deliver(t, ts, body, zendesk.Sign(zendeskSecret, at, body), at)
	require.Equal(t, http.StatusOK, code, answer)

	// The help desk's pages: one allowed to frame the sidebar, one not. Both are on
	// 127.0.0.1 like the API (other ports, so other origins of the same site: the
	// session cookie works over plain HTTP as it does over HTTPS with SameSite=None).
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	aud := "https://acme.zendesk.com/api/v2/apps/installations/360001.json"
	token := func() string {
		s, err := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{"iss": "acme.zendesk.com", "aud": aud, "sub": "235323",
			"exp": time.Now().Add(5 * time.Minute).Unix()}).SignedString(key)
		require.NoError(t, err)
		return s
	}
	helpDesk := func() *httptest.Server {
		var srv *httptest.Server
		srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/zaf_sdk.js" {
				w.Header().Set("Content-Type", "text/javascript")
				_, _ = w.Write([]byte(zafStandIn))
				return
			}
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(helpDeskPage(ts.URL+zendesk.SidebarPath, srv.URL, token(), n)))
		}))
		t.Cleanup(srv.Close)
		return srv
	}
	allowed, refused := helpDesk(), helpDesk()
	z.App = &zendesk.AppVerifier{Key: &key.PublicKey, Issuer: "acme.zendesk.com", Audience: aud}
	z.AppToken = ts.creds.Tokens[auth.Agent]
	srv.Config.FrameAncestors = []string{allowed.URL}
	z.SDKURL = allowed.URL + "/zaf_sdk.js"

	ctx := testenv.Browser(t, 1000, 700)
	step := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		c, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		require.NoError(t, chromedp.Do(c, steps...), what)
	}
	saveResult := func(what string) string {
		t.Helper()
		step("submit the ticket: "+what, chromedp.Click(chromedp.CSS("#save")),
			chromedp.Poll[chromedp.Void](`document.getElementById('save-result').textContent !== ''`))
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		s, err := chromedp.Run(c, chromedp.Evaluate[string](`document.getElementById('save-result').textContent`))
		require.NoError(t, err)
		return s
	}

	step("open the ticket in the help desk; the sidebar loads its draft",
		chromedp.Navigate(allowed.URL+"/ticket"),
		chromedp.Poll[chromedp.Void](`document.body.dataset.framed === 'yes'`))
	c, cancelQ := context.WithTimeout(ctx, 30*time.Second)
	frames, err := chromedp.Run(c, chromedp.Nodes(chromedp.CSS("#app")))
	cancelQ()
	require.NoError(t, err)
	require.Len(t, frames, 1)
	in := chromedp.FromNode(frames[0])
	step("the draft is shown", chromedp.WaitEnabled(chromedp.CSS("#insert"), in))
	step("insert the draft into the reply box", chromedp.Click(chromedp.CSS("#insert"), in),
		chromedp.Poll[chromedp.Void](`document.getElementById('reply-box').value.length > 20`))
	c, cancelQ = context.WithTimeout(ctx, 10*time.Second)
	inserted, err := chromedp.Run(c, chromedp.Evaluate[string](`document.getElementById('reply-box').value`))
	cancelQ()
	require.NoError(t, err)
	var v struct{ Reply string }
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+zendesk.TicketID(n), nil, &v))
	assert.Equal(t, v.Reply, inserted, "the reply box holds the draft")

	assert.Equal(t, "saved", saveResult("the current draft"), "an ok verdict lets the save through")
	c, cancelQ = context.WithTimeout(ctx, 10*time.Second)
	checked, err := chromedp.Run(c, chromedp.Text(chromedp.CSS("#check"), in))
	cancelQ()
	require.NoError(t, err)
	assert.Equal(t, "Checked: current policy backs this reply.", checked, "the sidebar says why the save went through")
	if dir := os.Getenv("SUPPORTDRAFT_SCREENSHOTS"); dir != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "zendesk-sidebar.png"), png, 0o644))
	}

	// The agent adds a promise no policy backs: the save is cancelled with the sentence;
	// once the agent records a reason in the sidebar, the same text goes through.
	promise := " You can get a full refund within 60 days of renewal."
	step("add an unbacked promise", chromedp.Evaluate[chromedp.Void](`document.getElementById('reply-box').value += `+jsQuote(promise)))
	got := saveResult("an unsupported promise")
	assert.True(t, strings.HasPrefix(got, "cancelled: Not backed by current policy"), got)
	assert.Contains(t, got, "60 days")
	step("record a reason to send anyway",
		chromedp.WaitVisible(chromedp.CSS("#override-reason"), in),
		chromedp.SendKeys(chromedp.CSS("#override-reason"), "Approved by the billing lead for this customer", in),
		chromedp.Click(chromedp.CSS("#override button"), in),
		chromedp.WaitNotVisible(chromedp.CSS("#override-reason"), in))
	assert.Equal(t, "saved", saveResult("the same text with a recorded reason"))

	// The customer writes again: the draft is stale and the save is cancelled with why.
	th, err := z.Client.Thread(context.Background(), n)
	require.NoError(t, err)
	next, err := zendesk.Map(th, z.Fields)
	require.NoError(t, err)
	next.Revision++
	next.UpdatedAt = time.Now().UTC().Truncate(time.Second)
	next.Messages = append(next.Messages, ticket.Message{Author: "customer", At: next.UpdatedAt, Body: "Also, we moved to the Business plan yesterday."})
	require.Equal(t, http.StatusAccepted, call(t, ts, "POST", "/v1/tickets/"+next.TicketID+"/revisions", next, nil))
	got = saveResult("a stale draft")
	assert.True(t, strings.HasPrefix(got, "cancelled: The draft is out of date"), got)

	// A help-desk page SUPPORTDRAFT_FRAME_ANCESTORS does not name gets no sidebar: the
	// frame loads (an error page) and the app inside it never speaks.
	step("open the ticket on a page that may not frame the sidebar",
		chromedp.Navigate(refused.URL+"/ticket"),
		chromedp.Poll[chromedp.Void](`Number(document.body.dataset.loads || 0) >= 1`),
		chromedp.Sleep(2*time.Second))
	c, cancelQ = context.WithTimeout(ctx, 10*time.Second)
	framed, err := chromedp.Run(c, chromedp.Evaluate[string](`document.body.dataset.framed || 'no'`))
	cancelQ()
	require.NoError(t, err)
	assert.Equal(t, "no", framed, "CSP frame-ancestors refuses the frame")
}
