package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/workflows"
)

// The probe's finding: a message skipped while the kill switch was on was then skipped as
// a duplicate when the help desk redelivered it, so it was lost. Now its redelivery after
// the switch is lifted runs the funnel; a redelivery after that is the duplicate.
func TestMessageSkippedWhileHaltedIsProcessedOnRedelivery(t *testing.T) {
	t.Parallel()
	ts, _ := inboxAPI(t)
	thread := testenv.Unique("th-")
	msg := message("<"+thread+"@customer.example>", thread, 0, "Refund for our annual plan",
		"Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge?")
	var state api.KillSwitchState
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/admin/killswitch", map[string]any{"halted": true, "by": "test"}, &state))
	var res workflows.IntakeResult
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/inbox/messages", msg, &res))
	assert.Equal(t, inbox.StageKillSwitch, res.Stage)
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/admin/killswitch", map[string]any{"halted": false, "by": "test"}, &state))

	time.Sleep(1100 * time.Millisecond) // a redelivery is signed at a later second
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/inbox/messages", msg, &res))
	assert.Equal(t, inbox.DecisionDraft, res.Decision.Decision, "processed, not a duplicate: %+v", res)

	time.Sleep(1100 * time.Millisecond)
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/inbox/messages", msg, &res))
	assert.Equal(t, inbox.StageDuplicate, res.Stage, "once processed, a redelivery is a duplicate")
}
