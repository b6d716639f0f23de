package openai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/redact"
	"github.com/supportdraft/supportdraft/ticket"
)

// Personal data in the ticket never reaches the model: the wire carries placeholders and
// store: false; the model's answer comes back with the real values restored.
func TestOpenAIDraftWireIsRedacted(t *testing.T) {
	t.Parallel()
	tk := &ticket.Ticket{TicketID: "T-1002", Revision: 1,
		Account: ticket.Account{ID: "A-77", Plan: "pro", Region: "eu", Locale: "en"}, Subject: "Refund to jane.doe@example.com",
		Messages: []ticket.Message{{Author: "customer", Body: "Card 4111 1111 1111 1111 was charged. Call me on +44 20 7946 0958 " +
			"or refund to DE89 3704 0044 0532 0130 00. Mail: jane.doe@example.com. Can we get a refund?"}}}
	d, srv := newDrafter(t, 0, nil)
	srv.Chat(llmtest.JSON(map[string]any{"reply": "We will reply to [EMAIL_1] within 14 days.", "abstain": false, "category": "refunds", "reasoning": "Quoted the window.", "claims": []any{}}))
	draft, err := d.Write(context.Background(), llm.RequestFromTicket(tk, llmtest.Evidence(t, "evidence.json")))
	require.NoError(t, err)
	assert.Equal(t, "We will reply to jane.doe@example.com within 14 days.", draft.Reply, "placeholders are restored for the agent")

	reqs := srv.RequestsTo("/chat/completions")
	require.Len(t, reqs, 1)
	wire := string(reqs[0].Body)
	for _, secret := range []string{"jane.doe", "4111", "7946", "DE89"} {
		assert.NotContains(t, wire, secret)
	}
	assert.Contains(t, wire, "[EMAIL_1]")
	assert.Contains(t, wire, "[CARD_1]")
	var body map[string]any
	require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
	assert.Equal(t, false, body["store"])
}

// The judge hides the account's names too: the sentences it reads come from a reply
// restored for the agent, so they may greet the customer by name.
func TestOpenAIJudgeWireHidesTheAccountsNames(t *testing.T) {
	t.Parallel()
	j, srv := newJudge(t)
	srv.Chat(llmtest.JSON(map[string]any{"verdict": "supports", "reasoning": "ok"}),
		llmtest.JSON(map[string]any{"faithfulness": 1, "coverage": 1, "fit": 1}))
	ctx := redact.WithNames(context.Background(), redact.NameForms("Jane Doe"))
	_, err := j.JudgeClaim(ctx, "Jane, refunds take 14 days.", "refunds take 14 days", "Refunds take 14 days.")
	require.NoError(t, err)
	_, err = j.Score(ctx, "Hi, Jane Doe here: how long do refunds take?", "Hi Jane Doe, refunds take 14 days.", nil)
	require.NoError(t, err)
	reqs := srv.RequestsTo("/chat/completions")
	require.Len(t, reqs, 2)
	for _, r := range reqs {
		assert.NotContains(t, string(r.Body), "Jane")
		assert.NotContains(t, string(r.Body), "Doe")
		assert.Contains(t, string(r.Body), "[NAME_")
	}
}
