package store_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/store"
)

func TestMigrateIsIdempotent(t *testing.T) {
	t.Parallel()
	_, url := testdb.New(t)
	n, err := store.Migrate(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("second migrate applied %d migrations, want 0", n)
	}
}

// Upgrading a database from the schema before agents (migration 0120) keeps every row, each
// under the default agent, and the store works on it as before: the old chunk is
// retrieved, a new version imports, and another agent sees none of it.
func TestMigrateToAgentsKeepsEveryRow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := emptySchema(t)
	require.NoError(t, store.MigrateUpTo(ctx, url, 119))
	old, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	_, err = old.Exec(ctx, `
		INSERT INTO documents (doc_id) VALUES ('refunds');
		INSERT INTO versions (doc_id, version, status, source, title, area, effective_from, approved_at, plans, regions, content_hash, body)
		VALUES ('refunds', 1, 'approved', 'wiki', 'Refunds', 'refunds', '2026-01-01', '2026-01-01', '{*}', '{*}', 'h1', 'Annual plans are refunded within 30 days.')`)
	require.NoError(t, err)
	_, err = old.Exec(ctx, `INSERT INTO chunks (id, version_id, anchor, heading, ord, text, embedder, embedding)
		SELECT 'refunds@1#window', id, 'window', 'Refund window', 0, 'Annual plans are refunded within 30 days.', $2, $1 FROM versions`,
		oneHot(emb.Dims()), emb.Name())
	require.NoError(t, err)
	_, err = old.Exec(ctx, `
		INSERT INTO approvals (doc_id, version, action) VALUES ('refunds', 1, 'approved');
		INSERT INTO lexemes SELECT u.lexeme, count(*) FROM chunks c, unnest(c.lex) u GROUP BY 1;
		UPDATE lexicon SET chunks = 1, tokens = (SELECT sum(lex_len) FROM chunks);
		INSERT INTO ticket_revisions (ticket_id, revision, updated_at, plan, region, messages) VALUES ('T-OLD', 1, now(), 'pro', 'eu', '[]');
		INSERT INTO drafts (ticket_id, iteration, revision, status, eligible_at, plan, region, locale, reply, model_reply, abstained,
		                    claims, sentences, bound, evidence, scores, unsupported, confidence)
		VALUES ('T-OLD', 1, 1, 'ready', now(), 'pro', 'eu', 'en', 'Yes.', 'Yes.', false, '[]', '[]', '[]', '[]', '{}', 0, 0.9);
		INSERT INTO send_checks (ticket_id, iteration, verdict) VALUES ('T-OLD', 1, 'ok');
		INSERT INTO review_queue (ticket_id, iteration, state, confidence, low_confidence, queued_at, review_until)
		VALUES ('T-OLD', 1, 'waiting', 0.9, false, now(), now());
		INSERT INTO sent_replies (ticket_id, iteration, text_sha256, edited, verdict, sent_at) VALUES ('T-OLD', 1, 'abc', false, 'ok', now());
		INSERT INTO inbox_messages (message_id, thread_id, received_at, message) VALUES ('<m@x>', 't', now(), '{}');
		INSERT INTO funnel_events (message_id, stage, outcome, reason) VALUES ('<m@x>', 'triage', 'pass', 'refunds');
		INSERT INTO api_tokens (name, role, hash) VALUES ('old token', 'agent', '\x01')`)
	require.NoError(t, err)
	require.NoError(t, old.Close(ctx))

	_, err = store.Migrate(ctx, url)
	require.NoError(t, err)
	s, err := store.Open(ctx, url)
	require.NoError(t, err)
	t.Cleanup(s.Close)

	billing, other := agent.With(ctx, agent.Default), agent.With(ctx, "payments")
	require.NoError(t, s.CreateAgent(ctx, agent.Agent{ID: "payments", Name: "Payments"}))
	for _, table := range []string{"documents", "versions", "chunks", "approvals", "lexicon", "ticket_revisions", "drafts",
		"send_checks", "review_queue", "sent_replies", "inbox_messages", "funnel_events"} {
		var n, billed int
		require.NoError(t, s.DB().QueryRow(billing, `SELECT count(*), count(*) FILTER (WHERE agent_id = 'billing') FROM `+table).Scan(&n, &billed))
		assert.Equal(t, 1, n, "%s: the row is still there", table)
		assert.Equal(t, 1, billed, "%s: under the default agent", table)
		require.NoError(t, s.DB().QueryRow(other, `SELECT count(*) FROM `+table).Scan(&n))
		assert.Zero(t, n, "%s: another agent sees the default agent's row", table)
	}
	tokens, err := s.ListTokens(other)
	require.NoError(t, err)
	require.Len(t, tokens, 1, "tokens are the deployment's")
	saved, err := s.LatestIteration(billing, "T-OLD")
	require.NoError(t, err)
	assert.Equal(t, "Yes.", saved.Reply)

	_, err = s.Import(billing, parseAll(t, file{doc: "refunds", version: 2, from: "2026-03-01T00:00:00Z", approved: "2026-03-01T00:00:00Z"}), emb)
	require.NoError(t, err)
	q := query(t, "annual refund window", ts(t, "2026-02-01T00:00:00Z"), 5)
	hits, err := s.Eligible(billing, q)
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	assert.Equal(t, "refunds@1#window", hits[0].ChunkID, "the chunk from before the upgrade is retrieved")
	q.At = ts(t, "2026-06-01T00:00:00Z")
	hits, err = s.Eligible(billing, q)
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	assert.Equal(t, 2, hits[0].Version, "the version imported after the upgrade supersedes it")
	var lexiconChunks int
	require.NoError(t, s.DB().QueryRow(billing, `SELECT chunks FROM lexicon`).Scan(&lexiconChunks))
	assert.Greater(t, lexiconChunks, 1, "the default agent's term statistics go on from the old totals")
}

// emptySchema is a schema with no migrations applied, dropped when the test ends.
func emptySchema(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	base := testdb.URL(t)
	conn, err := pgx.Connect(ctx, base)
	require.NoError(t, err)
	defer conn.Close(ctx)
	schema := fmt.Sprintf("upgrade_%d", time.Now().UnixNano())
	_, err = conn.Exec(ctx, "CREATE SCHEMA "+schema)
	require.NoError(t, err)
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), base)
		if err != nil {
			t.Errorf("drop %s: %v", schema, err)
			return
		}
		defer c.Close(context.Background())
		if _, err := c.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	require.NoError(t, err)
	v := u.Query()
	v.Set("search_path", schema+",public")
	u.RawQuery = v.Encode()
	return u.String()
}

// oneHot is a unit vector of dims dimensions.
func oneHot(dims int) pgvector.Vector {
	v := make([]float32, dims)
	v[0] = 1
	return pgvector.NewVector(v)
}
