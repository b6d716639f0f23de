package bench

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/testdb"
)

// TestRetrievalReusesAKeptCorpus: a run with Keep leaves its corpus in place and names it,
// and a run with Schema measures the same cases on it without loading a corpus again.
func TestRetrievalReusesAKeptCorpus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var progress strings.Builder
	opt := RetrievalOptions{Sizes: []int{500}, Queries: 3, RecallQueries: 3, Keep: true, Progress: &progress}
	first, err := Retrieval(ctx, testdb.URL(t), opt)
	require.NoError(t, err)
	kept := regexp.MustCompile(`scratch schema (\S+)`).FindStringSubmatch(progress.String())
	require.NotNil(t, kept, "the kept schema is named: %s", progress.String())
	t.Cleanup(func() {
		conn, err := pgx.Connect(context.Background(), testdb.URL(t))
		require.NoError(t, err)
		defer conn.Close(context.Background())
		_, err = conn.Exec(context.Background(), "DROP SCHEMA "+pgx.Identifier{kept[1]}.Sanitize()+" CASCADE")
		require.NoError(t, err)
	})

	progress.Reset()
	opt.Keep, opt.Schema = false, kept[1]
	again, err := Retrieval(ctx, testdb.URL(t), opt)
	require.NoError(t, err)
	assert.NotContains(t, progress.String(), "loading", "the kept corpus is not loaded again")
	require.Len(t, again, len(first))
	for i := range first {
		assert.Equal(t, first[i].EligibleChunks, again[i].EligibleChunks, "selectivity %g", first[i].Selectivity)
		assert.Equal(t, 1.0, again[i].RecallAt10, "selectivity %g", first[i].Selectivity)
		assert.Positive(t, again[i].ScanMs, "every case's scope is scanned and timed: selectivity %g", first[i].Selectivity)
	}

	opt.Sizes = []int{500, 1000}
	_, err = Retrieval(ctx, testdb.URL(t), opt)
	assert.Error(t, err, "a kept schema holds one corpus")
}
