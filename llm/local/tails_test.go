package local_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/llm/local"
	"github.com/supportdraft/supportdraft/policy"
)

// tailPolicy has one section that answers a question about a billing member's rights and,
// in other documents, sections that share a few of its words: an invoice's address, which
// also "opens an invoice" and "updates", and the lifetime of credits.
var tailPolicy = []policy.Evidence{
	{ChunkID: "billing/roles@1#billing-role", DocID: "billing/roles", Title: "Team roles", Area: "invoices",
		Text: "Billing role\nA member with the Billing role can download every invoice and update the payment card without admin rights."},
	{ChunkID: "billing/roles@1#owner", DocID: "billing/roles", Title: "Team roles", Area: "invoices",
		Text: "Owner\nThe owner can delete the workspace and transfer it to another member."},
	{ChunkID: "billing/invoices@1#changing-the-address", DocID: "billing/invoices", Title: "Invoices", Area: "invoices",
		Text: "Changing the address\nOpen any invoice and click Edit address to update the address printed on it."},
	{ChunkID: "billing/invoices@1#currency", DocID: "billing/invoices", Title: "Invoices", Area: "invoices",
		Text: "Currency\nAn invoice is issued in the currency of the plan at purchase."},
	{ChunkID: "billing/credits@1#credit-lifetime", DocID: "billing/credits", Title: "Account credits", Area: "invoices",
		Text: "Credit lifetime\nAn account credit expires 9 months after it is issued."},
	{ChunkID: "help/exports@1#exports", DocID: "help/exports", Title: "Exporting data", Area: "data",
		Text: "Exports\nAn export of all data is ready within 24 hours and stays available for 7 days."},
}

// A clause the chosen section answers all but one word of ("bookkeeper" is in no section)
// is still open, but a section of another document that holds less of it (an invoice's
// address shares "invoice" and "update") is not quoted: the agent would delete it.
func TestExtractiveQuotesNoTailFromAnotherDocument(t *testing.T) {
	t.Parallel()
	d, err := local.Extractive{}.Write(context.Background(), llmtest.CustomerRequest("Invoices access",
		"Can our bookkeeper download invoices and update the card?", llmtest.ProEU, tailPolicy))
	require.NoError(t, err)
	require.False(t, d.Abstain, d.Note)
	assert.Contains(t, d.Reply, "Billing role")
	assert.NotContains(t, d.Reply, "Edit address", "a sentence of another document that answers nothing asked")
	for _, c := range d.Claims {
		assert.Equal(t, []string{"billing/roles@1#billing-role"}, c.ChunkIDs, c.Sentence)
	}
}

// A second question about another subject still gets its section from another document:
// it holds the clause's subject better than anything chosen for the first.
func TestExtractiveAnswersASecondQuestionFromAnotherDocument(t *testing.T) {
	t.Parallel()
	d, err := local.Extractive{}.Write(context.Background(), llmtest.CustomerRequest("Invoices access",
		"Can our bookkeeper download invoices and update the card? "+
			"Also, when does our account credit expire?", llmtest.ProEU, tailPolicy))
	require.NoError(t, err)
	require.False(t, d.Abstain, d.Note)
	assert.Contains(t, d.Reply, "Billing role")
	assert.Contains(t, d.Reply, "9 months")
	assert.NotContains(t, d.Reply, "Edit address")
}

// periodPolicy answers how a switch of billing period works in one document and what the
// yearly plan costs in another.
var periodPolicy = []policy.Evidence{
	{ChunkID: "billing/periods@1#monthly-to-yearly", DocID: "billing/periods", Title: "Changing the billing period", Area: "plan-changes",
		Text: "Monthly to yearly\nA switch from monthly to yearly billing takes effect at once, and the unused days of the month are credited."},
	{ChunkID: "billing/periods@1#yearly-to-monthly", DocID: "billing/periods", Title: "Changing the billing period", Area: "plan-changes",
		Text: "Yearly to monthly\nA switch from yearly to monthly billing takes effect at the next renewal."},
	{ChunkID: "billing/prices@1#yearly-plans", DocID: "billing/prices", Title: "Prices", Area: "plan-changes",
		Text: "Yearly plans\nA yearly plan costs 20% less than twelve months of the monthly plan."},
	{ChunkID: "billing/prices@1#seats", DocID: "billing/prices", Title: "Prices", Area: "plan-changes",
		Text: "Seats\nEvery seat costs the same on a plan, whoever uses it."},
	{ChunkID: "help/exports@1#exports", DocID: "help/exports", Title: "Exporting data", Area: "data",
		Text: "Exports\nAn export of all data is ready within 24 hours and stays available for 7 days."},
}

// A clause that asks "how much" is answered from another document that states an amount,
// even though the sections chosen hold more of its words ("yearly billing"): they state
// no amount, so the clause would stay unanswered without it.
func TestExtractiveAnswersTheAskedAmountFromAnotherDocument(t *testing.T) {
	t.Parallel()
	d, err := local.Extractive{}.Write(context.Background(), llmtest.CustomerRequest("Billing period",
		"How does a switch from monthly to yearly billing work? How much cheaper is yearly billing?", llmtest.ProEU, periodPolicy))
	require.NoError(t, err)
	require.False(t, d.Abstain, d.Note)
	assert.Contains(t, d.Reply, "takes effect at once")
	assert.Contains(t, d.Reply, "20% less")
}
