package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/pgtest"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/workflows"
)

// outageAPI is the real stack over a private Postgres cluster that a test may stop or
// restart (the shared one never is: see internal/pgtest), with the sample corpus, a worker,
// and the API with a one-second check budget and a spool for the verdicts given while the
// database is down.
type outageAPI struct {
	pg    *pgtest.Cluster
	store *store.Store
	c     client.Client
	tq    string
	spool *api.Spool
	ts    *testAPI
}

// newOutageAPI starts an outageAPI whose worker's task queue is named from prefix.
func newOutageAPI(t *testing.T, prefix string) *outageAPI {
	t.Helper()
	ctx := context.Background()
	pg := pgtest.Start(t)
	_, err := store.Migrate(ctx, pg.URL())
	require.NoError(t, err)
	s, err := store.Open(ctx, pg.URL())
	require.NoError(t, err)
	t.Cleanup(s.Close)
	testenv.ImportSample(t, s)
	c := testenv.Temporal(t)
	st := testenv.Stack(t, s, c, nil)
	tq := testenv.StartWorker(t, st, prefix, nil)
	spool, err := api.NewSpool(t.TempDir())
	require.NoError(t, err)
	ts := serveStack(t, st, tq, api.Config{CheckBudget: time.Second, Spool: spool}, nil)
	return &outageAPI{pg: pg, store: s, c: c, tq: tq, spool: spool, ts: ts}
}

// The probe's finding: with Postgres down, the help desk's signed send-check answered 503
// ("webhook replay check failed"). Now every send-check, the help desk's and the agent's,
// answers unchecked and is counted; the replay of a delivery is still refused (from this
// process's memory); a route that needs the database answers 503, never 500.
func TestSendCheckFailsOpenForEveryCallerWhilePostgresIsDown(t *testing.T) {
	t.Parallel()
	o := newOutageAPI(t, "test-failopen-")
	pg, ts, spool := o.pg, o.ts, o.spool

	id := testenv.Unique("FO-")
	openDraft(t, ts, id, "Can I get a refund?")
	path := "/v1/drafts/" + id + "/send-check"
	hook := func(body []byte, sig string) (int, string) {
		return ts.do(t, request{method: http.MethodPost, path: path, body: body,
			header: map[string]string{"Authorization": "Bearer " + ts.creds.Tokens[auth.Helpdesk], auth.SignatureHeader: sig}})
	}
	up := []byte(`{"text":"Hi, thanks for writing."}`)
	code, msg := hook(up, auth.Sign(ts.creds.Secret, http.MethodPost, path, up, time.Now()))
	require.Equal(t, http.StatusOK, code, "while Postgres is up: %s", msg)
	get(t, ts, "/metrics", auth.Admin) // the admin token is known too

	pg.Stop()
	t.Cleanup(pg.Start)
	down := []byte(`{"text":"Hi again, thanks for writing."}`)
	sig := auth.Sign(ts.creds.Secret, http.MethodPost, path, down, time.Now())
	code, msg = hook(down, sig)
	require.Equal(t, http.StatusOK, code, "the help desk's send-check fails open: %s", msg)
	var check drafts.SendCheck
	require.NoError(t, json.Unmarshal([]byte(msg), &check))
	assert.Equal(t, drafts.VerdictUnchecked, check.Verdict)
	code, msg = hook(down, sig)
	assert.Equal(t, http.StatusUnauthorized, code, "a replay is refused while the store is down: %s", msg)
	assert.Contains(t, msg, "already used")

	require.Equal(t, http.StatusOK, call(t, ts, "POST", path, map[string]string{"text": "Hi, thanks."}, &check), "the agent's send-check")
	assert.Equal(t, drafts.VerdictUnchecked, check.Verdict)

	var e struct{ Error string }
	assert.Equal(t, http.StatusServiceUnavailable, call(t, ts, "POST", "/v1/drafts/"+id+"/edit", map[string]string{"text": "Hello"}, &e))
	assert.Contains(t, e.Error, "try again")

	metrics := get(t, ts, "/metrics", auth.Admin)
	assert.Contains(t, metrics, `supportdraft_unchecked_sends_total{agent="billing",cause="check_failed"} 2`)
	assert.Contains(t, metrics, "supportdraft_webhook_replay_fallbacks_total 2")
	assert.Equal(t, 2, spool.Pending(), "both verdicts wait on disk for the database")
}

