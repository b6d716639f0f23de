package api_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/local"
	"github.com/supportdraft/supportdraft/workflows"
)

// flakyWriter fails while down is set, then writes as the local writer does.
type flakyWriter struct{ down atomic.Bool }

func (d *flakyWriter) Write(ctx context.Context, req llm.Request) (*llm.Answer, error) {
	if d.down.Load() {
		return nil, errors.New("the model is overloaded")
	}
	return local.Extractive{}.Write(ctx, req)
}

// On the real stack a build that fails shows as failed, with its reason, in the API view
// and the sidebar, and a rebuild from failed drafts the ticket: nothing hangs in building.
func TestFailedBuildIsVisibleAndRebuildRecovers(t *testing.T) {
	t.Parallel()
	drafter := &flakyWriter{}
	drafter.down.Store(true)
	s := testenv.Store(t)
	st := testenv.Stack(t, s, testenv.Temporal(t), drafter)
	tq := testenv.Unique("test-failed-")
	w := st.Worker(tq, st.Activities())
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
	ts := serve(t, st.API(api.Config{TaskQueue: tq, CheckBudget: 30 * time.Second, IdleTimeout: time.Hour}, nil))
	id := testenv.Unique("FAIL-")

	assert.Equal(t, http.StatusBadGateway, call(t, ts, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked, "Can I get a refund for my annual plan?"), nil))
	var failed workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+id, nil, &failed))
	assert.Equal(t, drafts.StatusFailed, failed.Status)
	assert.Contains(t, failed.BuildError, "the model is overloaded")
	page := get(t, ts, "/app/tickets/"+id, auth.Agent)
	assert.Contains(t, page, "The draft could not be written")
	assert.Contains(t, page, "the model is overloaded", "the reason, under the page's details toggle")

	drafter.down.Store(false)
	var rebuilt workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/rebuild", nil, &rebuilt))
	assert.Equal(t, 1, rebuilt.Iteration)
	var now workflows.DraftView
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+id, nil, &now))
	assert.Contains(t, []string{drafts.StatusReady, drafts.StatusAbstained}, now.Status)
	assert.Empty(t, now.BuildError)
}
