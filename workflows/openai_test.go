package workflows_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/llm/openai"
	"github.com/supportdraft/supportdraft/rubric"
	"github.com/supportdraft/supportdraft/workflows"
)

// The OpenAI path, end to end through the workflow: openai-go talks to an in-process server
// that speaks the real wire format and replies as scripted, including lies.

const windowQuote = "Annual Pro and Business plans can be refunded in full within 14 days of the purchase date or the renewal date."

func openAIHarness(t *testing.T, replies ...llmtest.Reply) (*harness, *llmtest.Server) {
	srv := llmtest.New(t)
	srv.Chat(replies...)
	cfg := openai.Config{BaseURL: srv.URL, APIKey: "test-key", DraftModel: "draft-model", JudgeModel: "judge-model"}
	h := newHarness(t, openai.NewWriter(openai.NewClient(cfg), cfg, nil))
	return h, srv
}

// openFails adds an "open" step that must fail, and keeps its error message.
func (h *harness) openFails(msg *string) {
	h.send(workflows.UpdateOpen, func(err error) { h.t.Errorf("open rejected: %v", err) }, func(_ any, err error) {
		if err == nil {
			h.t.Error("open succeeded; want a failed build")
			return
		}
		*msg = err.Error()
	}, workflows.OpenRequest{Revision: 1})
}

func TestOpenAIGoodDraftIsKeptAndNothingButEligibilityFieldsLeaves(t *testing.T) {
	good := llm.Answer{Category: "refunds", Reasoning: "Quoted the annual refund window.", Reply: "Hi,\n\n" + windowQuote + "\n\nBest regards.",
		Claims: []llm.Claim{{Sentence: windowQuote, ChunkIDs: []string{"billing/refunds-annual@4#refund-window"}, Quote: windowQuote}}}
	h, srv := openAIHarness(t, llmtest.JSON(good))
	opened := h.buildOnce(testenv.Ticket("O-1", 1, "pro", "eu", now, refundQuestion))

	assert.Equal(t, drafts.StatusReady, opened.Status)
	r := h.latest("O-1")
	assert.Equal(t, 0, r.Unsupported)
	assert.Contains(t, r.Reply, windowQuote)
	reqs := srv.RequestsTo("/chat/completions")
	require.Len(t, reqs, 1)
	body := string(reqs[0].Body)
	assert.Contains(t, body, "plan: pro, region: eu, locale: en")
	assert.NotContains(t, body, "A-77", "the account ID never reaches the model")
	assert.Contains(t, body, `"json_schema"`)
	assert.Contains(t, body, `"strict":true`)
	enum, err := json.Marshal(inbox.DefaultBuckets().Names())
	require.NoError(t, err)
	assert.Contains(t, body, `"enum":`+string(enum), "category is limited to the triage buckets")
	assert.Equal(t, "refunds", r.Category, "the model's category is kept with the draft")
	assert.Equal(t, "Quoted the annual refund window.", r.Reasoning)
	require.NotNil(t, r.Rubric, "every draft is scored against the rubric")
	assert.Equal(t, 1.0, r.Rubric.Get(rubric.Formatting).Value(), "greeting, one paragraph, sign-off: %+v", r.Rubric.Get(rubric.Formatting).Findings)
}

func TestOpenAILiesAreStruckAndTheRestKept(t *testing.T) {
	lie := llm.Answer{
		Category: "refunds", Reasoning: "Quoted the annual refund window.",
		Reply: "Hi,\n\n" + windowQuote + " You also have a 30-day refund window on every annual plan. Your account qualifies for a 20% loyalty credit.\n\nBest regards.",
		Claims: []llm.Claim{
			{Sentence: windowQuote, ChunkIDs: []string{"billing/refunds-annual@4#refund-window"}, Quote: windowQuote},
			{Sentence: "You also have a 30-day refund window on every annual plan.", ChunkIDs: []string{"billing/refunds-annual@4#refund-window"},
				Quote: "Annual plans have a 30-day refund window."},
			{Sentence: "Your account qualifies for a 20% loyalty credit.", ChunkIDs: []string{"billing/loyalty@2#credit"},
				Quote: "Accounts qualify for a 20% loyalty credit."},
		},
	}
	h, _ := openAIHarness(t, llmtest.JSON(lie))
	testenv.SaveTicket(t, h.store, testenv.Ticket("O-2", 1, "pro", "eu", now, refundQuestion))
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	h.update(workflows.UpdateDiscard, nil)
	h.run("O-2", 1)

	r := h.latest("O-2")
	var struck []string
	for _, s := range r.Sentences {
		if !s.Kept {
			struck = append(struck, s.Text+" — "+s.Reason)
		}
	}
	require.Len(t, struck, 2, "%v", struck)
	assert.Contains(t, struck[0], "does not occur verbatim", "made-up quote")
	assert.Contains(t, struck[1], "billing/loyalty@2#credit", "unknown chunk ID")
	assert.Contains(t, r.Reply, windowQuote)
	assert.NotContains(t, r.Reply, "30-day")
	assert.LessOrEqual(t, r.Confidence, 0.3)
}

