package api_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/pgtest"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/workflows"
)

// Postgres restarted during a batch of drafts and send-checks, on a private cluster (the
// shared one is never restarted: see internal/pgtest). Builds in flight ride out the
// restart on their retries and each is saved once; send-checks while it is down answer
// unchecked (the authorizer still knows the hook's token), go to the spool, and reach
// send_checks once it is back.
func TestPostgresRestartLosesNoDraftAndNoVerdict(t *testing.T) {
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

	c := testenv.Temporal(t)
	st := testenv.Stack(t, s, c, nil)
	tq := testenv.Unique("test-pgrestart-")
	w := st.Worker(tq, st.Activities())
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
	spool, err := api.NewSpool(t.TempDir())
	require.NoError(t, err)
	ts := serve(t, st.API(api.Config{TaskQueue: tq, CheckBudget: time.Second, IdleTimeout: time.Hour, Spool: spool}, nil))

	const question = "Our annual Pro plan renewed five days ago. Can we still get a refund?"
	built := []string{testenv.Unique("PGB-"), testenv.Unique("PGB-")}
	for _, id := range built {
		require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked, question), nil))
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
