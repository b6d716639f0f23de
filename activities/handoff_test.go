package activities_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/helpdesk"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/slackreview"
	"github.com/supportdraft/supportdraft/store"
)

const secret = "0123456789abcdef0123456789abcdef"

// helpDesk is an httptest help desk: it verifies each delivery's signature as a help desk
// would and answers with the next status of its script (200 once the script is used up).
type helpDesk struct {
	mu       sync.Mutex
	statuses []int
	got      []delivery
}

type delivery struct {
	verifyErr error
	idemKey   string
	body      helpdesk.DraftReply
}

func (h *helpDesk) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	_, verr := auth.Verify([]byte(secret), r.Method, r.URL.RequestURI(), body, r.Header.Get(auth.SignatureHeader), time.Now())
	var d helpdesk.DraftReply
	_ = json.Unmarshal(body, &d)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.got = append(h.got, delivery{verifyErr: verr, idemKey: r.Header.Get("Idempotency-Key"), body: d})
	status := http.StatusOK
	if len(h.statuses) > 0 {
		status, h.statuses = h.statuses[0], h.statuses[1:]
	}
	w.WriteHeader(status)
}

// serve runs h as a local help desk until the test ends and returns its URL.
func (h *helpDesk) serve(t *testing.T) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// activityEnv registers acts in Temporal's test activity environment, which runs an
// activity with the context a worker gives it.
func activityEnv(acts *activities.Activities) *testsuite.TestActivityEnvironment {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestActivityEnvironment()
	env.RegisterActivity(acts)
	return env
}

// handOff runs the HandOff activity in env, fails the test unless it succeeds, and
// returns its result as the workflow would decode it.
func handOff(t *testing.T, env *testsuite.TestActivityEnvironment, acts *activities.Activities, in activities.HandOffInput) activities.HandOffResult {
	t.Helper()
	v, err := env.ExecuteActivity(acts.HandOff, in)
	require.NoError(t, err)
	var res activities.HandOffResult
	require.NoError(t, v.Get(&res))
	return res
}

// saveReadyDraft saves a ready draft of one refund sentence, eligible at at, for the
// hand-off and notification tests.
func saveReadyDraft(t *testing.T, ctx context.Context, s *store.Store, ticketID string, iteration int, at time.Time) {
	t.Helper()
	require.NoError(t, s.SaveIteration(ctx, &drafts.Saved{TicketID: ticketID, Iteration: iteration, Revision: 1, Status: drafts.StatusReady,
		EligibleAt: at, Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, Reply: "Refunds within 14 days.", ModelReply: "Refunds within 14 days."}, "refunds"))
}

func TestHandOffPostsTheSignedDraftAndRetriesOnly5xx(t *testing.T) {
	s, _ := testdb.New(t)
	at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	saveReadyDraft(t, context.Background(), s, "T-7", 2, at)
	desk := &helpDesk{statuses: []int{http.StatusInternalServerError, http.StatusOK, http.StatusUnprocessableEntity}}
	acts := &activities.Activities{Store: s, HelpDesk: helpdesk.New(desk.serve(t), secret)}
	env := activityEnv(acts)
	in := activities.HandOffInput{TicketID: "T-7", Iteration: 2, ApprovedBy: "alice", ApprovedAt: at}

	_, err := env.ExecuteActivity(acts.HandOff, in)
	require.Error(t, err, "HTTP 500")
	var appErr *temporal.ApplicationError
	require.ErrorAs(t, err, &appErr)
	assert.False(t, appErr.NonRetryable(), "a 500 is retried")

	assert.True(t, handOff(t, env, acts, in).Delivered)

	_, err = env.ExecuteActivity(acts.HandOff, in)
	require.ErrorAs(t, err, &appErr)
	assert.True(t, appErr.NonRetryable(), "a 422 is a refusal: retrying cannot help")

	require.Len(t, desk.got, 3)
	for _, d := range desk.got {
		require.NoError(t, d.verifyErr, "the help desk can verify the signature")
		assert.Equal(t, "T-7/2", d.idemKey, "every attempt carries the same idempotency key")
		assert.Equal(t, helpdesk.DraftReply{TicketID: "T-7", Iteration: 2, Reply: "Refunds within 14 days.",
			ApprovedBy: "alice", ApprovedAt: at, IdempotencyKey: "T-7/2"}, d.body)
	}
}

func TestHandOffWithoutAHelpDeskOnlyRecords(t *testing.T) {
	acts := &activities.Activities{Store: testdb.Tx(t)}
	env := activityEnv(acts)
	assert.False(t, handOff(t, env, acts, activities.HandOffInput{TicketID: "T-8", Iteration: 1}).Delivered)
}

func TestHandOffSignatureWithAnotherSecretFailsVerification(t *testing.T) {
	desk := &helpDesk{}
	c := helpdesk.New(desk.serve(t), "another-secret-another-secret-xx")
	require.NoError(t, c.Deliver(context.Background(), helpdesk.DraftReply{TicketID: "T-9", Iteration: 1, IdempotencyKey: "T-9/1"}))
	require.Len(t, desk.got, 1)
	assert.ErrorIs(t, desk.got[0].verifyErr, auth.ErrSignatureBad)
}

