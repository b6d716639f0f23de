package store_test

import (
	"bytes"
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/store"
)

// TestNoticesAreLogged: a notice from Postgres (pgvector's that a graph outgrew
// maintenance_work_mem, say) reaches the log, and one that IF NOT EXISTS skipped its work
// does not. Not parallel: it swaps the default logger.
func TestNoticesAreLogged(t *testing.T) {
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	defer slog.SetDefault(prev)
	_, url := testdb.New(t)
	s, err := store.Open(context.Background(), url)
	require.NoError(t, err)
	defer s.Close()
	_, err = s.Pool().Exec(context.Background(), `DO $$ BEGIN RAISE NOTICE 'hnsw graph no longer fits into maintenance_work_mem'; END $$`)
	require.NoError(t, err)
	require.Contains(t, buf.String(), `msg="postgres notice" severity=NOTICE message="hnsw graph no longer fits into maintenance_work_mem"`)
	// What an IF NOT EXISTS skipped is not news.
	buf.Reset()
	_, err = s.Pool().Exec(context.Background(), `CREATE TABLE IF NOT EXISTS chunks (id text)`)
	require.NoError(t, err)
	require.Empty(t, buf.String())
}
