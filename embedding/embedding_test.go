package embedding_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/embedding"
)

func dot(a, b []float32) float64 {
	s := 0.0
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// A long, polite email must be closest to the section on its topic, not to a long, polite
// macro that shares only its courtesy words.
func TestHashingRanksTheTopicAboveTheSmallTalk(t *testing.T) {
	t.Parallel()
	h := embedding.NewHashing(256)
	v, err := h.Embed(context.Background(), []string{
		"Hi there, thanks for your help. We would like to know if we can still get a refund for our annual plan. Please let us know, thanks!",
		"Hi, thanks for getting in touch with us. We are sorry to hear about this and we will let you know as soon as we can. Thanks for your patience.",
		"Annual plans can be refunded in full within 14 days of the renewal.",
	})
	require.NoError(t, err)
	email, macro, section := v[0], v[1], v[2]
	assert.Greater(t, dot(email, section), dot(email, macro))
	assert.InDelta(t, 1, dot(section, section), 1e-5, "unit vectors")
}

// A German question finds the English section on its topic: most policies exist only in
// English, and German billing words are read as the English ones (the glossary of package text).
func TestHashingMatchesGermanBillingWordsToTheEnglishPolicy(t *testing.T) {
	t.Parallel()
	v, err := embedding.NewHashing(256).Embed(context.Background(), []string{
		"Die Adresse auf unserer Rechnung ist falsch. Können Sie die Rechnung korrigieren?",
		"An invoice can be corrected within 12 months: write to billing support with the new address.",
		"Annual plans can be refunded in full within 14 days of the renewal.",
	})
	require.NoError(t, err)
	question, invoices, refunds := v[0], v[1], v[2]
	assert.Greater(t, dot(question, invoices), dot(question, refunds)+0.1)
}

func TestHashingIsDeterministicAndNamesItsVersion(t *testing.T) {
	t.Parallel()
	h := embedding.NewHashing(64)
	a, _ := h.Embed(context.Background(), []string{"Refund within 14 days"})
	b, _ := h.Embed(context.Background(), []string{"Refund within 14 days"})
	assert.Equal(t, a, b)
	assert.Equal(t, "hashing-v3:64", h.Name())
}
