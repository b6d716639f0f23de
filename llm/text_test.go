package llm

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
		{"erstattung", "erstattungen"},
		{"tage", "tagen"},
	}
	for _, g := range groups {
		for _, w := range g[1:] {
			assert.Equal(t, stem(g[0]), stem(w), "%s vs %s", g[0], w)
		}
	}
}

func TestFacts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string
	}{
		{"within 14 days of purchase", []string{"14 day"}},
		{"a 30-day refund window", []string{"30 day"}},
		{"fourteen calendar days", []string{"14 day"}},
		{"one of our plans", nil},
		{"one month", []string{"1 month"}},
		{"a fee of €1,000.50 or 20%", []string{"1000.5", "20 percent"}},
		{"innerhalb von 14 Tagen", []string{"14 day"}},
		{"5–10 business days", []string{"5", "10 day"}},
	}
	for _, tc := range tests {
		var got []string
		for _, f := range facts(tc.text) {
			got = append(got, f.String())
		}
		assert.Equal(t, tc.want, got, tc.text)
	}
}

func TestSentenceSpans(t *testing.T) {
	t.Parallel()
	text := "Fees are 5.50 EUR, e.g. for cards. Refunds take 5 days!\n- Second item here\nLast one"
	assert.Equal(t, []string{"Fees are 5.50 EUR, e.g. for cards.", "Refunds take 5 days!", "Second item here", "Last one"}, sentences(text))
}
