package openai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/llm/openai"
)

// buckets stands for one agent's triage buckets: the allowed set comes with the request.
var buckets = []string{"refunds", "cancellation", "payment_failed"}

func categorised(category, reasoning string) llmtest.Reply {
	return llmtest.JSON(map[string]any{
		"reply": "Hi,\n\nAnnual plans can be refunded in full within 14 days of purchase.", "abstain": false,
		"category": category, "reasoning": reasoning,
		"claims": []any{map[string]any{"sentence": "Annual plans can be refunded in full within 14 days of purchase.",
			"chunk_ids": []string{refundChunk}, "quote": "Annual plans can be refunded in full within 14 days of purchase."}},
	})
}

// The schema limits category to the request's buckets; an answer outside them is
// malformed output (retried by the activity like any other), and a reasoning longer than
// llm.MaxReasoning is cut at a word, not refused.
func TestWriterCategoryAndReasoningAreValidated(t *testing.T) {
	t.Parallel()
	d, srv := newDrafter(t, 0, nil)
	long := strings.Repeat("The section on annual refunds states the window the customer asks about. ", 12)
	srv.Chat(
		categorised("refunds", "Quoted the annual refund window, which answers the question."),
		categorised("shipping", "A bucket this agent does not have."),
		categorised("refunds", long),
	)
	req := refundRequest(t)
	req.Categories, req.Bucket = buckets, "refunds"
	ctx := context.Background()

	good, err := d.Write(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, "refunds", good.Category)
	assert.Equal(t, "Quoted the annual refund window, which answers the question.", good.Reasoning)

	_, err = d.Write(ctx, req)
	require.ErrorIs(t, err, openai.ErrMalformedOutput)
	assert.Contains(t, err.Error(), `category "shipping" is not one of [refunds cancellation payment_failed]`)
	assert.False(t, openai.IsPermanent(err))

	cut, err := d.Write(ctx, req)
	require.NoError(t, err)
	assert.LessOrEqual(t, utf8.RuneCountInString(cut.Reasoning), llm.MaxReasoning)
	assert.True(t, strings.HasSuffix(cut.Reasoning, "…"))

	reqs := srv.RequestsTo("/chat/completions")
	require.Len(t, reqs, 3)
	var body map[string]any
	require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
	schema := assertStrictSchema(t, body, "support_draft")
	props := schema["properties"].(map[string]any)
	assert.Equal(t, []any{"refunds", "cancellation", "payment_failed"}, props["category"].(map[string]any)["enum"])
	assert.Equal(t, "string", props["reasoning"].(map[string]any)["type"])
	assert.Contains(t, string(reqs[0].Body), "Triage bucket: refunds")
}

// A missing category or reasoning is malformed, as a missing reply is.
func TestWriterMissingCategoryOrReasoning(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{
		`missing "category"`:  `{"reply": "Hi", "abstain": true, "claims": [], "reasoning": "r"}`,
		`missing "reasoning"`: `{"reply": "Hi", "abstain": true, "claims": [], "category": "refunds"}`,
	} {
		d, srv := newDrafter(t, 0, nil)
		srv.Chat(llmtest.Reply{Content: content})
		req := refundRequest(t)
		req.Categories = buckets
		_, err := d.Write(context.Background(), req)
		require.ErrorIs(t, err, openai.ErrMalformedOutput, name)
		assert.Contains(t, err.Error(), name)
	}
}

// A refusal abstains under the ticket's own bucket, and says the model refused.
func TestWriterRefusalKeepsTheBucket(t *testing.T) {
	t.Parallel()
	d, srv := newDrafter(t, 0, nil)
	srv.Chat(llmtest.Reply{Refusal: "I can't help with that."})
	req := refundRequest(t)
	req.Categories, req.Bucket = buckets, "cancellation"
	ans, err := d.Write(context.Background(), req)
	require.NoError(t, err)
	assert.True(t, ans.Abstain)
	assert.Equal(t, "cancellation", ans.Category)
	assert.Contains(t, ans.Reasoning, "refused")
}

// The style judge reads the rubric's guidance, clamps its scores and refuses an answer
// that leaves a score out.
func TestOpenAIJudgeStyle(t *testing.T) {
	t.Parallel()
	j, srv := newJudge(t)
	srv.Chat(
		llmtest.JSON(map[string]any{"human_sounding": 0.4, "tone": 1.3, "reasoning": "Reads like a form letter."}),
		llmtest.JSON(map[string]any{"human_sounding": 0.9, "reasoning": "fine"}),
	)
	guide := llm.StyleGuide{HumanSounding: "Plain words, no boilerplate.", Tone: "Calm and friendly."}
	got, err := j.Style(context.Background(), "Dear valued customer, please be advised.", guide)
	require.NoError(t, err)
	assert.Equal(t, llm.Style{HumanSounding: 0.4, Tone: 1, Reasoning: "Reads like a form letter."}, got)

	_, err = j.Style(context.Background(), "Hi", guide)
	require.ErrorIs(t, err, openai.ErrMalformedOutput)

	reqs := srv.RequestsTo("/chat/completions")
	require.Len(t, reqs, 2)
	var body map[string]any
	require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
	assert.Equal(t, "judge-model", body["model"])
	schema := assertStrictSchema(t, body, "draft_style")
	assert.ElementsMatch(t, []any{"human_sounding", "tone", "reasoning"}, schema["required"])
	wire := string(reqs[0].Body)
	assert.Contains(t, wire, "Plain words, no boilerplate.")
	assert.Contains(t, wire, "Calm and friendly.")
	assert.Contains(t, wire, "please be advised")
}
