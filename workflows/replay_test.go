package workflows_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/worker"
)

// TestReplayRecordedHistories replays histories recorded from the real dev server, each
// through the code path its version markers choose:
//   - lifecycle.json, lifecycle-worker-records-send-checks.json (the worker recorded each
//     send-check) and lifecycle-model-steps-as-activities.json (generate, judge and score
//     as regular activities), recorded before the handlers took the lock: draft, new
//     revision, stale send-check, edit, rebuild, ok send-check, discard; they replay
//     through legacy.go.
//   - lifecycle-review.json: the same, then approve, the review window's end and the sent
//     event, through the current code, with the agent's words in its update arguments.
//   - lifecycle-text-by-ref.json: the same with texts by reference and iteration numbers
//     from state (LastIteration once per run).
//   - lifecycle-send-checked.json: the same with the send-checks as the API sends them,
//     send-checked signals with the verdict.
//   - lifecycle-iteration-at-save.json: the same with iterations numbered at Save, under a
//     build key, no LastIteration.
//   - lifecycle-generation-1.json: the same, started with Generation 1 in its input: no
//     version markers and no search-attribute upserts (see generation.go).
//
// A change to the workflow that would break running drafts fails here; guard it with
// workflow.GetVersion (or, for a hot path, a new Generation). Record a new one with
// record.sh NAME.
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