func TestOpenAIRateLimitAndServerErrorsAreRetriedByTemporal(t *testing.T) {
	good := llm.Answer{Category: "refunds", Reasoning: "Quoted the annual refund window.", Reply: windowQuote, Claims: []llm.Claim{{Sentence: windowQuote, ChunkIDs: []string{"billing/refunds-annual@4#refund-window"}, Quote: windowQuote}}}
	h, srv := openAIHarness(t, llmtest.Error(429, "slow down"), llmtest.Error(500, "upstream"), llmtest.JSON(good))
	opened := h.buildOnce(testenv.Ticket("O-3", 1, "pro", "eu", now, refundQuestion))
	assert.Equal(t, drafts.StatusReady, opened.Status)
	assert.Equal(t, 3, len(srv.RequestsTo("/chat/completions")), "one request per activity attempt: the SDK does not retry behind Temporal")
}

func TestOpenAIFailuresEndTheBuildWithAClearReason(t *testing.T) {
	malformed := llmtest.Reply{Content: `{"reply": "Hi", "claims": [`}
	cases := []struct {
		name     string
		replies  []llmtest.Reply
		want     string
		attempts int
	}{
		{"malformed JSON is retried, then fails", []llmtest.Reply{malformed, malformed, malformed, malformed}, "malformed JSON", 4},
		{"a bad request is not retried", []llmtest.Reply{llmtest.Error(400, "model draft-model does not exist")}, "400", 1},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, srv := openAIHarness(t, tc.replies...)
			id := fmt.Sprintf("O-4-%d", i)
			testenv.SaveTicket(t, h.store, testenv.Ticket(id, 1, "pro", "eu", now, refundQuestion))
			var msg string
			h.openFails(&msg)
			h.update(workflows.UpdateDiscard, nil)
			h.run(id, 1)
			assert.True(t, strings.Contains(msg, tc.want), "error %q should mention %q", msg, tc.want)
			assert.Equal(t, tc.attempts, len(srv.RequestsTo("/chat/completions")))
		})
	}
}

// The account's name, carried on the ticket, never reaches the model: the wire holds
// placeholders, and the agent's draft has the name back.
func TestOpenAIWireHidesTheAccountsName(t *testing.T) {
	good := llm.Answer{Category: "refunds", Reasoning: "Quoted the annual refund window.", Reply: "Hi [NAME_1],\n\n" + windowQuote,
		Claims: []llm.Claim{{Sentence: windowQuote, ChunkIDs: []string{"billing/refunds-annual@4#refund-window"}, Quote: windowQuote}}}
	h, srv := openAIHarness(t, llmtest.JSON(good))
	tk := testenv.Ticket("O-5", 1, "pro", "eu", now, "Jane Doe here, from the finance team. "+refundQuestion+" Thanks, Jane")
	tk.Account.Name = "Jane Doe"
	testenv.SaveTicket(t, h.store, tk)
	h.update(workflows.UpdateOpen, nil, workflows.OpenRequest{Revision: 1})
	h.update(workflows.UpdateDiscard, nil)
	h.run("O-5", 1)

	reqs := srv.RequestsTo("/chat/completions")
	require.Len(t, reqs, 1)
	wire := string(reqs[0].Body)
	assert.NotContains(t, wire, "Jane")
	assert.NotContains(t, wire, "Doe")
	assert.Contains(t, wire, "[NAME_1] here")
	assert.Contains(t, h.latest("O-5").Reply, "Hi Jane Doe,", "the agent reads the name")
}
