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

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
)

// The app role that migrate grants may read and write rows and nothing more: every DDL
// statement is refused with insufficient_privilege.
func TestAppRoleHasOnlyDML(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	appURL := os.Getenv("TEST_APP_DATABASE_URL")
	require.NotEmpty(t, appURL, "TEST_APP_DATABASE_URL is not set: scripts/services.sh creates the app role and sets it")
	app, err := url.Parse(appURL)
	require.NoError(t, err)
	_, scratchURL := testdb.New(t)
	scratch, err := url.Parse(scratchURL)
	require.NoError(t, err)
	require.NoError(t, store.GrantApp(ctx, scratchURL, app.User.Username()))
	require.NoError(t, store.GrantApp(ctx, scratchURL, app.User.Username()), "granting twice changes nothing")
	q := app.Query()
	q.Set("search_path", scratch.Query().Get("search_path"))
	app.RawQuery = q.Encode()

	s, err := store.Open(ctx, app.String())
	require.NoError(t, err)
	t.Cleanup(s.Close)
	now := time.Now().UTC()
	require.NoError(t, s.SaveTicket(ctx, &ticket.Ticket{TicketID: "ROLE-1", Revision: 1, UpdatedAt: now,
		Account: ticket.Account{Plan: "pro", Region: "eu"}, Messages: []ticket.Message{{Author: "customer", At: now, Body: "Refund?"}}}),
		"the app role writes rows")
	_, err = s.Ticket(ctx, "ROLE-1", 1)
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
