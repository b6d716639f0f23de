package guard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A commitment written with invisible characters or look-alike letters is flagged like
// the plain one: the guard reads the normalised text.
func TestGuardReadsThroughDisguises(t *testing.T) {
	v := defaultVocab(t)
	plain := "We will refund the fee within 14 days."
	want := v.Verbs(plain)
	require.NotEmpty(t, want)
	for _, disguised := range []string{
		"We will r\u0435fund the fee within 14 days.",  // Cyrillic е
		"We will re\u200bfund the fee within 14 days.", // zero-width space
		"We will re&shy;fund the fee within 14 days.",  // soft hyphen as written in HTML
		"We will ｒｅｆｕｎｄ the fee within １４ days.",       // full-width letters and digits
	} {
		assert.Equal(t, want, v.Verbs(disguised), disguised)
		assert.Equal(t, len(v.Flags(plain)), len(v.Flags(disguised)), disguised)
	}
}
