package guard

import (
	"slices"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/policy"
)

// Each rule of the guard, as sentences an agent might write over sections of the sample
// corpus (evals/corpus), the public help-center corpus (evals/helpcenter) and the practice
// corpus written outside the team, kept or struck. One case per rule: why it holds, the sections,
// and each sentence's verdict.
func TestRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rule     string
		sections []policy.Evidence
		kept     map[string]bool
	}{{
		rule: "a billing action reported as done is never backed: policy says what may be done, not that it was",
		sections: []policy.Evidence{
			{ChunkID: "refunds", Title: "Refunds", Text: "Annual plans\nAnnual plans can be refunded within 14 days of purchase. Once a refund has been issued, it reaches your card in 5 to 10 business days."},
			{ChunkID: "fees", Title: "Late fees", Text: "Late fees\nA late fee can be waived once a year on request."},
		},
		kept: map[string]bool{
			"Annual plans can be refunded within 14 days of purchase.":                         true,
			"Once your refund has been issued, it reaches your card in 5 to 10 business days.": true,
			"A refund that has been issued reaches your card in 5 to 10 business days.":        true,
			"I've refunded your annual plan.":                                                  false,
			"Your refund has been issued and reaches your card in 5 to 10 business days.":      false,
			"Your refund is already on its way.":                                               false,
			"I went ahead and waived the late fee.":                                            false,
			"I've passed your request to waive the late fee to our billing team.":              true,
			"Ich habe Ihren Jahresplan bereits erstattet.":                                     false,
			"Have you already been refunded?":                                                  true,
			"I've unlocked your workspace.":                                                    false,
			"Your subscription has been renewed.":                                              false,
			"I've updated the billing email on your account.":                                  true,
			"I've checked your booking and can see the car was returned on Tuesday afternoon.": true,
		},
	}, {
		rule: `"pay no fee" is "don't pay a fee", "free of charge" is "at no charge"; "no later than" bounds`,
		sections: []policy.Evidence{
			{ChunkID: "members", Title: "Membership", Text: "Members pay no booking fee on online orders and get early access to sales."},
			{ChunkID: "transfers", Title: "Transfers", Text: "Tickets can be transferred free of charge until 2 hours before the event."},
			{ChunkID: "refunds", Title: "Refunds", Text: "Refunds are issued no later than 10 days after the event."},
		},
		kept: map[string]bool{
			"As a member, you don't pay a booking fee on online orders.":              true,
			"As a member, you pay a booking fee on online orders.":                    false,
			"You can transfer a ticket at no charge until 2 hours before the event.":  true,
			"Tickets can be transferred for a charge until 2 hours before the event.": false,
			"Refunds are issued within 10 days after the event.":                      true,
			"Refunds are issued no sooner than 10 days after the event.":              false,
		},
	}, {
		rule: "a price in a region's own currency is that region's; a subject the section names elsewhere is its subject",
		sections: []policy.Evidence{
			{ChunkID: "late", Title: "Late fees", Text: "Invoices paid late incur a late fee of €15 (£12)."},
			{ChunkID: "storage", Title: "Storage", Text: "The Solo plan includes 500 GB. The Team plan includes 2 TB. On Team, storage above the quota is billed at $0.02 per GB."},
			{ChunkID: "regions", Title: "Regions", Text: "Prices differ in the UK and the EU."},
			{ChunkID: "parking", Title: "Parking", Text: "Scooters in Paris must be parked in a marked zone. A ride ended outside a zone costs €15."},
			{ChunkID: "cities", Title: "Cities", Text: "We operate in Paris and Berlin."},
		},
		kept: map[string]bool{
			"The late fee for UK customers is £12.":            true,
			"The late fee for EU customers is €15.":            true,
			"The late fee for EU customers is £12.":            false,
			"Solo comes with 500 GB of storage.":               true,
			"Solo comes with 2 TB of storage.":                 false,
			"A ride ended outside a zone in Paris costs €15.":  true,
			"A ride ended outside a zone in Berlin costs €15.": false,
		},
	}, {
		rule: "products that share a name are told apart by their numbers: each is an item of the list that names both",
		sections: []policy.Evidence{
			{ChunkID: "plans", Title: "Plans", Text: "Fibre 500 costs €45 per month and Fibre 1000 costs €60 per month."},
		},
		kept: map[string]bool{
			"Fibre 1000 is €60 a month.":                              true,
			"Fibre 500 is €60 a month.":                               false,
			"Fibre 500 is €45 a month and Fibre 1000 is €60 a month.": true,
		},
	}, {
		rule: "a calendar date after a past form reports what the account shows; one something will happen on is checked",
		sections: []policy.Evidence{
			{ChunkID: "renewal", Title: "Renewal", Text: "Annual plans renew automatically at the end of the term."},
		},
		kept: map[string]bool{
			"I can see your annual plan renewed on March 3rd.": true,
			"Your last payment was taken on the 1st.":          true,
			"Your annual plan renews on 3 March.":              false,
		},
	}, {
		rule: `a promise ("will", "always") is not backed by a unit that says only "may" of what it states`,
		sections: []policy.Evidence{
			{ChunkID: "late", Title: "Late payment", Text: "Late payment\nA late fee of £10 may be charged if an invoice is more than 14 days overdue. Late fees are added to the next invoice."},
			{ChunkID: "credits", Title: "Outages", Text: "Service credits\nAt our discretion, we may offer a service credit after an outage."},
			{ChunkID: "cancel", Title: "Cancelling", Text: "Cancelling\nYou may cancel at any time from the Billing page."},
			{ChunkID: "travel", Title: "Guarantee", Text: "Guarantee\nWe may, at our discretion, also reimburse travel costs of up to £100."},
		},
		kept: map[string]bool{
			"A late fee of £10 may be charged if your invoice is more than 14 days overdue.":  true,
			"A late fee of £10 will be charged if your invoice is more than 14 days overdue.": false,
			"The late fee will be added to your next invoice.":                                true,
			"We may be able to offer a service credit after the outage.":                      true,
			"We'll offer you a service credit for the outage.":                                false,
			"You'll be able to cancel at any time from the Billing page.":                     true,
			"We'll reimburse travel costs of up to £100.":                                     false,
			"We may reimburse travel costs of up to £100.":                                    true,
		},
	}, {
		rule: "a heading states nothing on its own; a verb it names is stated by a unit under it that restates the rest",
		sections: []policy.Evidence{
			{ChunkID: "combining", Title: "Nonprofit and education discounts", Text: "Combining discounts\nOnly one discount applies to a plan at a time, and discounts do not apply to monthly billing."},
			{ChunkID: "who", Title: "Refunds on annual plans", Text: "Who can request a refund\n- The request comes from the account owner or a billing admin.\n- The charge is for an annual Pro or Business plan."},
			{ChunkID: "changes", Title: "Upgrading and downgrading", Text: "Upgrades and downgrades\nAn upgrade from Solo to Team takes effect immediately."},
		},
		kept: map[string]bool{
			"Nonprofit and education discounts can be combined.":                    false,
			"Discounts do not apply to monthly billing.":                            true,
			"The refund must be requested by the account owner or a billing admin.": true,
			"A refund is paid to the account owner's card.":                         false,
			"A downgrade takes effect immediately.":                                 false,
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
			{ChunkID: "enterprise", Title: "Plausible pricing and subscription plans", Text: "Enterprise-only features\nEnterprise features are not available on any lower plan and cannot be purchased as add-ons."},
		},
		kept: map[string]bool{
			"Proration credits can be paid out to your card on request.": false,
			"Proration credits go on your next invoice, never in cash.":  true,
			"Proration credits are applied to your next invoice.":        true,
			// A negation before "and cannot" does not reach the second predicate.
			"Enterprise features can't be purchased as add-ons.": true,
			"Enterprise features can be purchased as add-ons.":   false,
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
		rule: "German text capitalises every noun: its nouns are no proper names",
		sections: []policy.Evidence{
			{ChunkID: "sperrung", Title: "Fehlgeschlagene Zahlungen", Text: "Sperrung\nWenn die Rechnung 28 Tage nach dem ersten Fehlversuch noch offen ist, wird das Konto gesperrt. Ein gesperrtes Konto ist schreibgeschützt."},
			{ChunkID: "auszahlung", Title: "Erstattungen", Text: "Auszahlung\nErstattungen gehen innerhalb von 10 Werktagen an die Karte oder das Konto zurück, von dem bezahlt wurde."},
		},
		kept: map[string]bool{
			"Ihr Konto wird gesperrt, wenn die Rechnung 28 Tage nach dem ersten Fehlversuch noch offen ist.": true,
			"Das Konto ist nach 28 Tagen schreibgeschützt.":                                                  true,
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
			{ChunkID: "reissuing", Title: "Invoices and tax", Text: "Reissuing invoices\nWe can reissue an invoice with a corrected company name or address for up to 6 months after the invoice date."},
			{ChunkID: "reserves", Title: "Reserves", Text: "Review of a reserve\nMerchants can ask for a review of their reserve after 90 days without a chargeback above the 1% threshold."},
			{ChunkID: "resubscribing", Title: "Cancel your subscription plan", Text: "Resubscribing\nIf you resubscribe at any time within the retention period, your dashboards unlock automatically and all your historical data will still be there."},
		},
		kept: map[string]bool{
			"We'll refund the duplicate payment whenever you report it.":                     false,
			"We'll refund the duplicate payment if you report it within 8 weeks.":            true,
			"If your renewal was charged twice, we refund the duplicate charge at any time.": true,
			"We can extend your trial as often as you need.":                                 false,
			"We can extend your trial once, by 7 days, if you ask before it ends.":           true,
			"We refund a duplicate monthly payment reported at any point.":                   false,
			// Without commitment language too.
			"We can reissue an invoice from any date with a corrected address.": false,
			"You can ask for a review of your reserve at any time.":             false,
			"You can ask for a review of your reserve after 90 days.":           true,
			// "At any time within" a period is bounded by it.
			"You can resubscribe at any time.":                             false,
			"You can resubscribe at any time within the retention period.": true,
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
	}, {
		rule: "a sentence joining statements of one section is backed clause by clause; of two sections, struck (practice corpus)",
		sections: []policy.Evidence{
			{ChunkID: "monthly", Title: "Refunds", Text: "Monthly plans\nMonthly plans are not refunded. Cancelling stops the next charge, and the plan stays active until the end of the month already paid."},
			{ChunkID: "seats", Title: "Seats", Text: "Removing seats\nRemoved seats are credited by the day to the account balance."},
			{ChunkID: "failed", Title: "Failed payments", Text: "What happens to the account\nAfter 21 days without payment the workspace is suspended."},
			{ChunkID: "quotas", Title: "Storage quotas and overage", Text: "Quotas\nSolo includes 500 GB. Team includes 2 TB per workspace. Enterprise storage is set in the order form."},
		},
		kept: map[string]bool{
			"Monthly plans aren't refunded, but cancelling stops the next charge.":                                 true,
			"Solo includes 500 GB of storage, and Team includes 2 TB per workspace.":                               true,
			"Removed seats are credited by the day, and after 21 days without payment the workspace is suspended.": false,
			"Monthly plans aren't refunded, but cancelling refunds the last charge.":                               false,
			"Monthly plans aren't refunded, and Team includes 4 TB per workspace.":                                 false,
		},
	}, {
		rule: "the words of a section's title count for each of its units (a section titled Storage quotas)",
		sections: []policy.Evidence{
			{ChunkID: "quotas", Title: "Storage quotas and overage", Text: "Quotas\nSolo includes 500 GB. Team includes 2 TB per workspace."},
			{ChunkID: "packs", Title: "Storage packs", Text: "A storage pack adds 1 TB for $15 per month on Solo or Team."},
		},
		kept: map[string]bool{"Every Team workspace includes 2 TB of storage.": true},
	}, {
		rule: "the words of a section's title count for each of its units (a section titled Backups)",
		sections: []policy.Evidence{
			{ChunkID: "quotas", Title: "Backups", Text: "Quotas\nSolo includes 500 GB. Team includes 2 TB per workspace."},
			{ChunkID: "packs", Title: "Storage packs", Text: "A storage pack adds 1 TB for $15 per month on Solo or Team."},
		},
		kept: map[string]bool{"Every Team workspace includes 2 TB of storage.": false},
	}, {
		rule: "a commercial verb said only as a condition needs its source to name it, not the unit that states the rest",
		sections: []policy.Evidence{
			{ChunkID: "cancel", Title: "Cancelling your plan", Text: "Your backups after cancelling\nBackups are kept for 30 days after the plan ends."},
			{ChunkID: "hardware", Title: "Hardware", Text: "Unused hardware can be returned within 30 days of delivery."},
		},
		kept: map[string]bool{
			"After cancelling, your backups are kept for 30 days after the plan ends.": true,
			"Your backups are kept for 30 days after you cancel.":                      true,
			"After you cancel, we refund the hardware within 30 days.":                 false,
			"If you downgrade, backups are kept for 30 days.":                          false,
		},
	}, {
		rule: "excused from its unit, a condition no longer ties the number: the unit must name something else the sentence names",
		sections: []policy.Evidence{{ChunkID: "overage", Title: "Billing FAQ", Text: "What happens if I exceed my pageview limit?\n" +
			"A single month over your limit requires no action. If you don't upgrade within a week, your dashboards are temporarily locked."}},
		kept: map[string]bool{
			"If you don't upgrade within a week, your dashboards are locked.":  true,
			"If you don't upgrade within a month, your dashboards are locked.": false,
		},
	}, {
		rule: "a denial in a condition opposes nothing; the same condition with the opposite outcome is struck",
		sections: []policy.Evidence{
			{ChunkID: "overage", Title: "Billing FAQ", Text: "What happens if I exceed my pageview limit?\nIf you don't upgrade within a week, your dashboards are temporarily locked. If the spike is temporary, you can upgrade to restore access."},
		},
		kept: map[string]bool{
			"Your dashboard will unlock automatically once you upgrade.":                            true,
			"If you resubscribe within the retention period, your dashboards unlock automatically.": true,
			"If you don't upgrade within a week, your dashboards stay unlocked.":                    false,
		},
	}, {
		rule:     "a role named by a source binds its commitment: what owners can do, admins cannot",
		sections: []policy.Evidence{{ChunkID: "cancel", Text: "Owners can cancel from Settings > Billing."}},
		kept: map[string]bool{
			"Owners can cancel from Settings > Billing.": true,
			"Admins can cancel from Settings > Billing.": false,
		},
	}, {
		rule: "a sentence without commitment language is struck when it restates a source with the opposite polarity",
		sections: []policy.Evidence{
			{ChunkID: "payment-methods", Title: "Billing FAQ", Text: "What payment methods do you accept?\nCredit/debit card, PayPal, Apple Pay and Google Pay. All payment processing is handled by Paddle. We're not able to accept wire transfers, manual invoicing or cryptocurrency."},
			{ChunkID: "vat", Title: "Billing FAQ", Text: "How do I change my VAT number?\nPaddle does not allow editing the VAT number on an existing subscription."},
			{ChunkID: "trials", Title: "Trials", Text: "Each workspace can start a single trial of each paid plan. A workspace that has already paid for a plan cannot start a trial of that plan."}},
		kept: map[string]bool{
			// A rule and its exception: quoting either agrees with the policy.
			"Each workspace can start a single trial of each paid plan.":                      true,
			"A workspace that has already paid for a plan cannot start a trial of that plan.": true,
			"A workspace that has already paid for a plan can start a trial of that plan.":    false,
			"We accept wire transfers.":                                                      false,
			"You can change the VAT number on your existing subscription.":                   false,
			"We can't accept wire transfers or cryptocurrency.":                              true,
			"All payment processing is handled by Paddle.":                                   true,
			"Thanks for reaching out about your subscription.":                               true,
			"You can check your usage in the Subscription section of your account settings.": true},
	}, {
		rule: "a sentence without commitment language is struck when the unit it restates says it of others (practice corpus)",
		sections: []policy.Evidence{
			{ChunkID: "paying", Title: "Failed payments", Text: "Paying by other means\nTeam workspaces can pay an open invoice by bank transfer from the Billing page. Solo accepts cards only."},
			{ChunkID: "refunds", Title: "Refunds", Text: "Annual plans\nAn annual Solo or Team plan can be refunded in full within 21 days of purchase or renewal."},
			{ChunkID: "po", Title: "Invoices and tax", Text: "Purchase order numbers\nPurchase order numbers can be printed on invoices for Enterprise contracts only."},
			{ChunkID: "packs", Title: "Refunds", Text: "Storage add-ons\nExtra storage packs are billed monthly and are never refunded, on any plan."}},
		kept: map[string]bool{
			"Solo workspaces can pay by bank transfer.":                    false,
			"Purchase order numbers can be printed on any invoice.":        false,
			"Storage packs are billed yearly.":                             false,
			"Team workspaces can pay an open invoice by bank transfer.":    true,
			"Solo accepts cards only.":                                     true,
			"Purchase order numbers are printed for Enterprise contracts.": true,
			"Extra storage packs are billed monthly.":                      true},
	}, {
		rule: "a unit that places an event the other way round (before, not after) does not back the sentence",
		sections: []policy.Evidence{
			{ChunkID: "extensions", Title: "Trials", Text: "Extending a trial\nSupport agents can extend a trial once, by 7 days, when the customer asks before the trial ends."},
			{ChunkID: "po", Title: "Enterprise invoicing", Text: "Purchase orders\nA new purchase order number must reach us before the renewal date."}},
		kept: map[string]bool{
			"We can extend your trial even after it has ended.":                              false,
			"We can extend your trial once, before it ends.":                                 true,
			"We'll add a new purchase order number if it reaches us after the renewal date.": false,
			"A new purchase order number must reach us before renewal.":                      true},
	}, {
		rule: `"nothing" as a subject denies its predicate of every subject (help center)`,
		sections: []policy.Evidence{
			{ChunkID: "upgrade", Title: "Upgrade from trial to a paid subscription", Text: "All stats collected during your trial are kept. Nothing is reset when you upgrade."},
			{ChunkID: "free", Title: "The Free plan", Text: "Limits\nWhen a Free workspace reaches its limits, new uploads are blocked. Nothing is charged automatically."},
			{ChunkID: "trial", Title: "Trials", Text: "Nothing is charged until the trial ends. Your card is charged when the trial ends."}},
		kept: map[string]bool{
			"Stats collected during your trial are reset when you upgrade.":                            false,
			"Your stats are kept when you upgrade.":                                                    true,
			"When a Free workspace reaches its limits, we charge for the extra storage automatically.": false,
			"We charge your card when the trial ends.":                                                 true},
	}, {
		rule: `"of" after a time noun is a condition: "within an hour of cancelling" says when`,
		sections: []policy.Evidence{
			{ChunkID: "cancel", Title: "Cancelling a subscription", Text: "How to cancel\nThe account owner or a billing admin cancels under Settings, Billing, Cancel subscription. We send a confirmation email within 1 hour; if it does not arrive, the cancellation did not go through."}},
		kept: map[string]bool{
			"You'll get a confirmation email within an hour of cancelling.": true,
			"You'll get a refund within an hour of cancelling.":             false},
	}, {
		rule: `a negation reaches through a verb of permission; a denied timing ("not … immediately") backs no sentence that says it (help center)`,
		sections: []policy.Evidence{
			{ChunkID: "vat", Title: "Billing FAQ", Text: "How do I change my VAT number?\nPaddle does not allow editing the VAT number on an existing subscription."},
			{ChunkID: "data", Title: "Cancel your subscription plan", Text: "What happens after you cancel\nYour dashboard is locked. Your data is not deleted immediately. You can delete your data at any time, before or after canceling, from your account settings."}},
		kept: map[string]bool{
			"You can't edit the VAT number on an existing subscription.": true,
			"You can edit the VAT number on an existing subscription.":   false,
			"Your data is deleted as soon as you cancel.":                false,
			"Your data isn't deleted immediately.":                       true},
	}, {
		rule: "a purchase and a renewal are different charges: a window stated for one does not back the other",
		sections: []policy.Evidence{
			{ChunkID: "first", Title: "Annual refunds in the US and APAC", Text: "First annual purchase\nA first annual purchase of a Pro or Business plan can be refunded in full within 30 days of the purchase date."},
			{ChunkID: "renewals", Title: "Annual refunds in the US and APAC", Text: "Annual renewals\nAn annual renewal can be refunded in full within 7 days of the renewal date."},
			{ChunkID: "eu", Title: "Annual refunds in the EU", Text: "Annual Pro and Business plans can be refunded in full within 14 days of the purchase or renewal date."}},
		kept: map[string]bool{
			"Annual renewals can be refunded within 30 days of the renewal date.": false,
			"Annual renewals can be refunded within 7 days of the renewal date.":  true,
			"An annual purchase can be refunded within 30 days.":                  true,
			"An annual renewal can be refunded within 14 days.":                   true},
	}, {
		rule: "a sentence listing plans states each plan's figures of that plan only; a price needs no words of its own; an article before an amount is the amount's (sources written outside the team)",
		sections: []policy.Evidence{
			{ChunkID: "plans", Text: "Lumen Mobile offers three monthly plans: Starter at £12 per month with 10 GB of data, Everyday at £20 per month with 50 GB, and Unlimited Plus at £32 per month with unlimited data."},
			{ChunkID: "roaming", Text: "Roaming in EU countries is included at no extra cost on the Everyday and Unlimited Plus plans. On the Starter plan, EU roaming is charged at £2 per day."},
			{ChunkID: "late", Text: "A late payment fee of £5 is added to the next bill when an invoice is more than 14 days overdue. Customers on the Unlimited Plus plan can ask for the first late fee in any 12-month period to be waived."},
			{ChunkID: "excess", Text: "The excess is £99 per claim on Essential, £75 per condition on Complete, and £60 per condition on Lifetime."}},
		kept: map[string]bool{
			"On Complete, the excess is £75 per condition.":                                          true,
			"On Essential, the excess is £60 per condition.":                                         false,
			"The Starter plan costs £12 a month and comes with 10 GB of data.":                       true,
			"Starter is £12 per month and Everyday is £20 per month.":                                true,
			"The Everyday plan costs £12 a month.":                                                   false,
			"The Starter plan costs £20 a month.":                                                    false,
			"A £5 late fee is added to your next bill once an invoice is more than 14 days overdue.": true,
			"Every customer can ask for their first late fee in a 12-month period to be waived.":     false,
			"As an Everyday customer, you can ask for your first late fee to be waived.":             false,
			"Could you confirm the last four digits of the card on your account?":                    true},
	}, {
		rule: "a timing is lent only by a unit that states a verb of the sentence or none; a duration counts from its event (sources written outside the team)",
		sections: []policy.Evidence{
			{ChunkID: "change", Text: "Upgrades to a higher plan take effect immediately and the difference is charged pro rata for the rest of the billing cycle. Downgrades take effect at the start of the next billing cycle."},
			{ChunkID: "gift", Text: "Gift cards are valid for 3 years from the date of purchase and can be used toward any plan, but not toward shipping fees."}},
		kept: map[string]bool{
			"Downgrades take effect at the start of your next billing cycle.": true,
			"Downgrades take effect immediately.":                             false,
			"Upgrades take effect at the start of your next billing cycle.":   false,
			"Gift cards are valid for 3 years from the date of purchase.":     true,
			"Gift cards are valid for 3 years from activation.":               false},
	}, {
		rule: "a negation after nouns joined by \"and\" denies all of them (Plausible's billing page)",
		sections: []policy.Evidence{
			{ChunkID: "payment", Text: "Credit/debit card, PayPal, Apple Pay and Google Pay. All payment processing is handled by Paddle. We're not able to accept wire transfers, manual invoicing or cryptocurrency."}},
		kept: map[string]bool{
			"Wire transfers and cryptocurrency can't be accepted as payment.": true,
			"Wire transfers and cryptocurrency can be accepted as payment.":   false},
	}, {
		rule: "a plan the sentence names and no source does is another plan than every unit's (Plausible's plans page)",
		sections: []policy.Evidence{
			{ChunkID: "trial", Text: "All plans include a 30-day free trial, no credit card required. During the trial you have access to all Business plan features and limits, so you can explore the full product before choosing a plan."}},
		kept: map[string]bool{
			"During the 30-day trial you have access to all Business plan features.":   true,
			"During the 30-day trial you have access to all Enterprise plan features.": false},
	}, {
		rule: "\"won't … until\" says when, while \"can't … until\" still denies",
		sections: []policy.Evidence{
			{ChunkID: "change", Text: "Upgrades to a higher plan take effect immediately. Downgrades take effect at the start of the next billing cycle."},
			{ChunkID: "term", Text: "Customers on a 24-month contract can't cancel until the contract ends."}},
		kept: map[string]bool{
			"A downgrade won't kick in until the start of your next billing cycle.": true,
			"You can't cancel your 24-month contract until the contract ends.":      true,
			"You can cancel your 24-month contract until the contract ends.":        false},
	}, {
		rule: "a subject term names one subject in any language, so a German unit shares an English sentence's topic",
		sections: []policy.Evidence{
			{ChunkID: "refund-window", Text: "Jahrespläne werden vollständig erstattet, wenn die Erstattung innerhalb von 14 Tagen ab dem Kaufdatum beantragt wird. Monatliche Zahlungen sind nicht erstattungsfähig."},
			{ChunkID: "late-fee", Text: "Invoices paid more than 10 days after the due date incur a late fee of €15."}},
		kept: map[string]bool{
			"Annual plans are fully refundable if you request the refund within 14 days of the purchase date.":  true,
			"Monthly plans are fully refundable if you request the refund within 14 days of the purchase date.": false},
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

// requireKept checks each sentence of want against sources (any source may back it) and
// reports each whose verdict is not the one given.
func requireKept(t *testing.T, sources []policy.Evidence, want map[string]bool) {
	t.Helper()
	v := defaultVocab(t)
	read := v.Read(sources)
	for sentence, kept := range want {
		if got := v.Check(Input{Reply: sentence, Read: read, Mode: ModeAnySource}).Sentences[0]; got.Kept != kept {
			t.Errorf("%q: kept=%v (%s), want %v", sentence, got.Kept, got.Reason, kept)
		}
	}
}
