package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
)

// payoutQuestion is word for word the text of the payments agent's only chunk: for any
// query that could see it, that chunk is the best match there is.
const payoutQuestion = "A failed payout is retried to the bank account after three business days."

// twoAgents returns a store with the billing agent and a payments agent, each with a
// corpus of its own imported under its own context, and a ticket and draft each.
func twoAgents(t *testing.T) (s *store.Store, billing, payments context.Context) {
	t.Helper()
	s, _ = testdb.New(t)
	ctx := context.Background()
	require.NoError(t, s.CreateAgent(ctx, agent.Agent{ID: "payments", Name: "Payments operations", Addresses: []string{"payments@example.com"}}))
	billing, payments = agent.With(ctx, agent.Default), agent.With(ctx, "payments")

	_, err := s.Import(billing, parseAll(t, file{doc: "refunds", version: 1, from: "2026-01-01T00:00:00Z", approved: "2026-01-01T00:00:00Z"}), emb)
	require.NoError(t, err)
	_, err = s.Import(payments, parseAll(t, file{doc: "payouts", version: 1, from: "2026-01-01T00:00:00Z", approved: "2026-01-01T00:00:00Z",
		body: "## Failed payouts\n\n" + payoutQuestion + "\n"}), emb)
	require.NoError(t, err)

	at := time.Date(2026, 4, 2, 10, 5, 0, 0, time.UTC)
	for _, a := range []struct {
		ctx    context.Context
		ticket string
	}{{billing, "T-BILLING"}, {payments, "T-PAYMENTS"}} {
		require.NoError(t, s.SaveTicket(a.ctx, testenv.Ticket(a.ticket, 1, "pro", "eu", at, "Where is my money?")))
		require.NoError(t, s.SaveIteration(a.ctx, readyDraft(a.ticket, "Soon.", at), "payouts"))
	}
	return s, billing, payments
}

// agentTables are the tables under row-level security (migration 0120, and each table added since).
var agentTables = []string{"accepted_contradictions", "agent_texts", "approvals", "build_failures", "chunks", "documents",
	"drafts", "funnel_events", "inbox_messages", "inbox_revisions", "lexemes", "lexicon", "rejections", "retrieval_scopes",
	"review_assignments", "review_notes", "review_queue", "scope_names", "send_checks", "sent_replies", "ticket_revisions", "traces", "version_lengths", "versions"}

// lookupTables carry agent_id without row-level security: retrieval's lookups by agent,
// which hold no text (migration 0121).
var lookupTables = []string{"chunk_terms"}

// tablesWithAgentID lists every table of the schema with an agent_id column: a table added
// later that holds one agent's rows fails the test until it is in agentTables, under
// agent_isolation, or argued into lookupTables.
func tablesWithAgentID(t *testing.T, s *store.Store) []string {
	t.Helper()
	return testdb.Column[string](t, context.Background(), s.DB(), `
		SELECT c.relname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
		WHERE a.attname = 'agent_id' AND c.relkind IN ('r', 'p') AND c.relnamespace = current_schema()::regnamespace
		ORDER BY 1`)
}

