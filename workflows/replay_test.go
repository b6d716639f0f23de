package workflows_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/worker"
)

// TestReplayRecordedHistories replays histories recorded from the real dev server. The
// three lifecycle*.json recorded before the handlers took the lock (draft, new revision,
// stale send-check, edit, rebuild, ok send-check, discard) replay through legacy.go;
// lifecycle-review.json (the same, then approve, the review window's end and the sent
// event) through the current code, with the agent's words in its update arguments;
// lifecycle-text-by-ref.json the same with texts by reference and iteration numbers from
// state. A change to the workflow that would break running drafts fails here; guard it
// with workflow.GetVersion. Record a new one with record.sh NAME.
func TestReplayRecordedHistories(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/histories/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files, "no recorded histories in testdata/histories")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := sdkworker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(worker.DraftWorkflow(false))
			require.NoError(t, r.ReplayWorkflowHistoryFromJSONFile(testenv.QuietLogger(), f))
		})
	}
}
