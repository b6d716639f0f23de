package activities_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
)

// A build reads its ticket revision from Postgres once, in LoadContext: the later steps of
// the build in the same worker work on that copy even when the row is gone, and a worker
// that did not run LoadContext reads the store.
func TestBuildReadsItsTicketOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testdb.Tx(t)
	ref := saveRefundTicket(t, s, "T-once")

	building := testenv.Activities(t, s, nil)
	facts, err := building.LoadContext(ctx, ref, true)
	require.NoError(t, err)
	_, err = s.DB().Exec(ctx, `DELETE FROM ticket_revisions WHERE ticket_id = 'T-once'`)
	require.NoError(t, err)

	in := activities.GenerateInput{Ticket: ref, At: facts.At, Account: facts.Account}
	answer, err := building.Generate(ctx, in)
	require.NoError(t, err, "Generate must use the revision LoadContext read")
	assert.True(t, answer.Abstain, "no evidence: the local writer abstains")

	_, err = testenv.Activities(t, s, nil).Generate(ctx, in)
	require.ErrorIs(t, err, store.ErrNotFound, "another worker reads the store, where the revision is gone")
}
