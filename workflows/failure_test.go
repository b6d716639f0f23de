package workflows_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/workflows"
)

// A build that fails ends in the failed status with a reason an agent may read, recorded
// where the draft is read; the workflow stays usable: rebuild from failed builds again,
// and nothing waits on the failed build.
func TestFlowFailedBuildShowsFailedAndRebuildRecovers(t *testing.T) {
	cases := []struct {
		name       string
		err        error
		wantReason string
		notReason  string
	}{
		{"a permanent model error names itself", temporal.NewNonRetryableApplicationError("draft: the model refused the request (400)", "ModelPermanent", nil),
			"The draft could not be built: draft: the model refused the request (400).", ""},
		{"an error retries could not fix keeps its text in the log",
			temporal.NewNonRetryableApplicationError("connect to postgres://app:secret@db:5432", "", errors.New("dial")),
			"a step failed after its retries (the worker log has the detail)", "secret"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFlow(t, true)
			f.generate = tc.err
			var openErr error
			var failed, recovered workflows.DraftState
			var rebuilt workflows.DraftView
			f.at(time.Second, workflows.UpdateOpen, nil, &openErr, workflows.OpenRequest{Revision: 1})
			f.env.RegisterDelayedCallback(func() {
				v, err := f.env.QueryWorkflow(workflows.QueryState)
				require.NoError(t, err)
				require.NoError(t, v.Get(&failed))
				f.generate = nil
			}, 5*time.Minute)
			f.at(6*time.Minute, workflows.UpdateRebuild, &rebuilt, nil)
			f.env.RegisterDelayedCallback(func() {
				v, err := f.env.QueryWorkflow(workflows.QueryState)
				require.NoError(t, err)
				require.NoError(t, v.Get(&recovered))
			}, 20*time.Minute)
			f.at(30*time.Minute, workflows.UpdateDiscard, nil, nil)
			f.run(time.Hour)

			var appErr *temporal.ApplicationError
			require.ErrorAs(t, openErr, &appErr)
			assert.Equal(t, workflows.ErrBuildFailed, appErr.Type(), "the open answers 502, it does not hang")
			assert.Equal(t, drafts.StatusFailed, failed.Status, "not building forever")
			assert.Contains(t, failed.Error, tc.wantReason)
			require.Len(t, f.failures, 1, "the failure is recorded where the API and the sidebar read the draft")
			assert.Equal(t, failed.Error, f.failures[0].Reason)
			assert.Equal(t, 1, f.failures[0].Revision)
			if tc.notReason != "" {
				assert.NotContains(t, failed.Error, tc.notReason)
			}
			assert.Equal(t, 1, rebuilt.Iteration, "rebuild works from failed")
			assert.Equal(t, drafts.StatusReady, recovered.Status)
			assert.Empty(t, recovered.Error)
		})
	}
}
