package guard

import (
	"slices"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/policy"
)

// Each rule of the guard, as sentences an agent might write over sections of the sample
// corpus (evals/corpus) and the public help-center corpus (evals/helpcenter), kept or struck. One case per rule: why it holds, the sections,
// and each sentence's verdict.
func TestRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rule     string
		sections []policy.Evidence
		kept     map[string]bool
	}{{
		rule: "a heading states nothing on its own; a verb it names is stated by a unit under it that restates the rest",
		sections: []policy.Evidence{
			{ChunkID: "combining", Title: "Nonprofit and education discounts", Text: "Combining discounts\nOnly one discount applies to a plan at a time, and discounts do not apply to monthly billing."},
			{ChunkID: "who", Title: "Refunds on annual plans", Text: "Who can request a refund\n- The request comes from the account owner or a billing admin.\n- The charge is for an annual Pro or Business plan."},
		},
		kept: map[string]bool{
			"Nonprofit and education discounts can be combined.":                    false,
			"Discounts do not apply to monthly billing.":                            true,
			"The refund must be requested by the account owner or a billing admin.": true,
			"A refund is paid to the account owner's card.":                         false,
		},
	}, {
		rule: `"and" before a new subject joins two statements, backed when one section states both`,
		sections: []policy.Evidence{
			{ChunkID: "upgrades", Title: "Upgrades, downgrades and proration", Text: "Upgrades\nUpgrades take effect immediately. You are charged a prorated amount for the rest of the current billing period, calculated by the day."},
			{ChunkID: "downgrades", Title: "Upgrades, downgrades and proration", Text: "Downgrades\nDowngrades take effect at the next renewal date."},
		},
		kept: map[string]bool{
			"An upgrade takes effect immediately and you pay a prorated amount for the rest of the period.":  true,
			"A downgrade takes effect immediately and you pay a prorated amount for the rest of the period.": false,
			"An upgrade takes effect immediately and you get a prorated refund for the rest of the period.":  false,
		},
	}, {
		rule: "each predicate of a source sentence is a statement with its subject",
		sections: []policy.Evidence{
			{ChunkID: "credits", Title: "Upgrades, downgrades and proration", Text: "Proration credits\nProration credits are applied to the next invoice and are never paid out as cash."},
		},
		kept: map[string]bool{
			"Proration credits can be paid out to your card on request.": false,
			"Proration credits go on your next invoice, never in cash.":  true,
			"Proration credits are applied to your next invoice.":        true,
		},
	}, {
		rule: `a time adjunct ("after purchase") is no part of what a negation denies`,
		sections: []policy.Evidence{
			{ChunkID: "currency", Title: "Invoices", Text: "Invoice currency\nThe currency of an invoice is the currency of the plan at purchase, and it cannot be changed later."},
		},
		kept: map[string]bool{
			"The invoice currency can't be changed after purchase.":         true,
			"The currency of your invoice can be changed later on request.": false,
		},
	}, {
		rule: `an antonym is read as a denial: "past" of "future", "include" of "exclude"`,
		sections: []policy.Evidence{
			{ChunkID: "profile", Title: "Invoices", Text: "What an invoice shows\nChanges to the billing profile apply to future invoices."},
			{ChunkID: "prices", Title: "Plan prices", Text: "Prices are per user per month and exclude VAT, sales tax and GST."},
		},
		kept: map[string]bool{
			"Changes to your billing profile also update your past invoices.": false,
			"Changes to your billing profile apply to your future invoices.":  true,
			"Our prices include VAT, sales tax and GST.":                      false,
			"Our prices exclude VAT, sales tax and GST.":                      true,
		},
	}, {
		rule: "a proper name tells units apart, and needs no backing where no unit names another",
		sections: []policy.Evidence{
			{ChunkID: "rates", Title: "VAT for EU customers", Text: "VAT rates by country\nCustomers in Germany pay 19% VAT. Customers in Austria pay 20% VAT."},
			{ChunkID: "upgrades", Title: "Upgrades", Text: "Upgrades\nWhen you upgrade, you are charged a prorated amount for the rest of the current billing period."},
			{ChunkID: "processor", Title: "Payments", Text: "Who charges you\nAll payments are processed by Paddle, our reseller."},
		},
		kept: map[string]bool{
			"Customers in Austria pay 19% VAT.": false,
			"Customers in Austria pay 20% VAT.": true,
			"When you upgrade, Paddle charges a prorated amount for the rest of the billing period.": true,
		},
	}, {
		rule: `an age is a bound: "older than 12 months" is not "from the last 12 months"`,
		sections: []policy.Evidence{
			{ChunkID: "corrected", Title: "Invoices", Text: "Corrected invoices\nInvoices from the last 12 months can be reissued with a corrected company name, address or VAT ID on request. Older invoices cannot be reissued."},
		},
		kept: map[string]bool{
			"Invoices from the past 12 months can be reissued with a corrected address.": true,
			"Invoices older than 12 months can be reissued with a corrected address.":    false,
		},
	}, {
		rule: `"as soon as" is a time in words (immediately) the section must say`,
		sections: []policy.Evidence{
			{ChunkID: "suspension", Title: "Failed payments and suspension", Text: "Suspension after 28 days\nIf the invoice is still unpaid 28 days after the first failed attempt, the account is suspended."},
		},
		kept: map[string]bool{
			"Your account is suspended as soon as a payment fails.":                                     false,
			"Your account is suspended if the invoice is still unpaid 28 days after the first failure.": true,
		},
	}, {
		rule: `"at any time" or "as often as" is not backed by a unit that bounds when or how often`,
		sections: []policy.Evidence{
			{ChunkID: "duplicates", Title: "Refunds on monthly plans", Text: "Duplicate charges\nIf the same invoice was paid twice, the second payment is refunded in full when it is reported within 8 weeks of the charge."},
			{ChunkID: "annual-duplicates", Title: "Refunds on annual plans", Text: "Duplicate annual charges\nIf the same renewal was charged twice, the duplicate charge is refunded in full at any time."},
			{ChunkID: "extending", Title: "Free trials of paid plans", Text: "Extending a trial\nSupport agents can extend a trial once, by 7 days, when the customer asks before the trial ends."},
		},
		kept: map[string]bool{
			"We'll refund the duplicate payment whenever you report it.":                     false,
			"We'll refund the duplicate payment if you report it within 8 weeks.":            true,
			"If your renewal was charged twice, we refund the duplicate charge at any time.": true,
			"We can extend your trial as often as you need.":                                 false,
			"We can extend your trial once, by 7 days, if you ask before it ends.":           true,
		},
	}, {
		rule: `a promise opening with "we'll" is not backed by a source that only says "we'll" too`,
		sections: []policy.Evidence{
			{ChunkID: "apply", Title: "Discount for nonprofits", Text: "How to apply\n3. Contact us to request a discount code.\n4. We'll send you a one-time code to use at checkout."},
		},
		kept: map[string]bool{
			"We'll send you a one-time code to use at checkout.":              true,
			"We'll send you a discount code you can reuse for every renewal.": false,
		},
	}, {
		rule: `"isn't possible" denies what its subject names`,
		sections: []policy.Evidence{
			{ChunkID: "country", Title: "Download your invoices", Text: "Change your billing address\nChanging the country on an existing subscription isn't possible due to tax regulations."},
		},
		kept: map[string]bool{
			"You can change the country on your existing subscription from the invoice page.": false,
			"The country on an existing subscription can't be changed.":                       true,
		},
	}}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			t.Parallel()
			requireKept(t, tt.sections, tt.kept)
		})
	}
}

