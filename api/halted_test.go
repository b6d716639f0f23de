package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/helpdesk"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/review"
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

// The probe's finding: an approved draft was handed off while the kill switch was on. Now
// the hand-off waits through its retries; when the switch stays on past them, the draft
// returns to the review queue, waiting, with the reason, and the run goes on (not failed).
// Once the switch is lifted, a reviewer's new approval hands it off.
func TestHandOffHeldByTheKillSwitchReturnsTheDraftToTheQueue(t *testing.T) {
	t.Parallel()
	var delivered atomic.Int32
	desk := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		delivered.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(desk.Close)
	s := testenv.Store(t)
	c := testenv.Temporal(t)
	st := testenv.Stack(t, s, c, nil)
	acts := st.Activities()
	acts.HelpDesk = helpdesk.New(desk.URL, "0123456789abcdef0123456789abcdef")
	tq := testenv.Unique("test-halted-")
	w := st.Worker(tq, acts)
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
	ts := serve(t, st.API(api.Config{TaskQueue: tq, CheckBudget: 30 * time.Second, IdleTimeout: time.Hour}, nil))

	ctx := context.Background()
	id := testenv.Unique("KS-")
	testenv.SaveTicket(t, s, refundTicket(id, 1, "pro", asked, "Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge?"))
	_, err := workflows.Open(ctx, c, workflows.DraftWorkflowID(agent.Default, id), tq, &workflows.DraftInput{TicketID: id, Revision: 1,
		IdleTimeout: time.Hour, CheckBudget: 30 * time.Second, ReviewDelay: 2 * time.Second, HandOffAttempts: 2})
	require.NoError(t, err)
	require.NoError(t, s.SetHalted(ctx, true, "ops"))
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/approve", nil, nil))

	entry := func() (state, why string) {
		require.NoError(t, s.Pool().QueryRow(ctx, `SELECT state, handoff_error FROM review_queue WHERE ticket_id = $1`, id).Scan(&state, &why))
		return state, why
	}
	require.Eventually(t, func() bool {
		state, why := entry()
		return state == review.Waiting && strings.Contains(why, "kill switch")
	}, 30*time.Second, 100*time.Millisecond, "back in the queue with the reason")
	assert.Zero(t, delivered.Load(), "nothing reached the help desk while halted")
	var view workflows.DraftState
	require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+id, nil, &view))
	assert.Equal(t, drafts.StatusReady, view.Status, "the run goes on: not failed, not ended")
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/send-check", map[string]string{"text": "Hi"}, nil),
		"the draft can still be checked and sent by hand")

	require.NoError(t, s.SetHalted(ctx, false, "ops"))
	require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/approve", nil, nil))
	require.Eventually(t, func() bool { state, _ := entry(); return state == review.HandedOff }, 30*time.Second, 100*time.Millisecond)
	assert.EqualValues(t, 1, delivered.Load())
	_, why := entry()
	assert.Empty(t, why)
}
