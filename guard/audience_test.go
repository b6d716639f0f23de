package guard

import (
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/policy"
)

// A section headed for agents (the sample corpus's chargeback macro) is context, never
// quoted: a sentence restating it is struck, even when a customer-facing section of the
// same macro backs its number. A sentence restating the customer-facing section stays.
func TestCheckStrikesQuotesOfAgentSections(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	sources := []policy.Evidence{
		{ChunkID: "macros/chargeback-acknowledgement@1#what-happens-to-the-account", Source: policy.SourceMacro,
			Text: "An account with an open chargeback stays active. If the bank decides the dispute in the customer's favour, the account moves to the Free plan at the end of the disputed billing period."},
		{ChunkID: "macros/chargeback-acknowledgement@1#notes-for-agents", Source: policy.SourceMacro,
			Text: "Do not promise a refund or a credit in a chargeback ticket. The billing operations team answers the bank with evidence within 7 days of the notice."},
	}
	read := v.Read(sources)
	for _, tt := range []struct {
		sentence string
		agents   bool
	}{
		{"Our billing operations team answers the bank with evidence within 7 days of the notice.", true},
		{"The billing operations team answers the bank with evidence within 7 days of the notice.", true}, // word for word
		{"The billing operations team will answer your bank with evidence within 7 days.", true},
		{"If the bank decides the dispute in your favour, the account moves to the Free plan at the end of the disputed billing period.", false},
	} {
		res := v.Check(Input{Reply: tt.sentence, Read: read, Mode: ModeAnySource})
		got := res.Sentences[0]
		if quoted := strings.HasPrefix(got.Reason, "quotes guidance written for support agents"); quoted != tt.agents || quoted && got.Kept {
			t.Errorf("%q: kept=%v reason=%q, want struck for quoting agents: %v", tt.sentence, got.Kept, got.Reason, tt.agents)
		}
	}
	for id, want := range map[string]bool{"a@1#notes-for-agents": true, "a@1#internal": true, "a@1#agent-notes-part-2": true,
		"a@1#refund-window": false, "a@1#agentur": false, "a@1": false} {
		if got := forAgentsSection(id); got != want {
			t.Errorf("forAgentsSection(%q) = %v, want %v", id, got, want)
		}
	}
}

// Macro wording is fixed: repeated word for word it is kept, reworded it is struck with
// that reason, unless another (not fixed) source backs the sentence too.
func TestCheckFixedWordingOnlyWordForWord(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	macro := policy.Evidence{ChunkID: "macros/refund-confirmed@1#intro", Source: policy.SourceMacro,
		Text: "Your refund has been issued. It reaches the original payment method within 10 business days."}
	wiki := policy.Evidence{ChunkID: "billing/refunds@2#timing", Source: policy.SourceWiki,
		Text: "Refunds go back to the original payment method within 10 business days."}
	for _, tt := range []struct {
		sentence string
		sources  []policy.Evidence
		kept     bool
		reason   string
	}{
		{"It reaches the original payment method within 10 business days.", []policy.Evidence{macro}, true, "verbatim approved macro"},
		{"Your money should be back on the original payment method within 10 business days.", []policy.Evidence{macro}, false, "paraphrases the fixed wording of macros/refund-confirmed@1#intro"},
		{"Your refund goes back to the original payment method within 10 business days.", []policy.Evidence{macro, wiki}, true, "backed by billing/refunds@2#timing"},
	} {
		res := v.Check(Input{Reply: tt.sentence, Read: v.Read(tt.sources), Mode: ModeAnySource})
		got := res.Sentences[0]
		if got.Kept != tt.kept || !strings.HasPrefix(got.Reason, tt.reason) {
			t.Errorf("%q: kept=%v reason=%q, want kept=%v reason %q…", tt.sentence, got.Kept, got.Reason, tt.kept, tt.reason)
		}
	}
}
