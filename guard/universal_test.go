package guard

import (
	"testing"

	"github.com/supportdraft/supportdraft/policy"
)

// A sentence that says of every plan, customer, user or payment what a source says of
// some is struck, and its reason names whom or what the source limits it to; one that
// names the source's subjects and limits, narrows them itself, or quantifies over time is
// kept.
func TestCheckStrikesWhatIsSaidOfAllFromAUnitAboutFewer(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	read := v.Read([]policy.Evidence{
		{ChunkID: "refunds", Text: "Annual Pro plans can be refunded within 14 days of the renewal date."},
		{ChunkID: "cancel", Text: "Owners can cancel from Settings > Billing."},
		{ChunkID: "packs", Text: "A storage pack adds 1 TB for $15 per month on Solo or Team."},
		{ChunkID: "trial", Text: "Every new workspace gets a 14-day free trial of the Business plan."},
		{ChunkID: "discount", Text: "The discount is 15% off your first payment on a Business plan with annual billing."},
		{ChunkID: "vat", Text: "Paddle will automatically refund the VAT on your original payment."},
	})
	tests := []struct {
		sentence string
		struckOf string // "" when kept; else what the reason says the source limits it to
	}{
		{"All plans can be refunded within 14 days of the renewal date.", "of annual, pro"},
		{"Anyone can cancel from Settings > Billing.", "of owner"},
		{"Jeder Tarif kann innerhalb von 14 Tagen erstattet werden.", "of annual, pro, renewal"},
		{"The discount is 15% off every payment on a Business plan with annual billing.", `with "first"`},
		{"The discount is 15% off your first payment on a Business plan with annual billing.", ""},
		{"Paddle will refund the VAT on all your previous payments.", `with "original"`},
		{"Annual Pro plans can be refunded within 14 days of the renewal date.", ""},
		{"Anyone on Team can add a storage pack for $15 per month.", ""},
		{"Every new workspace gets a 14-day free trial.", ""},
		{"Owners can cancel at any time from Settings > Billing.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.sentence, func(t *testing.T) {
			t.Parallel()
			res := v.Check(Input{Reply: tt.sentence, Read: read, Mode: ModeAnySource})
			got := res.Sentences[0]
			if tt.struckOf == "" {
				if !got.Kept {
					t.Fatalf("struck (%s); want kept", got.Reason)
				}
				return
			}
			if want := "it says this of all, but the eligible sources say it only " + tt.struckOf; got.Kept || got.Reason != want {
				t.Fatalf("kept=%v reason=%q; want struck with %q", got.Kept, got.Reason, want)
			}
		})
	}
}