// With Temporal unreachable, a route that needs it answers 503 (not a 500 after a
// minute); a bad body is still a 400 first.
func TestRoutesAnswer503WhileTemporalIsDown(t *testing.T) {
	t.Parallel()
	ts, s := offlineAPI(t, api.Config{})
	id := testenv.Unique("TD-")
	var e struct{ Error string }
	assert.Equal(t, http.StatusServiceUnavailable, call(t, ts, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked, "Refund?"), &e))
	assert.Contains(t, e.Error, "try again")
	assert.NotContains(t, strings.ToLower(e.Error), "127.0.0.1", "names nothing internal")
	assert.Zero(t, ticketRows(t, s), "nothing stored for a start that cannot run")
	assert.Equal(t, http.StatusServiceUnavailable, call(t, ts, "POST", "/v1/drafts/"+id+"/rebuild", nil, &e))
	assert.Equal(t, http.StatusBadRequest, call(t, ts, "POST", "/v1/drafts", `{"ticket_id":"T/1"}`, &e), "input first")
}

// Postgres restarted during a batch of drafts and send-checks, on a private cluster (the
// shared one is never restarted: see internal/pgtest). Builds in flight ride out the
// restart on their retries and each is saved once; send-checks while it is down answer
// unchecked (the authorizer still knows the hook's token), go to the spool, and reach
// send_checks once it is back.
func TestPostgresRestartLosesNoDraftAndNoVerdict(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	o := newOutageAPI(t, "test-pgrestart-")
	pg, s, c, tq, spool, ts := o.pg, o.store, o.c, o.tq, o.spool, o.ts

	const question = "Our annual Pro plan renewed five days ago. Can we still get a refund?"
	built := []string{testenv.Unique("PGB-"), testenv.Unique("PGB-")}
	for _, id := range built {
		openDraft(t, ts, id, question)
	}
	inFlight := []string{testenv.Unique("PGF-"), testenv.Unique("PGF-"), testenv.Unique("PGF-")}
	for _, id := range inFlight {
		testenv.SaveTicket(t, s, refundTicket(id, 1, "pro", asked, question))
	}

	// The builds start as Postgres stops; it is down for about a second and a half.
	var wg sync.WaitGroup
	views := make([]*workflows.DraftView, len(inFlight))
	errs := make([]error, len(inFlight))
	for i, id := range inFlight {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := &workflows.DraftInput{TicketID: id, Revision: 1, IdleTimeout: time.Hour, CheckBudget: time.Second}
			views[i], errs[i] = workflows.Open(ctx, c, workflows.DraftWorkflowID(agent.Default, id), tq, in)
		}()
	}
	pg.Stop()
	stopped := time.Now()
	for _, id := range built {
		var check drafts.SendCheck
		require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": "Hi, thanks for writing."}, &check))
		assert.Equal(t, drafts.VerdictUnchecked, check.Verdict, "the check cannot run: the send goes ahead, visibly")
	}
	assert.Equal(t, len(built), spool.Pending(), "every unchecked verdict is on disk")
	time.Sleep(1500*time.Millisecond - time.Since(stopped))
	pg.Start()
	wg.Wait()

	for i, id := range inFlight {
		require.NoError(t, errs[i], "the build of %s rides out the restart", id)
		assert.Equal(t, 1, views[i].Iteration)
	}
	n, err := spool.Replay(ctx, s)
	require.NoError(t, err)
	assert.Equal(t, len(built), n)
	assert.Zero(t, spool.Pending())
	for _, id := range built {
		assert.Equal(t, []string{drafts.VerdictUnchecked}, sendChecks(t, s, id), "the verdict given while down is recorded")
	}
	var rows, tickets int
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT count(*), count(DISTINCT ticket_id) FROM drafts`).Scan(&rows, &tickets))
	assert.Equal(t, []int{5, 5}, []int{rows, tickets}, "every draft saved, once")
}

// A verdict spooled while the database was down reaches send_checks, with its own time,
// once the database is back; while it is down the spool keeps it.
func TestSpoolKeepsVerdictsUntilTheDatabaseIsBack(t *testing.T) {
	t.Parallel()
	s, url := testdb.New(t)
	down, err := store.Open(context.Background(), url)
	require.NoError(t, err)
	down.Close()

	spool, err := api.NewSpool(t.TempDir())
	require.NoError(t, err)
	given := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	require.NoError(t, spool.Add("T-9", drafts.SendCheck{Verdict: drafts.VerdictUnchecked, Iteration: 2}, given))

	n, err := spool.Replay(context.Background(), down)
	require.Error(t, err)
	assert.Zero(t, n)
	assert.Equal(t, 1, spool.Pending())

	n, err = spool.Replay(context.Background(), s)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Zero(t, spool.Pending())
	var verdict string
	var at time.Time
	require.NoError(t, s.Pool().QueryRow(context.Background(), `SELECT verdict, at FROM send_checks WHERE ticket_id = 'T-9'`).Scan(&verdict, &at))
	assert.Equal(t, drafts.VerdictUnchecked, verdict)
	assert.True(t, at.Equal(given))
}
