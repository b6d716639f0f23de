package api_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/stack"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/workflows"
)

// testAPI is a served API with a token of every role.
type testAPI struct {
	*httptest.Server
	creds *testenv.Creds
	store *store.Store
}

// serve serves srv with fresh credentials over its store.
func serve(t *testing.T, srv *api.Server) *testAPI {
	t.Helper()
	ts, creds := testenv.ServeAPI(t, srv)
	return &testAPI{Server: ts, creds: creds, store: srv.Store}
}

// serveStack serves st's API for the worker on task queue tq; cfg's check budget and idle
// timeout, when unset, are 30 seconds and an hour.
func serveStack(t *testing.T, st *stack.Stack, tq string, cfg api.Config, log *slog.Logger) *testAPI {
	t.Helper()
	cfg.TaskQueue = tq
	if cfg.CheckBudget == 0 {
		cfg.CheckBudget = 30 * time.Second
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = time.Hour
	}
	return serve(t, st.API(cfg, log))
}

// stackAPI serves the real API over a real worker on the Temporal dev server and a scratch
// store with the sample corpus. Each test has its own task queue and ticket IDs.
func stackAPI(t *testing.T) (*testAPI, *store.Store) {
	t.Helper()
	s := testenv.Store(t)
	st := testenv.Stack(t, s, testenv.Temporal(t), nil)
	return serveStack(t, st, testenv.StartWorker(t, st, "test-api-", nil), api.Config{}, nil), s
}

// unreachableTemporal is a Temporal client that can never connect, for the handlers that
// must answer before Temporal is asked or without it.
func unreachableTemporal(t *testing.T) client.Client {
	t.Helper()
	c, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1", Logger: testenv.QuietLogger()})
	require.NoError(t, err)
	return c
}

// sendChecks reads the verdicts recorded for a ticket, oldest first.
func sendChecks(t *testing.T, s *store.Store, ticketID string) []string {
	t.Helper()
	return testdb.Column[string](t, context.Background(), s.Pool(), `SELECT verdict FROM send_checks WHERE ticket_id = $1 ORDER BY id`, ticketID)
}

// call sends body as JSON with the credentials a real caller would use: the help desk's
// signed token for its webhook, an admin token for /metrics, an agent token otherwise.
func call(t *testing.T, ts *testAPI, method, path string, body any, out any) int {
	t.Helper()
	role := auth.Agent
	switch {
	case strings.HasPrefix(path, "/v1/tickets/"), strings.HasPrefix(path, "/v1/inbox/"), strings.HasSuffix(path, "/sent"):
		role = auth.Helpdesk
	case strings.HasPrefix(path, "/v1/review/"), strings.HasSuffix(path, "/approve"), strings.HasSuffix(path, "/pull"), strings.HasSuffix(path, "/kill"),
		strings.HasSuffix(path, "/override"):
		role = auth.Reviewer
	case path == "/metrics", strings.HasPrefix(path, "/v1/admin/"):
		role = auth.Admin
	}
	return callAs(t, ts, role, method, path, body, out)
}

// callAs is call with the given role's credentials.
func callAs(t *testing.T, ts *testAPI, role auth.Role, method, path string, body any, out any) int {
	t.Helper()
	var b []byte
	if s, ok := body.(string); ok {
		b = []byte(s)
	} else if body != nil {
		var err error
		b, err = json.Marshal(body)
		require.NoError(t, err)
	}
	code, raw := roundTrip(t, ts.creds.Request(t, method, ts.URL+path, role, b))
	if out != nil {
		require.NoError(t, json.Unmarshal([]byte(raw), out), "body: %s", raw)
	}
	return code
}

// roundTrip sends req and answers the status and the body.
func roundTrip(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

var asked = time.Now().UTC().Add(-time.Hour)

// refundQuestion is the customer's question most drafts here answer: the sample corpus's
// annual-refund policy backs a reply to it.
const refundQuestion = "Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge?"

func refundTicket(id string, revision int, plan string, at time.Time, body string) *ticket.Ticket {
	return testenv.Ticket(id, revision, plan, "eu", at, body)
}

// openDraft opens the draft of revision 1 of ticket id, a pro customer in the EU asking
// question, and returns its view; any answer but a 200 fails the test.
func openDraft(t *testing.T, ts *testAPI, id, question string) workflows.DraftView {
	t.Helper()
	var v workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked, question), &v))
	return v
}

