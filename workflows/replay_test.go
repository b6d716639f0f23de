package workflows_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/worker"
	"github.com/supportdraft/supportdraft/workflows"
)

// TestReplayRecordedHistories replays the histories in testdata/histories, recorded from
// the real dev server by record.sh: lifecycle.json is one draft's whole life (open, a new
// revision, a stale send-check, an edit, a rebuild, an approval whose review window ends
// with the hand-off, an ok send-check, the sent event); intake.json is one billing
// question's way through the funnel to its draft. A change to a workflow that would break
// running ones fails here; docs/decisions/001-workflow-versioning.md says how to make it
// instead.
func TestReplayRecordedHistories(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/histories/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files, "no recorded histories in testdata/histories")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := sdkworker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(worker.DraftWorkflow(false))
			r.RegisterWorkflow(workflows.Intake)
			require.NoError(t, r.ReplayWorkflowHistoryFromJSONFile(testenv.QuietLogger(), f))
		})
	}
}
