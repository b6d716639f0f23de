package store_test

import (
	"context"
	"errors"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/workflows"
)

// appRole grants the app role of TEST_APP_DATABASE_URL on the scratch schema at
// scratchURL, as migrate does, and opens that schema as the app role; app is its URL.
func appRole(t *testing.T, scratchURL string) (s *store.Store, app *url.URL) {
	t.Helper()
	appURL := os.Getenv("TEST_APP_DATABASE_URL")
	require.NotEmpty(t, appURL, "TEST_APP_DATABASE_URL is not set: scripts/services.sh creates the app role and sets it")
	app, err := url.Parse(appURL)
	require.NoError(t, err)
	scratch, err := url.Parse(scratchURL)
	require.NoError(t, err)
	require.NoError(t, store.GrantApp(context.Background(), scratchURL, app.User.Username()))
	q := app.Query()
	q.Set("search_path", scratch.Query().Get("search_path"))
	app.RawQuery = q.Encode()
	s, err = store.Open(context.Background(), app.String())
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s, app
}

// The app role that migrate grants may read and write rows and nothing more: every DDL
// statement is refused with insufficient_privilege.
func TestAppRoleHasOnlyDML(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, scratchURL := testdb.New(t)
	s, app := appRole(t, scratchURL)
	require.NoError(t, store.GrantApp(ctx, scratchURL, app.User.Username()), "granting twice changes nothing")
	now := time.Now().UTC()
	require.NoError(t, s.SaveTicket(ctx, &ticket.Ticket{TicketID: "ROLE-1", Revision: 1, UpdatedAt: now,
		Account: ticket.Account{Plan: "pro", Region: "eu"}, Messages: []ticket.Message{{Author: "customer", At: now, Body: "Refund?"}}}),
		"the app role writes rows")
	_, err := s.Ticket(ctx, "ROLE-1", 1)
	require.NoError(t, err, "and reads them")

	conn, err := pgx.Connect(ctx, app.String())
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close(context.Background()) })
	owner, err := pgx.Connect(ctx, scratchURL)
	require.NoError(t, err)
	t.Cleanup(func() { owner.Close(context.Background()) })
	_, err = owner.Exec(ctx, `CREATE TABLE scope_chunks_later (id int)`) // as policy import adds a partition
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `INSERT INTO scope_chunks_later VALUES (1)`)
	require.NoError(t, err, "tables the owner adds later are granted by default privileges")

	for _, ddl := range []string{
		`CREATE TABLE intruder (id int)`,
		`DROP TABLE drafts`,
		`ALTER TABLE drafts ADD COLUMN x int`,
		`TRUNCATE rejections`,
		`CREATE INDEX intruder_idx ON drafts (reply)`,
		`DELETE FROM goose_db_version`,
		`CREATE DATABASE intruder`,
	} {
		_, err := conn.Exec(ctx, ddl)
		var pgErr *pgconn.PgError
		if assert.True(t, errors.As(err, &pgErr), "%s: want a refusal, got %v", ddl, err) {
			assert.Equal(t, "42501", pgErr.Code, "%s: %s", ddl, pgErr.Message)
		}
	}
}

// The probe's finding: the worker exited under the app role ("must be owner of table
// chunks") because its start-up re-embed check created the vector index, even when the
// index existed. Now the owner's import builds it; the worker's check runs no DDL, and a
// worker on the app role drafts. A change of embedder still needs the owner, and says so.
func TestWorkerStartsAndDraftsUnderTheAppRole(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	owner, scratchURL := testdb.New(t)
	testenv.ImportSample(t, owner)
	s, _ := appRole(t, scratchURL)

	n, err := s.Reembed(ctx, testenv.Embedder, nil)
	require.NoError(t, err, "the worker's start-up check under the app role")
	assert.Zero(t, n)
	_, err = s.Reembed(ctx, embedding.NewHashing(64), nil)
	require.Error(t, err, "a new embedder needs DDL")
	assert.Contains(t, err.Error(), "supportdraft policy reembed")

	c := testenv.Temporal(t)
	st := testenv.Stack(t, s, c, nil)
	tq := testenv.StartWorker(t, st, "test-approle-", nil)
	id := testenv.Unique("ROLE-")
	testenv.SaveTicket(t, s, testenv.Ticket(id, 1, "pro", "eu", time.Now().Add(-time.Hour), "Can I get a refund of my annual plan?"))
	v, err := workflows.Open(ctx, c, workflows.DraftWorkflowID(agent.Default, id), tq, &workflows.DraftInput{TicketID: id, Revision: 1, IdleTimeout: time.Hour, CheckBudget: time.Second})
	require.NoError(t, err)
	assert.NotEqual(t, drafts.StatusFailed, v.Status, "drafted under the app role")
	assert.Equal(t, 1, v.Iteration)
}