func TestDraftLifecycleThroughTheAPI(t *testing.T) {
	t.Parallel()
	ts, s := stackAPI(t)
	id := testenv.Unique("IT-")

	v := openDraft(t, ts, id, "Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge, and how long does it take to reach our card?")
	assert.Equal(t, drafts.StatusReady, v.Status)
	assert.Contains(t, v.Reply, "14")
	require.NotEmpty(t, v.Claims)
	assert.Contains(t, v.Bound, drafts.BoundVersion{DocID: "billing/refunds-annual", Version: 4})

	again := openDraft(t, ts, id, "Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge, and how long does it take to reach our card?")
	assert.Equal(t, 1, again.Iteration, "a repeated start for the same revision is idempotent")

	var notified map[string]any
	require.Equal(t, http.StatusAccepted, call(t, ts, "POST", "/v1/tickets/"+id+"/revisions",
		refundTicket(id, 2, "pro", asked.Add(10*time.Minute), "Also: is VAT included in the refund?"), &notified))
	assert.Equal(t, true, notified["draft_notified"])

	var check drafts.SendCheck
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": v.Reply}, &check))
	require.Equal(t, drafts.VerdictStale, check.Verdict)
	assert.Contains(t, check.Reasons[0].Message, "customer replied at")

	var rebuilt workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/rebuild", nil, &rebuilt))
	assert.Equal(t, 2, rebuilt.Iteration)
	assert.Equal(t, 2, rebuilt.Revision)

	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": rebuilt.Reply}, &check))
	assert.Equal(t, drafts.VerdictOK, check.Verdict, "reasons: %+v", check.Reasons)

	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": "Hi [NAME], done."}, &check))
	assert.Equal(t, drafts.VerdictBlocked, check.Verdict)
	assert.Equal(t, []string{"[NAME]"}, check.Placeholders)
	assert.Equal(t, 2, check.Iteration, "a blocked verdict names the iteration it judged")
	assert.Equal(t, []string{drafts.VerdictStale, drafts.VerdictOK, drafts.VerdictBlocked}, sendChecks(t, s, id),
		"every answer the send hook got is on record")

	var history struct{ Steps []api.Step }
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+id+"/history", nil, &history))
	var names []string
	for _, s := range history.Steps {
		if s.Outcome == "completed" && (s.Kind == "activity" || s.Kind == "local activity") {
			names = append(names, s.Name)
		}
	}
	for _, step := range []string{"LoadContext", "Retrieve", "Generate", "VerifySpans", "JudgeClaims", "Guard", "Compose", "Score", "Save"} {
		assert.Contains(t, names, step)
	}
	checked := 0
	for _, s := range history.Steps {
		if s.Kind == "signal" && s.Name == workflows.SignalSendChecked {
			checked++
		}
	}
	assert.Equal(t, 1, checked, "the history holds the stale verdict, which changed the draft; the ok one is only in send_checks")

	var state map[string]any
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/discard", nil, &state))
	var after workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+id, nil, &after))
	assert.Equal(t, drafts.StatusDiscarded, after.Status)
	var e struct{ Error string }
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": rebuilt.Reply}, &e),
		"a draft whose workflow ended is not checked: %s", e.Error)
	assert.Len(t, sendChecks(t, s, id), 3, "and no verdict is recorded for it")
}

func TestBadRequestsNameTheField(t *testing.T) {
	t.Parallel()
	ts, _ := stackAPI(t)
	var e struct{ Error string }
	assert.Equal(t, http.StatusBadRequest, call(t, ts, "POST", "/v1/drafts", `{"ticket_id": "X-1", "revision": 1}`, &e))
	assert.Contains(t, e.Error, `"updated_at"`)
	assert.Equal(t, http.StatusBadRequest, call(t, ts, "POST", "/v1/drafts", `{not json`, &e))
	assert.Equal(t, http.StatusNotFound, call(t, ts, "GET", "/v1/drafts/"+testenv.Unique("nope-"), nil, &e))
	big := `{"ticket_id": "` + strings.Repeat("x", 600*1024) + `"}`
	assert.Equal(t, http.StatusRequestEntityTooLarge, call(t, ts, "POST", "/v1/drafts", big, &e))
}

