package store_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/policy"
)

// A section's front-matter marks survive the import: every read that hands chunks to the
// guard or the drafter (by ID, by version, eligible retrieval) carries them.
func TestImportKeepsSectionMarks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	v := file{doc: "billing/refunds", version: 1, from: "2026-01-01T00:00:00Z"}.parse(t)
	for i := range v.Chunks {
		if v.Chunks[i].Anchor == "how-to-ask" {
			v.Chunks[i].Audience, v.Chunks[i].Fixed = policy.AudienceAgents, true
		}
	}
	_, err := s.Import(ctx, []*policy.Version{v}, emb)
	require.NoError(t, err)

	byID, err := s.Chunks(ctx, []string{"billing/refunds@1#how-to-ask", "billing/refunds@1#refund-window"})
	require.NoError(t, err)
	require.Len(t, byID, 2)
	assert.True(t, byID[0].ForAgents() && byID[0].FixedWording(), "%+v", byID[0])
	assert.False(t, byID[1].ForAgents() || byID[1].FixedWording(), "%+v", byID[1])

	var versionID int64
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT id FROM versions WHERE doc_id = 'billing/refunds'`).Scan(&versionID))
	chunks, err := s.VersionChunks(ctx, []int64{versionID})
	require.NoError(t, err)
	marked := map[string]bool{}
	for _, c := range chunks {
		marked[c.ChunkID] = c.ForAgents()
	}
	assert.Equal(t, map[string]bool{"billing/refunds@1#how-to-ask": true, "billing/refunds@1#refund-window": false}, marked)
}
