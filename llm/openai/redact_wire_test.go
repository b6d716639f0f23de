package openai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/llmtest"
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
	srv.Chat(llmtest.JSON(map[string]any{"reply": "We will reply to [EMAIL_1] within 14 days.", "abstain": false, "claims": []any{}}))
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
