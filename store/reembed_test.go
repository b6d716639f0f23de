package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/pgvector/pgvector-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

// embedderCounts maps each stored embedder name (and vector size) to its chunk count.
func embedderCounts(t *testing.T, s *store.Store) map[string]int {
	t.Helper()
	rows, err := s.Pool().Query(context.Background(),
		`SELECT embedder || '/' || vector_dims(embedding), count(*)::int FROM chunks GROUP BY 1`)
	require.NoError(t, err)
	out := map[string]int{}
	for rows.Next() {
		var name string
		var n int
		require.NoError(t, rows.Scan(&name, &n))
		out[name] = n
	}
	require.NoError(t, rows.Err())
	return out
}

// TestReembed switches the sample corpus from a 64- to a 128-dimension embedder: every
// chunk is rewritten with the new name and vector, retrieval works with the new
// embedder only, and a second run has nothing to do.
func TestReembed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	old, next := embedding.NewHashing(64), embedding.NewHashing(128)
	versions, err := policy.ParseDir(testenv.SampleCorpus())
	require.NoError(t, err)
	_, err = s.Import(ctx, versions, old)
	require.NoError(t, err)
	var total int
	for _, v := range versions {
		total += len(v.Chunks)
	}
	require.Equal(t, map[string]int{"hashing-v3:64/64": total}, embedderCounts(t, s))

	var progress [][2]int
	n, err := s.Reembed(ctx, next, func(done, all int) { progress = append(progress, [2]int{done, all}) })
	require.NoError(t, err)
	assert.Equal(t, total, n, "every chunk is rewritten")
	assert.Equal(t, map[string]int{"hashing-v3:128/128": total}, embedderCounts(t, s))
	require.NotEmpty(t, progress)
	assert.Equal(t, [2]int{total, total}, progress[len(progress)-1], "progress ends at the total")
	for i := 1; i < len(progress); i++ {
		assert.Greater(t, progress[i][0], progress[i-1][0], "progress only grows")
	}

	// The stored vector is the new embedder's vector of the chunk's text.
	c := versions[0].Chunks[0]
	var got pgvector.Vector
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT embedding FROM chunks WHERE id = $1`, c.ID).Scan(&got))
	want, err := next.Embed(ctx, []string{c.Text})
	require.NoError(t, err)
	assert.InDeltaSlice(t, want[0], got.Slice(), 1e-6)

	// Retrieval with the new embedder finds the corpus; with the old name, nothing remains.
	at := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	for _, e := range []struct {
		emb  *embedding.Hashing
		want bool
	}{{next, true}, {old, false}} {
		vec, err := e.emb.Embed(ctx, []string{"refund annual plan"})
		require.NoError(t, err)
		hits, err := s.Eligible(ctx, store.Query{At: at, Account: proEU, Text: "refund annual plan", Vector: vec[0], Embedder: e.emb.Name(), K: 5})
		require.NoError(t, err, e.emb.Name())
		assert.Equal(t, e.want, len(hits) > 0, "hits with %s", e.emb.Name())
	}

	progress = nil
	n, err = s.Reembed(ctx, next, func(done, all int) { progress = append(progress, [2]int{done, all}) })
	require.NoError(t, err)
	assert.Zero(t, n, "a second run has nothing to re-embed")
	assert.Empty(t, progress)
}

// TestMixedEmbedders: while a corpus is half re-embedded, vectors of two sizes sit side by
// side. Retrieval must compare only vectors of the query's embedder (and not fail on the
// others' dimensions), and Reembed rewrites only the stale ones.
func TestMixedEmbedders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	small, big := embedding.NewHashing(64), embedding.NewHashing(128)
	a := file{doc: "billing/a", version: 1, from: "2025-01-01T00:00:00Z"}.parse(t)
	b := file{doc: "billing/b", version: 1, from: "2025-01-01T00:00:00Z"}.parse(t)
	_, err := s.Import(ctx, []*policy.Version{a}, small)
	require.NoError(t, err)
	_, err = s.Import(ctx, []*policy.Version{b}, big)
	require.NoError(t, err)

	vec, err := big.Embed(ctx, []string{"refund window"})
	require.NoError(t, err)
	for _, run := range []struct {
		name  string
		query func(context.Context, store.Query) ([]store.Hit, error)
	}{{"Eligible", s.Eligible}, {"SimilarityOnly", s.SimilarityOnly}} {
		hits, err := run.query(ctx, store.Query{At: time.Now(), Account: proEU,
			Text: "refund window", Vector: vec[0], Embedder: big.Name(), K: 50})
		require.NoError(t, err, run.name)
		require.Len(t, hits, len(b.Chunks), run.name)
		for _, h := range hits {
			assert.Equal(t, "billing/b", h.DocID, run.name)
		}
	}

	n, err := s.Reembed(ctx, big, nil)
	require.NoError(t, err)
	assert.Equal(t, len(a.Chunks), n, "only the 64-dimension chunks are stale")
	assert.Equal(t, map[string]int{"hashing-v3:128/128": len(a.Chunks) + len(b.Chunks)}, embedderCounts(t, s))
}
