package guard

import (
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/policy"
)

// Sources from the practice corpus (written outside the
// team) and from the issue that asked for this check; each sentence restates one of them
// with the same or the opposite polarity.
func TestCheckStrikesTheOppositePolarity(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	sources := []policy.Evidence{
		{ChunkID: "credits", Text: "Credits can be used against future invoices. Credits are never paid out as cash."},
		{ChunkID: "payments", Text: "If the payment still fails after 10 days, the workspace becomes read-only: restores keep " +
			"working, new backups stop. After 60 days without payment the workspace and its backups are deleted, and this cannot be undone."},
		{ChunkID: "refunds", Text: "Refunds go back to the card or account that paid, within 10 business days. We cannot send a refund to a different card."},
		{ChunkID: "plan-changes", Text: "A downgrade takes effect at the end of the current billing period, and the unused part of " +
			"the period is not refunded. Annual plans can switch to monthly only at renewal."},
		{ChunkID: "storage", Text: "Extra storage packs are billed monthly and are never refunded, on any plan."},
		{ChunkID: "cancel", Text: "Monthly plans are not refunded. Cancelling stops the next charge, and the plan stays active " +
			"until the end of the month already paid."},
		{ChunkID: "seats", Text: "None of the removed seats are credited to the next invoice."},
		{ChunkID: "partial", Text: "Partial refunds and duplicate charges\nWe do not refund partial months."},
		{ChunkID: "hardware", Text: "Unused hardware can be returned within 30 days of delivery."},
		{ChunkID: "overdraft", Text: "The maximum amount you can avail as an overdraft is Rs. 1 Lakh. The minimum overdraft amount is Rs. 25,000."},
		{ChunkID: "suspension", Text: "After 60 days of suspension, the account is downgraded to the Free plan and the unpaid invoice is written off; it is not sent to a collection agency."},
	}
	tests := []struct {
		sentence string
		opposite bool // struck as the opposite of a source
		kept     bool
	}{
		{"Credits are paid out as cash.", true, false},
		{"We are unable to refund storage packs.", false, true},
		{"We are unable to return unused hardware within 30 days of delivery.", true, false},
		{"Credits are never paid out as cash, but they can be used against future invoices.", false, true},
		{"After 60 days without payment the workspace is deleted, and this can be undone.", true, false},
		{"After 60 days without payment the workspace and its backups are deleted, and this cannot be undone.", false, true},
		{"We can send the refund to a different card within 10 business days.", true, false},
		{"We can't send a refund to a different card.", false, true},
		{"All of the removed seats are credited to the next invoice.", false, false}, // the verb rule strikes it first
		{"Removed seats are never credited to the next invoice.", false, true},
		{"If you cancel, you won't be charged again and the plan stays active until the end of the month already paid.", false, true},
		{"We do not refund partial months.", false, true}, // a title naming the topic is no statement to oppose
		// A negated aside of the source ("not sent to a collection agency") shares one word.
		{"After 60 days of suspension the unpaid invoice is written off and sent to no one; the account is downgraded to the Free plan.", false, true},
		{"After 60 days of suspension, the account is downgraded to the Free plan and the unpaid invoice is written off; it is sent to a collection agency.", true, false},
		// A negative prefix denies the word it opens: "used" hardware is not "unused" hardware.
		{"Used hardware can be returned within 30 days of delivery.", true, false},
		{"Hardware that is unused can be returned within 30 days of delivery.", false, true},
		{"Extra storage packs are non-refundable, on any plan.", false, true},
		// A source that states both bounds is not contradicted by quoting either.
		{"The minimum overdraft amount is Rs. 25,000.", false, true},
		{"The maximum overdraft amount is Rs. 25,000.", true, false},
	}
	read := v.Read(sources)
	for _, tt := range tests {
		t.Run(tt.sentence, func(t *testing.T) {
			t.Parallel()
			res := v.Check(Input{Reply: tt.sentence, Read: read, Mode: ModeAnySource})
			if len(res.Sentences) != 1 {
				t.Fatalf("want one sentence, got %+v", res.Sentences)
			}
			got := res.Sentences[0]
			if opposite := strings.HasPrefix(got.Reason, "says the opposite of"); opposite != tt.opposite || got.Kept != tt.kept {
				t.Fatalf("kept=%v reason=%q; want kept=%v, opposite=%v", got.Kept, got.Reason, tt.kept, tt.opposite)
			}
		})
	}
}

// Every sentence of a source restates that source with its own polarity: reading the
// same words twice must never find them opposite.
func TestPolarityOfASentenceAgreesWithItself(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"After 21 days we do not refund annual plans; the plan stays active until the end of the term.",
		"Discounts cannot be combined.",
		"On Solo, uploads pause when the quota is reached; nothing is charged and existing backups stay safe.",
		"You cannot downgrade while your stored data is larger than the new plan's quota.",
		"Die Gebühr wird nicht erstattet, aber der Plan bleibt aktiv.",
	} {
		p := polarity(s)
		if _, restated := restates(p, p); restated && opposes(p, p) {
			t.Errorf("%q flips against itself: %v", s, p)
		}
	}
	p := polarity("Removed seats are never credited to the next invoice, but the plan stays active and is not refunded.").negated
	if !p["seat"] || !p["invoic"] || p["plan"] || p["activ"] || !p["refund"] {
		t.Errorf("scopes: %v", p)
	}
}
