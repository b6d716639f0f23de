package local_test

import (
	"context"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/llm/local"
	"github.com/supportdraft/supportdraft/policy"
)

// Retrieval hands the drafter sections chosen for sharing the question's words, so over
// those sections alone the question's topic ("egress") looks common and an incidental
// word decides ("costs", which a worked example's table repeats). With the knowledge
// base's term statistics the drafter weighs each word by its rarity there, as the lexical
// arm does, and quotes the section that prices egress first.
func TestQuestionWordsWeighByTheirRarityInTheKnowledgeBase(t *testing.T) {
	t.Parallel()
	evidence := []policy.Evidence{
		{ChunkID: "usage/egress@1#example", DocID: "usage/egress", Title: "Egress", Area: "usage",
			Text: "Example invoice\nLine Item: Pro Plan; Costs: $25.\nLine Item: Compute; Costs: $10.\nLine Item: Egress; Costs: $4.50."},
		{ChunkID: "usage/egress@1#pricing", DocID: "usage/egress", Title: "Egress", Area: "usage",
			Text: "Pricing\nEach GB of egress above the quota is billed at $0.09."},
		{ChunkID: "usage/egress@1#usage-page", DocID: "usage/egress", Title: "Egress", Area: "usage",
			Text: "Usage page\nThe usage page shows the egress of each project."},
	}
	body := "What does each extra GB of egress cost us on Pro?"
	req := llm.Request{Subject: "Egress", Evidence: llmtest.Retrieved(body, evidence),
		Messages: []llm.Message{{Author: "customer", Body: body}}}
	draft := func(terms *llm.Terms) string {
		req.Terms = terms
		d, err := local.Extractive{}.Write(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return d.Reply
	}
	priceFirst := func(reply string) bool {
		price, example := strings.Index(reply, "$0.09"), strings.Index(reply, "Costs: $25")
		return price >= 0 && (example < 0 || price < example)
	}
	if got := draft(nil); priceFirst(got) {
		t.Fatalf("without term statistics the reply = %q; the fixture no longer shows the evidence-only weighting's miss", got)
	}
	kb := &llm.Terms{Chunks: 400, Held: map[string]int{"extra": 30, "gb": 12, "egress": 9, "cost": 160, "pro": 220, "each": 90}}
	if got := draft(kb); !priceFirst(got) {
		t.Errorf("with the knowledge base's term statistics the reply = %q, want the egress price first", got)
	}
}