// The probe's finding: an approved draft was handed off while the kill switch was on.
// Now the hand-off refuses, retryably, while it is on, and delivers once it is lifted.
func TestHandOffWaitsForTheKillSwitch(t *testing.T) {
	s, _ := testdb.New(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	saveReadyDraft(t, ctx, s, "T-H", 1, at)
	desk := &helpDesk{}
	acts := &activities.Activities{Store: s, HelpDesk: helpdesk.New(desk.serve(t), secret)}
	env := activityEnv(acts)
	in := activities.HandOffInput{TicketID: "T-H", Iteration: 1, ApprovedBy: "alice", ApprovedAt: at}

	require.NoError(t, s.SetHalted(ctx, true, "ops"))
	_, err := env.ExecuteActivity(acts.HandOff, in)
	var appErr *temporal.ApplicationError
	require.ErrorAs(t, err, &appErr)
	assert.False(t, appErr.NonRetryable(), "retried: it goes out once the switch is lifted")
	assert.Contains(t, appErr.Message(), "kill switch")
	assert.Empty(t, desk.got, "nothing reached the help desk while halted")

	require.NoError(t, s.SetHalted(ctx, false, "ops"))
	assert.True(t, handOff(t, env, acts, in).Delivered)
	assert.Len(t, desk.got, 1)
}

// An agent whose file names its own help desk hands its approved drafts there, signed with
// the secret from the environment variable it names; the default agent's go to the
// deployment's help desk. A missing secret is refused, not retried.
func TestHandOffGoesToTheAgentsHelpDesk(t *testing.T) {
	s, _ := testdb.New(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	deployment, own := &helpDesk{}, &helpDesk{}
	t.Setenv("PAYMENTS_DESK_SECRET", secret)
	require.NoError(t, s.CreateAgent(ctx, agent.Agent{ID: "payments", Name: "Payments",
		Settings: agent.Settings{HelpDesk: &agent.HelpDesk{URL: own.serve(t), SecretEnv: "PAYMENTS_DESK_SECRET"}}}))
	acts := &activities.Activities{Store: s, HelpDesk: helpdesk.New(deployment.serve(t), secret)}
	for _, id := range []string{agent.Default, "payments"} {
		actx := agent.With(ctx, id)
		saveReadyDraft(t, actx, s, "T-"+id, 1, at)
		res, err := acts.HandOff(actx, activities.HandOffInput{TicketID: "T-" + id, Iteration: 1, ApprovedBy: "alice", ApprovedAt: at})
		require.NoError(t, err, id)
		assert.True(t, res.Delivered, id)
	}
	require.Len(t, deployment.got, 1)
	assert.Equal(t, "T-billing", deployment.got[0].body.TicketID)
	require.Len(t, own.got, 1)
	assert.Equal(t, "T-payments", own.got[0].body.TicketID)
	assert.NoError(t, own.got[0].verifyErr, "signed with the agent's secret")

	t.Setenv("PAYMENTS_DESK_SECRET", "")
	_, err := acts.HandOff(agent.With(ctx, "payments"), activities.HandOffInput{TicketID: "T-payments", Iteration: 1, ApprovedBy: "alice", ApprovedAt: at})
	var appErr *temporal.ApplicationError
	require.ErrorAs(t, err, &appErr)
	assert.True(t, appErr.NonRetryable())
	assert.Contains(t, err.Error(), "PAYMENTS_DESK_SECRET")
}

// An agent whose file names its own reviewers' channel has its queued drafts posted there
// with the deployment's bot; the default agent's go to the deployment's channel. The fake
// answers chat.postMessage as Slack's Web API does.
func TestNotifyReviewersPostsToTheAgentsChannel(t *testing.T) {
	var mu sync.Mutex
	var channels []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		mu.Lock()
		channels = append(channels, r.PostForm.Get("channel"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok": true, "channel": "` + r.PostForm.Get("channel") + `", "ts": "1733300000.000100"}`))
	}))
	defer srv.Close()
	s, _ := testdb.New(t)
	ctx := context.Background()
	require.NoError(t, s.CreateAgent(ctx, agent.Agent{ID: "payments", Name: "Payments",
		Settings: agent.Settings{Slack: &agent.Slack{Channel: "C0PAYMENTS"}}}))
	acts := &activities.Activities{Store: s, Slack: slackreview.NewPoster("xoxb-test", "C0REVIEW", srv.URL+"/api/")}
	at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	for _, id := range []string{agent.Default, "payments"} {
		actx := agent.With(ctx, id)
		ticketID := "T-slack-" + id
		require.NoError(t, s.SaveTicket(actx, testenv.Ticket(ticketID, 1, "pro", "eu", at, "When do refunds arrive?")))
		saveReadyDraft(t, actx, s, ticketID, 1, at)
		_, err := acts.NotifyReviewers(actx, activities.NotifyInput{TicketID: ticketID, Iteration: 1})
		require.NoError(t, err, id)
	}
	assert.Equal(t, []string{"C0REVIEW", "C0PAYMENTS"}, channels)
}
