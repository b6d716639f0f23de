package local

import (
	"maps"
	"testing"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

var spellingEvidence = []policy.Evidence{
	{ChunkID: "billing/refunds@1#timing", DocID: "billing/refunds", Version: 1, Title: "Refunds",
		Text: "When refunds arrive\nApproved refunds are refunded to the original card within 8 business days."},
	{ChunkID: "billing/invoices@1#copies", DocID: "billing/invoices", Version: 1, Title: "Invoices",
		Text: "Invoice copies\nAdmins can download every invoice from the billing page."},
	{ChunkID: "billing/data@1#export", DocID: "billing/data", Version: 1, Title: "Data",
		Text: "Export\nThe export holds your data. Exports expire after 24 hours."},
}

// A misspelt question word is read as the one word of the evidence it is a typo of; a
// word the evidence holds as it is, or two typos from every word, is left alone.
func TestSpellingFixesReadATypoAsTheEvidenceWord(t *testing.T) {
	t.Parallel()
	stems := make([]map[string]bool, len(spellingEvidence))
	for i, ev := range spellingEvidence {
		stems[i] = text.StemSet(ev.Title + "\n" + ev.Text)
	}
	got := spellingFixes("When will I get reefunded? Where are the invoces? Is the export exported?", spellingEvidence, stems)
	want := map[string]string{text.Stem("reefunded"): text.Stem("refunded"), text.Stem("invoces"): text.Stem("invoice")}
	if !maps.Equal(got, want) {
		t.Errorf("spellingFixes = %v, want %v", got, want)
	}
	// "exportd" is one typo from "export" and from "exports", one stem: fixed. "xeprots"
	// is two typos from every word: left alone.
	got = spellingFixes("exportd xeprots", spellingEvidence, stems)
	if len(got) != 1 || got[text.Stem("exportd")] != text.Stem("export") {
		t.Errorf("spellingFixes = %v, want only exportd read as export", got)
	}
}

// The drafter answers a question whose key word is misspelt from the section that word
// names, as it does for the word spelt right.
func TestMisspeltQuestionFindsItsSection(t *testing.T) {
	t.Parallel()
	for _, body := range []string{"How long until we get reefunded?", "How long until we get refunded?"} {
		answersWith(t, body, body, spellingEvidence, "8 business days")
	}
}

func TestSlipOfTheKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"reefunded", "refunded", true}, {"paymets", "payments", true}, {"canecl", "cancel", true},
		{"right", "light", false}, {"cancel", "cancel", false}, {"refund", "refunds2x", false}, {"abcd", "badc", false},
	} {
		if got := slipOfTheKey(c.a, c.b); got != c.want {
			t.Errorf("slipOfTheKey(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// A word no section holds that is a typo of a stopword or of support chatter ("vile" for
// "viel", "dazzu" for "dazu") weighs as little as the word meant, while a word of
// substance no section holds ("Mehrwertsteuer", read as VAT) keeps its full weight: typos
// of small words must not outweigh the question's topic.
func TestTypoOfAStopwordWeighsAsChatter(t *testing.T) {
	t.Parallel()
	q := analyseQuestion("", []string{"Wie vile Mehrwertsteuer kommt dazzu?"}, spellingEvidence, nil, true)
	for _, w := range []string{"vile", "dazzu"} {
		if got := q.weight[text.Stem(w)]; got != chatterShare {
			t.Errorf("weight of %q = %v, want %v", w, got, chatterShare)
		}
	}
	if got := q.weight[text.Stem("vat")]; got != 1 {
		t.Errorf("weight of Mehrwertsteuer (vat) = %v, want 1", got)
	}
}
