package store

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/supportdraft/supportdraft/migrations"
)

// SetUnreachedLimit sets the share of lost chunks above which EnsureScopes builds a
// scope's graph again (MaxUnreachedShare in production). A negative share makes every
// build count as poor.
func SetUnreachedLimit(s *Store, share float64) { s.unreachedLimit = share }

// SetIndexFrom sets how many chunks a scope of s holds before it gets a graph, in place of
// IndexFrom, for tests of a graph's upkeep that need a graph but not a large one.
func SetIndexFrom(s *Store, chunks int) { s.indexFrom = chunks }

// MigrateUpTo applies the embedded migrations up to and including version, for tests
// that upgrade a database from an older schema.
func MigrateUpTo(ctx context.Context, databaseURL string, version int64) error {
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		return err
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	provider, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS, goose.WithAllowOutofOrder(true))
	if err != nil {
		return err
	}
	_, err = provider.UpTo(ctx, version)
	return err
}