// A query with no WHERE at all, under one agent's context, returns none of another
// agent's rows: row-level security filters it, not the application. Every agent table
// has RLS enabled and forced (the tests connect as the tables' owner, whom FORCE binds).
func TestUnscopedQueriesSeeOneAgent(t *testing.T) {
	t.Parallel()
	s, billing, payments := twoAgents(t)
	assert.ElementsMatch(t, append(slices.Clone(agentTables), lookupTables...), tablesWithAgentID(t, s))
	for _, table := range agentTables {
		var enabled, forced bool
		require.NoError(t, s.DB().QueryRow(billing, `SELECT relrowsecurity, relforcerowsecurity FROM pg_class WHERE oid = $1::regclass`, table).Scan(&enabled, &forced))
		assert.True(t, enabled && forced, "%s: row-level security enabled and forced", table)

		var others int
		require.NoError(t, s.DB().QueryRow(billing, `SELECT count(*) FROM `+table+` WHERE agent_id <> 'billing'`).Scan(&others))
		assert.Zero(t, others, "%s: billing's context sees another agent's rows", table)
	}
	// The payments agent's rows exist: its own context sees them, and billing's does not.
	for _, table := range []string{"documents", "versions", "chunks", "approvals", "lexemes", "lexicon", "retrieval_scopes", "ticket_revisions", "drafts"} {
		var mine, theirs int
		require.NoError(t, s.DB().QueryRow(payments, `SELECT count(*) FROM `+table).Scan(&mine))
		require.NoError(t, s.DB().QueryRow(billing, `SELECT count(*) FROM `+table+` WHERE agent_id = 'payments'`).Scan(&theirs))
		assert.Positive(t, mine, "%s: payments sees its rows", table)
		assert.Zero(t, theirs, "%s: billing sees payments' rows", table)
	}
	ids := testdb.Column[string](t, billing, s.DB(), `SELECT id FROM chunks`)
	assert.NotEmpty(t, ids)
	for _, id := range ids {
		assert.NotContains(t, id, "payouts", "billing's unscoped SELECT returned a payments chunk")
	}
	_, err := s.LatestIteration(billing, "T-PAYMENTS")
	assert.ErrorIs(t, err, store.ErrNotFound, "billing loads payments' draft by its ticket ID")

	// A context naming both agents sees both (a reviewer of two agents).
	var both int
	require.NoError(t, s.DB().QueryRow(agent.With(context.Background(), "billing", "payments"), `SELECT count(DISTINCT agent_id) FROM drafts`).Scan(&both))
	assert.Equal(t, 2, both)
}

// Retrieval for one agent never returns another's chunks, even when the other's chunk is
// the best match there is: the query is that chunk's own text. It holds on an agent's
// scope partitions, and on the unpartitioned statement a query takes while its agent has
// no scope built (an agent with no corpus).
func TestRetrievalStaysWithItsAgent(t *testing.T) {
	t.Parallel()
	s, billing, payments := twoAgents(t)
	require.NoError(t, s.CreateAgent(context.Background(), agent.Agent{ID: "empty", Name: "No corpus yet"}))
	q := query(t, payoutQuestion, ts(t, "2026-06-01T00:00:00Z"), 10)
	q.VectorWeight = 1

	hits, err := s.Eligible(payments, q)
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	assert.Equal(t, "payouts", hits[0].DocID, "the payments chunk is the best match for its own text")

	hits, err = s.Eligible(billing, q)
	require.NoError(t, err)
	require.NotEmpty(t, hits, "billing's own chunks are still eligible")
	for _, h := range hits {
		assert.Equal(t, "refunds", h.DocID, "billing's retrieval returned %s", h.ChunkID)
	}

	hits, err = s.Eligible(agent.With(context.Background(), "empty"), q)
	require.NoError(t, err)
	assert.Empty(t, hits, "an agent with no corpus (the unpartitioned statement) retrieves nothing")

	_, err = s.Eligible(agent.With(context.Background(), "billing", "payments"), q)
	require.Error(t, err, "retrieval acts for one agent")

	// Each agent's scopes are its own partitions.
	mine, err := s.Scopes(billing)
	require.NoError(t, err)
	theirs, err := s.Scopes(payments)
	require.NoError(t, err)
	require.NotEmpty(t, mine)
	require.NotEmpty(t, theirs)
	for _, sc := range mine {
		assert.Equal(t, "billing", sc.Agent)
		for _, o := range theirs {
			assert.NotEqual(t, sc.ID, o.ID)
		}
	}
}

