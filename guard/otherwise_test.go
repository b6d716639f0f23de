package guard

import (
	"testing"

	"github.com/supportdraft/supportdraft/policy"
)

// A commitment no eligible source backs comes with the policy sentence that speaks of the
// same thing (the same verb or unit, the same subject, words in common), so the agent
// reads what to say instead; a sentence nothing in policy speaks of gets none, guidance
// for agents is never offered, and drafting (whose strikes show their claims' quotes)
// leaves it out.
func TestCheckOffersWhatPolicySaysInstead(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	sources := []policy.Evidence{
		{ChunkID: "billing/refunds-annual@4#refund-window", Text: "This policy applies to annual plans in the EU.\n\n" +
			"Annual Pro and Business plans can be refunded in full within 14 days of the purchase date or the renewal date. After 14 days, an annual plan is not refundable."},
		{ChunkID: "billing/refunds-annual@4#what-is-refunded", Text: "Refunds go back to the original payment method within 5 to 10 business days."},
		{ChunkID: "billing/cancellation@3#notice", Text: "You can cancel with 30 days notice."},
		{ChunkID: "macros/chargeback@1#notes-for-agents", Source: policy.SourceMacro,
			Text: "Do not promise a discount of 20% on the renewal of an annual plan."},
	}
	read := v.Read(sources)
	for _, tt := range []struct {
		sentence, source, text string
	}{
		{"You can get a full refund within 60 days of renewal.", "billing/refunds-annual@4#refund-window",
			"Annual Pro and Business plans can be refunded in full within 14 days of the purchase date or the renewal date."},
		{"The refund reaches your original payment method within 2 business days.", "billing/refunds-annual@4#what-is-refunded",
			"Refunds go back to the original payment method within 5 to 10 business days."},
		{"We will give you a discount of 20% on the renewal of your annual plan.", "", ""},
		{"We will ship you a free hoodie within 3 days.", "", ""},
	} {
		got := v.Check(Input{Reply: tt.sentence, Read: read, Mode: ModeAnySource}).Sentences[0]
		if got.Kept {
			t.Errorf("%q: kept (%s), want struck", tt.sentence, got.Reason)
			continue
		}
		switch {
		case tt.source == "" && got.Otherwise != nil:
			t.Errorf("%q: offered %+v, want nothing", tt.sentence, *got.Otherwise)
		case tt.source != "" && (got.Otherwise == nil || *got.Otherwise != Otherwise{SourceID: tt.source, Text: tt.text}):
			t.Errorf("%q: offered %+v, want %q from %s", tt.sentence, got.Otherwise, tt.text, tt.source)
		}
	}
	drafted := v.Check(Input{Reply: "You can get a full refund within 60 days of renewal.", Sources: sources, Mode: ModeDraft,
		Claims: []Claim{{Sentence: "You can get a full refund within 60 days of renewal.", SourceIDs: []string{"billing/refunds-annual@4#refund-window"}}}})
	if s := drafted.Sentences[0]; s.Kept || s.Otherwise != nil {
		t.Errorf("drafting: kept=%v otherwise=%+v, want struck with nothing offered", s.Kept, s.Otherwise)
	}
}
