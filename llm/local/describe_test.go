package local_test

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/llmtest"
)

// The extractive drafter files its answer under the ticket's triage bucket, or, without
// one, under the allowed bucket the quoted sections' areas name, and says what it quoted.
func TestExtractiveCategoryAndReasoning(t *testing.T) {
	t.Parallel()
	ev := llmtest.Evidence(t, "evidence.json")
	req := llmtest.CustomerRequest("Refund for my annual plan",
		"Hi, I bought the annual plan last week and we no longer need it. Can I get a refund?", llmtest.ProEU, ev)
	req.Categories = inbox.DefaultBuckets().Names()

	fromAreas := extractive(t, req)
	require.False(t, fromAreas.Abstain)
	assert.Equal(t, inbox.BucketRefunds, fromAreas.Category, "the quoted refund section's area")
	assert.Contains(t, fromAreas.Reasoning, "Quoted")
	assert.Contains(t, fromAreas.Reasoning, "from the areas of the sections read")

	req.Bucket = inbox.BucketCancellation
	fromBucket := extractive(t, req)
	assert.Equal(t, inbox.BucketCancellation, fromBucket.Category, "the triage bucket wins")
	assert.Contains(t, fromBucket.Reasoning, "triage bucket")

	req.Bucket = "shipping" // not one of this agent's buckets
	notAllowed := extractive(t, req)
	assert.True(t, llm.ValidCategory(notAllowed.Category, inbox.DefaultBuckets().Names()), "a bucket outside the allowed set is never used")
}

// An abstention's reasoning says why, in the words of its note, within the bound.
func TestExtractiveAbstentionReasoning(t *testing.T) {
	t.Parallel()
	req := llmtest.CustomerRequest("Alipay", "Can we pay with Alipay or WeChat Pay instead of a card?", llmtest.ProEU,
		llmtest.Evidence(t, "evidence.json"))
	req.Categories = inbox.DefaultBuckets().Names()
	d := extractive(t, req)
	require.True(t, d.Abstain, d.Reply)
	assert.Contains(t, d.Reasoning, "Abstained:")
	assert.Contains(t, d.Reasoning, "alipay", "the words no policy mentions")
	assert.LessOrEqual(t, utf8.RuneCountInString(d.Reasoning), llm.MaxReasoning)
}
