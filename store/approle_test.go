package store_test

import (
	"context"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/workflows"
)

// The probe's finding: the worker exited under the app role ("must be owner of table
// chunks") because its start-up re-embed check created the vector index, even when the
// index existed. Now the owner's import builds it; the worker's check runs no DDL, and a
// worker on the app role drafts. A change of embedder still needs the owner, and says so.
func TestWorkerStartsAndDraftsUnderTheAppRole(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	appURL := os.Getenv("TEST_APP_DATABASE_URL")
	require.NotEmpty(t, appURL, "TEST_APP_DATABASE_URL is not set: scripts/services.sh creates the app role and sets it")
	app, err := url.Parse(appURL)
	require.NoError(t, err)
	owner, scratchURL := testdb.New(t)
	scratch, err := url.Parse(scratchURL)
	require.NoError(t, err)
	versions, err := policy.ParseDir(testenv.SampleCorpus())
	require.NoError(t, err)
	_, err = owner.Import(ctx, versions, testenv.Embedder)
	require.NoError(t, err)
	require.NoError(t, store.GrantApp(ctx, scratchURL, app.User.Username()))
	q := app.Query()
	q.Set("search_path", scratch.Query().Get("search_path"))
	app.RawQuery = q.Encode()
	s, err := store.Open(ctx, app.String())
	require.NoError(t, err)
	t.Cleanup(s.Close)

	n, err := s.Reembed(ctx, testenv.Embedder, nil)
	require.NoError(t, err, "the worker's start-up check under the app role")
	assert.Zero(t, n)
	_, err = s.Reembed(ctx, embedding.NewHashing(64), nil)
	require.Error(t, err, "a new embedder needs DDL")
	assert.Contains(t, err.Error(), "supportdraft policy reembed")

	c := testenv.Temporal(t)
	st := testenv.Stack(t, s, c, nil)
	tq := testenv.Unique("test-approle-")
	w := st.Worker(tq, st.Activities())
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
	id := testenv.Unique("ROLE-")
	testenv.SaveTicket(t, s, testenv.Ticket(id, 1, "pro", "eu", time.Now().Add(-time.Hour), "Can I get a refund of my annual plan?"))
	v, err := workflows.Open(ctx, c, workflows.DraftWorkflowID(agent.Default, id), tq, &workflows.DraftInput{TicketID: id, Revision: 1, IdleTimeout: time.Hour, CheckBudget: time.Second})
	require.NoError(t, err)
	assert.NotEqual(t, drafts.StatusFailed, v.Status, "drafted under the app role")
	assert.Equal(t, 1, v.Iteration)
}
