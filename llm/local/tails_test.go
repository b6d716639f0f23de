package local_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/llm/llmtest"
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

// A section of another document is quoted for an open clause only when it answers it:
//   - a clause the chosen section answers all but one word of ("bookkeeper" is in no
//     section) is still open, but a section of another document that holds less of it (an
//     invoice's address shares "invoice" and "update") is not quoted: the agent would
//     delete it;
//   - a second question about another subject still gets its section from another
//     document: it holds the clause's subject better than anything chosen for the first;
//   - a clause that asks "how much" is answered from another document that states an
//     amount, even though the sections chosen hold more of its words ("yearly billing"):
//     they state no amount, so the clause would stay unanswered without it.
func TestExtractiveQuotesAnotherDocumentOnlyWhenItAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, subject, body string
		policy              []policy.Evidence
		want, notWant       []string
	}{
		{"no tail", "Invoices access", "Can our bookkeeper download invoices and update the card?", tailPolicy,
			[]string{"Billing role"}, []string{"Edit address"}},
		{"second question", "Invoices access", "Can our bookkeeper download invoices and update the card? " +
			"Also, when does our account credit expire?", tailPolicy,
			[]string{"Billing role", "9 months"}, []string{"Edit address"}},
		{"asked amount", "Billing period", "How does a switch from monthly to yearly billing work? How much cheaper is yearly billing?", periodPolicy,
			[]string{"takes effect at once", "20% less"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := extractive(t, llmtest.CustomerRequest(tc.subject, tc.body, llmtest.ProEU, tc.policy))
			require.False(t, d.Abstain, d.Note)
			for _, w := range tc.want {
				assert.Contains(t, d.Reply, w)
			}
			for _, w := range tc.notWant {
				assert.NotContains(t, d.Reply, w, "a sentence of another document that answers nothing asked")
			}
		})
	}
}
