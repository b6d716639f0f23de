package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
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
	tq := testenv.Unique("test-model-")
	w := st.Worker(tq, st.Activities())
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
	return serve(t, st.API(api.Config{TaskQueue: tq, CheckBudget: 30 * time.Second, IdleTimeout: time.Hour}, nil))
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
		var v workflows.DraftView
		require.Equal(t, http.StatusOK, call(t, ts, "POST", "/v1/drafts", refundTicket(id, 1, "pro", asked, question), &v))
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
