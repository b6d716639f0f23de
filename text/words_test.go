package text

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStemMeetsInflections(t *testing.T) {
	t.Parallel()
	groups := [][]string{
		{"refund", "refunds", "refunded", "refundable"},
		{"cancel", "cancelled", "cancellation"},
		{"plan", "plans"},
		{"invoice", "invoices", "invoiced"},
		{"charge", "charges", "charged"},
		{"renewal", "renewed"},
		{"erstattung", "erstattungen"},
		{"tage", "tagen"},
	}
	for _, g := range groups {
		for _, w := range g[1:] {
			assert.Equal(t, Stem(g[0]), Stem(w), "%s vs %s", g[0], w)
		}
	}
}

func TestContentStems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string // stems are comparison keys, not words
	}{
		{"Hi, can I get my money back for the 14 days?", []string{"refund", "day"}},
		{"Rückerstattung der Rechnung, bitte", []string{"refund", "invoic"}},
		{"Refunds, refunded, REFUND", []string{"refund"}},
		{"I want a receipt and to unsubscribe", []string{"invoic", "cancel"}},
		{"Thanks!", nil},
		{"We deleted 3 users", []string{"remov", "seat"}},
		{"Our card was declined, does the credit run out?", []string{"card", "fail", "credit", "expir"}},
		{"We are a charity (an NGO, not-for-profit)", []string{"nonprofit"}},
		{"Please terminate or close my account", []string{"cancel", "account"}},
		{"this month's charge", []string{"month", "charg"}},
		{"Trial extension?", []string{"tri", "extend"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, ContentStems(tt.text), tt.text)
	}
}

func TestFold(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "we don't refund it", Fold("  We don’t\n\trefund  IT "))
	assert.Equal(t, "We don’t refund", CollapseSpace(" We don’t\nrefund "))
}

func TestLooksGerman(t *testing.T) {
	t.Parallel()
	assert.True(t, LooksGerman("Die Rechnung ist nicht korrekt und wir können sie nicht bezahlen."))
	assert.False(t, LooksGerman("The invoice is not correct and we cannot pay it."))
}

// WordSpans names each word where it stands, folded for comparison, an apostrophe between
// letters kept inside the word and a typographic one read as the plain one.
func TestWordSpans(t *testing.T) {
	s := "Don’t LOG-in: e-mail us, 'quoted' 14 days."
	var words []string
	for _, w := range WordSpans(s) {
		words = append(words, w.Word)
		if got := Fold(s[w.Start:w.End]); got != w.Word {
			t.Errorf("span %q at %d:%d folds to %q, want %q", s[w.Start:w.End], w.Start, w.End, got, w.Word)
		}
	}
	want := []string{"don't", "log", "in", "e", "mail", "us", "quoted", "14", "days"}
	assert.Equal(t, want, words)
}
