package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/store"
)

// A verdict spooled while the database was down reaches send_checks, with its own time,
// once the database is back; while it is down the spool keeps it.
func TestSpoolKeepsVerdictsUntilTheDatabaseIsBack(t *testing.T) {
	t.Parallel()
	s, url := testdb.New(t)
	down, err := store.Open(context.Background(), url)
	require.NoError(t, err)
	down.Close()

	spool, err := api.NewSpool(t.TempDir())
	require.NoError(t, err)
	given := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	require.NoError(t, spool.Add("T-9", drafts.SendCheck{Verdict: drafts.VerdictUnchecked, Iteration: 2}, given))

	n, err := spool.Replay(context.Background(), down)
	require.Error(t, err)
	assert.Zero(t, n)
	assert.Equal(t, 1, spool.Pending())

	n, err = spool.Replay(context.Background(), s)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Zero(t, spool.Pending())
	var verdict string
	var at time.Time
	require.NoError(t, s.Pool().QueryRow(context.Background(), `SELECT verdict, at FROM send_checks WHERE ticket_id = 'T-9'`).Scan(&verdict, &at))
	assert.Equal(t, drafts.VerdictUnchecked, verdict)
	assert.True(t, at.Equal(given))
}
