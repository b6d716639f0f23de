package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// GrantApp gives role — the role the API and the worker connect as — SELECT, INSERT,
// UPDATE and DELETE on every table, view and sequence of the schema the migrations wrote
// (the first on databaseURL's search path), and the same on what the owner creates there
// later (retrieval partitions, added by `policy import`), but not on goose's own table.
// The role may not create, alter or drop anything: a flaw in the API can read or change
// rows, never the schema. `migrate` runs it after the migrations, as the schema's owner;
// running it again changes nothing.
func GrantApp(ctx context.Context, databaseURL, role string) error {
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return fmt.Errorf("connect to grant %s: %w", role, err)
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = $1)`, role).Scan(&exists); err != nil {
		return fmt.Errorf("look up role %s: %w", role, err)
	}
	if !exists {
		return fmt.Errorf("SUPPORTDRAFT_APP_ROLE=%s: no such role; create it first (CREATE ROLE %s LOGIN PASSWORD '…' as a superuser; scripts/services.sh does it for development)", role, role)
	}
	var schema string
	if err := conn.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return fmt.Errorf("find the schema to grant on: %w", err)
	}
	s, r := pgx.Identifier{schema}.Sanitize(), pgx.Identifier{role}.Sanitize()
	stmts := []string{
		`GRANT USAGE ON SCHEMA ` + s + ` TO ` + r,
		`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ` + s + ` TO ` + r,
		`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ` + s + ` TO ` + r,
		`ALTER DEFAULT PRIVILEGES IN SCHEMA ` + s + ` GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ` + r,
		`ALTER DEFAULT PRIVILEGES IN SCHEMA ` + s + ` GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ` + r,
		`REVOKE ALL ON ` + s + `.goose_db_version FROM ` + r,
	}
	for _, stmt := range stmts {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("grant %s on schema %s: %w", role, schema, err)
		}
	}
	return nil
}
