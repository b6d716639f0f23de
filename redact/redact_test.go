package redact_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/supportdraft/supportdraft/redact"
)

func TestTextHidesPersonalDataAndRestores(t *testing.T) {
	t.Parallel()
	in := "Hi, Jane Doe here (jane.doe@example.com, +44 20 7946 0958). Card 4111 1111 1111 1111 was charged €49 on 2026-03-01; " +
		"refund to IBAN DE89 3704 0044 0532 0130 00 please. Jane again: mail jane.doe@example.com. Order 1234567890123 is unrelated."
	tab := redact.NewTable()
	out := redact.Text(in, []string{"Jane Doe", "Jane"}, tab)
	for _, secret := range []string{"Jane", "jane.doe@example.com", "7946", "4111", "DE89"} {
		assert.NotContains(t, out, secret)
	}
	for _, kept := range []string{"€49", "2026-03-01", "Order 1234567890123"} {
		assert.Contains(t, out, kept, "amounts, dates and non-card numbers stay")
	}
	assert.Contains(t, out, "[EMAIL_1]")
	assert.NotContains(t, out, "[EMAIL_2]", "the same address shares one placeholder")
	assert.Equal(t, in, tab.Restore(out))
}

func TestTextLeavesPlainTicketsAlone(t *testing.T) {
	t.Parallel()
	in := "Our annual Pro plan renewed five days ago. Can we get a refund within 14 days? It was 1,188.00 EUR."
	tab := redact.NewTable()
	assert.Equal(t, in, redact.Text(in, nil, tab))
	assert.Zero(t, tab.Len())
}
