package workflows_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/worker"
)

// jsonRoundTrip copies an update result into out the way a client would decode it.
func jsonRoundTrip(in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// realWorker starts a worker with the local providers on a task queue of its own, on the
// real dev server, over a scratch store; it stops when the test ends.
func realWorker(t *testing.T, queuePrefix string) (s *store.Store, c client.Client, taskQueue string) {
	t.Helper()
	s, _ = testdb.New(t)
	c = testenv.Temporal(t)
	taskQueue = testenv.Unique(queuePrefix)
	w := worker.New(c, taskQueue, testenv.Activities(t, s, nil), true)
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
	return s, c, taskQueue
}
