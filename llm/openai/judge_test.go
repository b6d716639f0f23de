package openai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/llm/openai"
)

func newJudge(t *testing.T) (*openai.Judge, *llmtest.Server) {
	t.Helper()
	srv := llmtest.New(t)
	cfg := openai.Config{BaseURL: srv.URL, APIKey: "test-key", DraftModel: "draft-model", JudgeModel: "judge-model"}
	return openai.NewJudge(openai.NewClient(cfg), cfg), srv
}

func TestOpenAIJudgeClaim(t *testing.T) {
	t.Parallel()
	j, srv := newJudge(t)
	srv.Chat(
		llmtest.JSON(map[string]any{"verdict": "contradicts", "reasoning": "The policy says 14 days, not 30."}),
		llmtest.JSON(map[string]any{"verdict": "probably", "reasoning": "?"}),
		llmtest.Reply{Content: `{"verdict": "supports"`},
	)
	ctx := context.Background()
	chunk := llmtest.Evidence(t, "evidence.json")[0].Text

	got, err := j.JudgeClaim(ctx, "You have 30 days.", "within 14 days", chunk)
	require.NoError(t, err)
	assert.Equal(t, llm.Judgement{Verdict: llm.VerdictContradicts, Reasoning: "The policy says 14 days, not 30."}, got)

	_, err = j.JudgeClaim(ctx, "s", "q", chunk)
	require.ErrorIs(t, err, openai.ErrMalformedOutput)
	assert.Contains(t, err.Error(), `verdict "probably"`)

	_, err = j.JudgeClaim(ctx, "s", "q", chunk)
	require.ErrorIs(t, err, openai.ErrMalformedOutput)

	reqs := srv.RequestsTo("/chat/completions")
	require.Len(t, reqs, 3)
	var body map[string]any
	require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
	assert.Equal(t, "judge-model", body["model"], "claims are checked with the cheaper model")
	schema := assertStrictSchema(t, body, "claim_check")
	verdict := schema["properties"].(map[string]any)["verdict"].(map[string]any)
	assert.Equal(t, []any{"supports", "contradicts", "not_enough"}, verdict["enum"])
	assert.ElementsMatch(t, []any{"verdict", "reasoning"}, schema["required"])
	assert.Contains(t, string(reqs[0].Body), "within 14 days")
}

func TestOpenAIJudgeScoreClamps(t *testing.T) {
	t.Parallel()
	j, srv := newJudge(t)
	srv.Chat(
		llmtest.JSON(map[string]any{"faithfulness": 1.7, "coverage": -0.2, "fit": 0.4}),
		llmtest.JSON(map[string]any{"faithfulness": 0.9, "coverage": 0.5}),
	)
	ctx := context.Background()
	ev := llmtest.Evidence(t, "evidence.json")

	s, err := j.Score(ctx, "Can I get a refund?", "Hi,\n\nAnnual plans can be refunded in full within 14 days of purchase.", ev)
	require.NoError(t, err)
	assert.Equal(t, llm.Scores{Faithfulness: 1, Coverage: 0, Fit: 0.4}, s)

	_, err = j.Score(ctx, "q", "r", ev)
	require.ErrorIs(t, err, openai.ErrMalformedOutput)

	var body map[string]any
	require.NoError(t, json.Unmarshal(srv.RequestsTo("/chat/completions")[0].Body, &body))
	schema := assertStrictSchema(t, body, "draft_scores")
	assert.ElementsMatch(t, []any{"faithfulness", "coverage", "fit"}, schema["required"])
}

func TestScoresJSONIsSnakeCase(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(llm.Scores{Faithfulness: 1, Coverage: 0.5, Fit: 0.25})
	require.NoError(t, err)
	assert.JSONEq(t, `{"faithfulness": 1, "coverage": 0.5, "fit": 0.25}`, string(b))
}
