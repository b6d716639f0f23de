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
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/llm/local"
	"github.com/supportdraft/supportdraft/llm/openai"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/stack"
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
	ts := serveStack(t, st, testenv.StartWorker(t, st, "test-failed-", nil), api.Config{}, nil)
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

const annualWindow = "Annual Pro and Business plans can be refunded in full within 14 days of the purchase date or the renewal date."

// remoteAPI serves the real API over a worker whose drafter is the OpenAI one, pointed at
// the fake endpoint srv: a remote provider, so Generate is a regular activity retried by
// the Temporal server (the judge stays the rule judge, so only the drafter's calls are
// scripted).
func remoteAPI(t *testing.T, srv *llmtest.Server) *testAPI {
	t.Helper()
	s := testenv.Store(t)
	vocab, err := guard.DefaultVocabulary()
	require.NoError(t, err)
	cfg := openai.Config{BaseURL: srv.URL, APIKey: "test-key", DraftModel: "draft-model", JudgeModel: "judge-model",
		RequestTimeout: 300 * time.Millisecond}
	p := providers.Set{Embedder: testenv.Embedder, Writer: openai.NewWriter(openai.NewClient(cfg), cfg, nil),
		Judge: local.RuleJudge{}, Remote: true}
	st := stack.New(s, testenv.Temporal(t), p, vocab)
	return serveStack(t, st, testenv.StartWorker(t, st, "test-model-", nil), api.Config{}, nil)
}

// The model endpoint rate-limits, fails and hangs: the draft retries through Temporal and
// completes; one that keeps failing ends as a visible failed draft (502, then status
// failed with its reason on GET), and a rebuild once the endpoint is back drafts it.
func TestModelEndpointFailures(t *testing.T) {
	good := llmtest.JSON(llm.Answer{Category: "refunds", Reasoning: "Quoted the annual refund window.", Reply: "Hi,\n\n" + annualWindow + "\n\nBest regards.",
		Claims: []llm.Claim{{Sentence: annualWindow, ChunkIDs: []string{"billing/refunds-annual@4#refund-window"}, Quote: annualWindow}}})
	question := "Our annual Pro plan renewed five days ago. Can we still get a refund?"

	t.Run("429, a hung request, then an answer", func(t *testing.T) {
		t.Parallel()
		srv := llmtest.New(t)
		srv.Chat(llmtest.Error(429, "rate limited"), llmtest.Reply{Delay: time.Minute}, good)
		ts := remoteAPI(t, srv)
		id := testenv.Unique("M-")
		v := openDraft(t, ts, id, question)
		assert.Equal(t, drafts.StatusReady, v.Status)
		assert.Contains(t, v.Reply, annualWindow)
		assert.Len(t, srv.RequestsTo("/chat/completions"), 3, "one call per attempt")
		assert.Equal(t, 1, srv.Abandoned(), "the hung call was cut by the request timeout, not left to the activity's")
	})

	t.Run("500 on every attempt, then the endpoint recovers", func(t *testing.T) {
		t.Parallel()
		srv := llmtest.New(t)
		srv.Chat(llmtest.Error(500, "upstream down"), llmtest.Error(502, "bad gateway"), llmtest.Error(503, "overloaded"), llmtest.Error(500, "upstream down"))
		ts := remoteAPI(t, srv)
		id := testenv.Unique("M-")
		assert.Equal(t, http.StatusBadGateway, call(t, ts, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked, question), nil))
		assert.Len(t, srv.RequestsTo("/chat/completions"), 4, "the model step's attempts, then no more")
		var failed workflows.DraftView
		require.Equal(t, http.StatusOK, call(t, ts, "GET", "/v1/drafts/"+id, nil, &failed))
		assert.Equal(t, drafts.StatusFailed, failed.Status)
		assert.Contains(t, failed.BuildError, "could not be built")
		assert.Contains(t, failed.BuildError, "Rebuild")

		srv.Chat(good)
		var rebuilt workflows.DraftView
		require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts/"+id+"/rebuild", nil, &rebuilt))
		assert.Equal(t, drafts.StatusReady, rebuilt.Status)
		assert.Equal(t, 1, rebuilt.Iteration)
	})
}
