package llm

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/supportdraft/supportdraft/ticket"
)

// A reply to a receipt carries the receipt along; its words ("cancel at any time") are not
// what the customer asks, so neither retrieval nor the drafter may read them.
func TestRequestFromTicketReadsOnlyWhatTheSenderWrote(t *testing.T) {
	t.Parallel()
	tk := &ticket.Ticket{TicketID: "T-1", Subject: "Re: Your receipt", Messages: []ticket.Message{{Author: "customer",
		Body: "Why was I charged twice?\n\nOn Mon, 2 Nov 2026 at 09:14, Billing <billing@example.com> wrote:\n> Thanks for your payment.\n> You can cancel at any time."}}}
	req := RequestFromTicket(tk, nil)
	assert.Equal(t, []string{"Why was I charged twice?"}, req.CustomerBodies())
	assert.NotContains(t, req.Question(), "cancel")
	assert.Contains(t, tk.Messages[0].Body, "cancel at any time", "the stored ticket keeps the whole mail for the agent")
}
