package store_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTermsCountsTheWholeKnowledgeBase: the drafter reads how many of the agent's chunks
// hold each word of a question as the store stems it ("refunded" is refund's), and a word
// no chunk holds is looked up with 0, so the drafter can tell it from a word not read.
func TestTermsCountsTheWholeKnowledgeBase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := twoDocuments(t)
	terms, err := s.Terms(ctx, []string{"Refunded", "saml", "the"})
	require.NoError(t, err)
	assert.Equal(t, 6, terms.Chunks)
	n, ok := terms.Known("refunded")
	assert.True(t, ok)
	assert.Equal(t, 3, n, "'refunded' stems to refund in one section of each of three versions")
	n, ok = terms.Known("SAML")
	assert.True(t, ok, "a word no chunk holds is read, as held by none")
	assert.Zero(t, n)
	_, ok = terms.Known("the")
	assert.False(t, ok, "a stopword has no lexeme to count")
}

// TestTermTotalsMatchARecount: the totals Import keeps as it goes (chunks, tokens, and the
// versions the document arm's mean length divides by) are what a recount of every stored
// chunk finds, so bulk loaders (RecountTerms) and imports rank alike.
func TestTermTotalsMatchARecount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := twoDocuments(t)
	totals := func() [3]int64 {
		var out [3]int64
		require.NoError(t, s.DB().QueryRow(ctx, `SELECT chunks, tokens, versions FROM lexicon`).Scan(&out[0], &out[1], &out[2]))
		return out
	}
	kept := totals()
	assert.Equal(t, int64(3), kept[2], "three versions imported")
	require.NoError(t, s.RecountTerms(ctx))
	assert.Equal(t, kept, totals())
}

// TestVersionLengthsFollowTheChunks: the length the document arm normalises a version by
// (version_lengths, kept by a trigger on every insert of chunks) is the sum of its chunks'
// lengths, for every version, whether its chunks came one statement each (Import) or many
// in one (a bulk loader).
func TestVersionLengthsFollowTheChunks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := twoDocuments(t)
	mustImport(t, s, file{doc: "a", version: 2, from: "2026-01-01T00:00:00Z"}) // unchanged: counted once
	_, err := s.DB().Exec(ctx, `
		INSERT INTO chunks (id, version_id, anchor, heading, ord, text, embedder, embedding)
		SELECT id || '-copy', version_id, anchor || '-copy', heading, ord + 100, text, embedder, embedding
		FROM chunks WHERE version_id = (SELECT min(version_id) FROM chunks)`)
	require.NoError(t, err)
	var versions, wrong int
	require.NoError(t, s.DB().QueryRow(ctx, `
		SELECT count(*), count(*) FILTER (WHERE l.tokens IS DISTINCT FROM c.len)
		FROM (SELECT version_id, sum(lex_len) AS len FROM chunks GROUP BY 1) c
		FULL JOIN version_lengths l USING (version_id)`).Scan(&versions, &wrong))
	assert.Equal(t, 3, versions)
	assert.Zero(t, wrong, "versions whose kept length is not their chunks' sum")
}
