package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/llm"
)

// The bench drafts what it says: tickets of the asked sizes, the large one cut to the caps.
func TestDrafterScalesTheTicketAndCapsTheLargeOne(t *testing.T) {
	t.Parallel()
	vocab, err := guard.DefaultVocabulary()
	require.NoError(t, err)
	res, err := Drafter(vocab, DrafterOptions{Sizes: []int{1, 100}, Rounds: 1})
	require.NoError(t, err)
	require.Len(t, res.Sizes, 2)
	small, large := res.Sizes[0], res.Sizes[1]
	assert.False(t, small.Truncated)
	assert.Equal(t, small.Chars, small.ReadChars)
	assert.InDelta(t, 100*small.Chars, large.Chars, 100)
	assert.True(t, large.Truncated)
	assert.LessOrEqual(t, large.ReadChars, llm.DefaultLimits.Chars)
	assert.Equal(t, 1.0, small.CappedRatio)
}
