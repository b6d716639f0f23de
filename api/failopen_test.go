package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/pgtest"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

// The probe's finding: with Postgres down, the help desk's signed send-check answered 503
// ("webhook replay check failed"). Now every send-check, the help desk's and the agent's,
// answers unchecked and is counted; the replay of a delivery is still refused (from this
// process's memory); a route that needs the database answers 503, never 500.
func TestSendCheckFailsOpenForEveryCallerWhilePostgresIsDown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pg := pgtest.Start(t)
	_, err := store.Migrate(ctx, pg.URL())
	require.NoError(t, err)
	s, err := store.Open(ctx, pg.URL())
	require.NoError(t, err)
	t.Cleanup(s.Close)
	versions, err := policy.ParseDir(testenv.SampleCorpus())
	require.NoError(t, err)
	_, err = s.Import(ctx, versions, testenv.Embedder)
	require.NoError(t, err)
	st := testenv.Stack(t, s, testenv.Temporal(t), nil)
	tq := testenv.Unique("test-failopen-")
	w := st.Worker(tq, st.Activities())
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
	spool, err := api.NewSpool(t.TempDir())
	require.NoError(t, err)
	ts := serve(t, st.API(api.Config{TaskQueue: tq, CheckBudget: time.Second, IdleTimeout: time.Hour, Spool: spool}, nil))

	id := testenv.Unique("FO-")
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked, "Can I get a refund?"), nil))
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