// A write under one agent's context of a row that names another agent is refused, and so
// is moving a row to another agent; a write on a context naming several agents must say
// which (the column's default lists them all, which names no agent).
func TestWritesStayWithTheirAgent(t *testing.T) {
	t.Parallel()
	s, billing, _ := twoAgents(t)
	rls := func(err error) bool {
		var pgErr *pgconn.PgError
		return errors.As(err, &pgErr) && pgErr.Code == "42501"
	}
	_, err := s.DB().Exec(billing, `INSERT INTO documents (doc_id, agent_id) VALUES ('smuggled', 'payments')`)
	assert.True(t, rls(err), "insert of a payments row under billing: %v", err)
	_, err = s.DB().Exec(billing, `UPDATE drafts SET agent_id = 'payments' WHERE ticket_id = 'T-BILLING'`)
	assert.True(t, rls(err), "moving a billing draft to payments: %v", err)
	tag, err := s.DB().Exec(billing, `DELETE FROM drafts WHERE ticket_id = 'T-PAYMENTS'`)
	require.NoError(t, err)
	assert.Zero(t, tag.RowsAffected(), "billing deleted a payments draft")

	_, err = s.DB().Exec(agent.With(context.Background(), "billing", "payments"), `INSERT INTO documents (doc_id) VALUES ('whose')`)
	assert.Error(t, err, "a row written for two agents at once")

	// Document IDs are unique per deployment: the payments agent cannot import billing's,
	// and learns no more than that the ID is taken.
	_, err = s.Import(agent.With(context.Background(), "payments"), parseAll(t, file{doc: "refunds", version: 2, from: "2026-02-01T00:00:00Z", approved: "2026-02-01T00:00:00Z"}), emb)
	require.ErrorIs(t, err, store.ErrOtherAgent)
	assert.Contains(t, err.Error(), "document ID refunds")
	// So are ticket IDs.
	err = s.SaveTicket(agent.With(context.Background(), "payments"), testenv.Ticket("T-BILLING", 1, "pro", "eu", time.Now(), "Mine now?"))
	require.ErrorIs(t, err, store.ErrOtherAgent)
	assert.Contains(t, err.Error(), "ticket T-BILLING")
}

// A store over one transaction (OnTx) acts for each call's context too.
func TestOnTxActsForTheContextsAgent(t *testing.T) {
	t.Parallel()
	s := testdb.Tx(t)
	ctx := context.Background()
	require.NoError(t, s.CreateAgent(ctx, agent.Agent{ID: "ontx", Name: "On one transaction"}))
	at := time.Date(2026, 4, 2, 10, 5, 0, 0, time.UTC)
	require.NoError(t, s.SaveTicket(agent.With(ctx, "ontx"), testenv.Ticket("T-ONTX", 1, "pro", "eu", at, "Hello")))
	var owner string
	require.NoError(t, s.DB().QueryRow(agent.With(ctx, "ontx"), `SELECT agent_id FROM ticket_revisions WHERE ticket_id = 'T-ONTX'`).Scan(&owner))
	assert.Equal(t, "ontx", owner)
	_, err := s.LatestTicket(ctx, "T-ONTX")
	assert.Error(t, err, "the default agent loads another agent's ticket")
}

// A pooled connection remembers the agents it acts for, and acquires that act for others
// set them again: one connection serves agents in turn without mixing them.
func TestOneConnectionServesAgentsInTurn(t *testing.T) {
	t.Parallel()
	s, billing, payments := twoAgents(t)
	for i := range 6 {
		ctx, want := billing, "billing"
		if i%2 == 1 {
			ctx, want = payments, "payments"
		}
		c, err := s.Pool().Acquire(ctx)
		require.NoError(t, err)
		var setting string
		require.NoError(t, c.QueryRow(ctx, `SELECT current_setting('supportdraft.agent')`).Scan(&setting))
		assert.Equal(t, want, setting)
		c.Release()
	}
}

// What the deployment does for all its agents acts for every agent whoever asks: a change
// of embedder re-embeds every agent's chunks and builds every agent's scopes for it.
func TestReembedActsForEveryAgent(t *testing.T) {
	t.Parallel()
	s, billing, payments := twoAgents(t)
	var total int
	require.NoError(t, s.DB().QueryRow(agent.With(context.Background(), "billing", "payments"), `SELECT count(*) FROM chunks`).Scan(&total))
	next := embedding.NewHashing(128)
	n, err := s.Reembed(billing, next, nil)
	require.NoError(t, err)
	assert.Equal(t, total, n, "billing's chunks and payments' chunk")
	for _, ctx := range []context.Context{billing, payments} {
		scopes, err := s.Scopes(ctx)
		require.NoError(t, err)
		var rebuilt int
		for _, sc := range scopes {
			if sc.Embedder == next.Name() && sc.Chunks > 0 {
				rebuilt++
			}
		}
		assert.Positive(t, rebuilt, "%s has scopes with the new embedder's vectors", agent.IDs(ctx))
	}
}