// The send hook judges on Postgres alone: with Temporal unreachable, a current draft is
// still ok and a stale one still stale (a stale draft must not go out because Temporal is
// down); a draft whose run ended is a 404. Every verdict is on record.
func TestSendCheckWithoutTemporalJudgesOnPostgres(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ts := serve(t, &api.Server{Temporal: unreachableTemporal(t), Store: s, Vocab: testenv.Stack(t, s, nil, nil).Vocab, Config: api.Config{TaskQueue: "unused", CheckBudget: 200 * time.Millisecond}})
	saved := func(id string, revision int, status string) {
		require.NoError(t, s.SaveIteration(context.Background(), &drafts.Saved{TicketID: id, Iteration: 1, Revision: revision, Status: status,
			EligibleAt: asked, Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, Reply: "Hello.", ModelReply: "Hello."}, "refunds"))
	}
	current, stale, ended := testenv.Unique("T-"), testenv.Unique("T-"), testenv.Unique("T-")
	testenv.SaveTicket(t, s, refundTicket(current, 1, "pro", asked, "Can I get a refund?"))
	saved(current, 1, drafts.StatusReady)
	testenv.SaveTicket(t, s, refundTicket(stale, 1, "pro", asked, "Can I get a refund?"))
	testenv.SaveTicket(t, s, refundTicket(stale, 2, "pro", asked.Add(time.Minute), "Hello? Any news?"))
	saved(stale, 1, drafts.StatusReady)
	testenv.SaveTicket(t, s, refundTicket(ended, 1, "pro", asked, "Can I get a refund?"))
	saved(ended, 1, drafts.StatusDiscarded)

	var check drafts.SendCheck
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+current+"/send-check", map[string]string{"text": "Hello"}, &check))
	assert.Equal(t, drafts.VerdictOK, check.Verdict)
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+stale+"/send-check", map[string]string{"text": "Hello"}, &check))
	assert.Equal(t, drafts.VerdictStale, check.Verdict)
	require.NotEmpty(t, check.Reasons)
	assert.Contains(t, check.Reasons[0].Message, "customer replied at")

	var e struct{ Error string }
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/"+ended+"/send-check", map[string]string{"text": "Hello"}, &e))
	assert.Contains(t, e.Error, "was discarded")
	assert.Equal(t, http.StatusNotFound, call(t, ts, "POST", "/v1/drafts/"+testenv.Unique("T-")+"/send-check", map[string]string{"text": "Hello"}, &e),
		"a ticket the database does not know is a 404, not an unchecked send")

	assert.Equal(t, []string{drafts.VerdictOK}, sendChecks(t, s, current))
	assert.Equal(t, []string{drafts.VerdictStale}, sendChecks(t, s, stale))
	assert.Empty(t, sendChecks(t, s, ended))
	assert.NotContains(t, get(t, ts, "/metrics", auth.Admin), "supportdraft_unchecked_sends_total")
}

// get reads path as role and returns the body.
func get(t *testing.T, ts *testAPI, path string, role auth.Role) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, ts.URL+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+ts.creds.Tokens[role])
	code, raw := roundTrip(t, req)
	require.Equal(t, http.StatusOK, code, "GET %s: %s", path, raw)
	return raw
}

// The probe's finding: an agent token opened T-1001 with revision 3 and account
// enterprise/us and had the draft rebuilt for that account. Now an agent may name a stored
// ticket but not change its account or add a revision; the help desk's signed calls may.
func TestOnlyTheHelpDeskSetsAccountAndRevision(t *testing.T) {
	t.Parallel()
	ts, _ := stackAPI(t)
	id := testenv.Unique("FACTS-")
	v := openDraft(t, ts, id, "Can I get a refund?")
	require.Equal(t, "pro", v.Account.Plan)

	forged := testenv.Ticket(id, 3, "enterprise", "us", asked, "Can I get a refund?")
	var e struct{ Error string }
	assert.Equal(t, http.StatusConflict, call(t, ts, "POST", "/v1/drafts", forged, &e), "a new revision from an agent")
	assert.Contains(t, e.Error, `"revision" is 3`)
	sameRevision := testenv.Ticket(id, 1, "enterprise", "us", asked, "Can I get a refund?")
	assert.Equal(t, http.StatusConflict, call(t, ts, "POST", "/v1/drafts", sameRevision, &e), "another account from an agent")
	assert.Contains(t, e.Error, "account facts come only from the help desk")
	unknown := testenv.Ticket(testenv.Unique("FACTS-NEW-"), 3, "pro", "eu", asked, "Refund?")
	assert.Equal(t, http.StatusConflict, call(t, ts, "POST", "/v1/drafts", unknown, &e), "a first open past revision 1")

	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+id, nil, &v))
	assert.Equal(t, "pro", v.Account.Plan, "the draft is still built for the stored account")
	assert.Equal(t, 1, v.Revision)

	// The help desk's signed open is the account's source: it may move the ticket on.
	require.Equal(t, http.StatusOK, callAs(t, ts, auth.Helpdesk, "POST", "/v1/drafts", testenv.Ticket(id, 2, "team", "eu", asked, "Can I get a refund?"), &v))
	assert.Equal(t, "team", v.Account.Plan)
	assert.Equal(t, 2, v.Revision)
	// An agent naming the ticket with the help desk's facts opens the latest revision.
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts", testenv.Ticket(id, 1, "team", "eu", asked, "Can I get a refund?"), &v))
	assert.Equal(t, 2, v.Revision)
}