// A source sentence whose subject has two predicates yields each with the subject.
func TestPredicates(t *testing.T) {
	t.Parallel()
	got := predicates("Proration credits are applied to the next invoice and are never paid out as cash.")
	want := []string{"Proration credits are applied to the next invoice", "Proration credits are never paid out as cash."}
	if !slices.Equal(got, want) {
		t.Errorf("predicates = %q, want %q", got, want)
	}
	if got := predicates("Refunds go back to the original payment method within 5 to 10 business days."); got != nil {
		t.Errorf("one predicate: got %q, want none", got)
	}
}

// The reason for a sentence that holds at any time names the bound as the source writes it.
func TestBoundedInTimeNamesTheBound(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	sources := []policy.Evidence{{ChunkID: "duplicates", Title: "Refunds on monthly plans",
		Text: "Duplicate charges\nIf the same invoice was paid twice, the second payment is refunded in full when it is reported within 8 weeks of the charge."}}
	got := v.Check(Input{Reply: "We'll refund the duplicate payment whenever you report it.", Sources: sources, Mode: ModeAnySource}).Sentences[0]
	if got.Kept || !strings.Contains(got.Reason, "bounds it (8 weeks)") {
		t.Errorf("kept=%v, reason %q: want struck, naming 8 weeks", got.Kept, got.Reason)
	}
}
