// Package testdb gives each test its own migrated schema in the real Postgres + pgvector
// that scripts/services.sh starts. There is no skip: a missing database fails the test,
// because CI must never pass without the store it is meant to exercise.
package testdb

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/store"
)

// URL returns TEST_DATABASE_URL or fails the test with how to get one.
func URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("TEST_DATABASE_URL")
	if u == "" {
		t.Fatal("TEST_DATABASE_URL is not set: run the tests with scripts/test.sh, which starts Postgres + pgvector and sets it")
	}
	return u
}

// New opens a store on a fresh scratch schema that is dropped when the test ends.
func New(t testing.TB) (*store.Store, string) {
	t.Helper()
	ctx := context.Background()
	scratchURL, drop, err := store.Scratch(ctx, URL(t), "test")
	if err != nil {
		t.Fatalf("scratch schema: %v", err)
	}
	s, err := store.Open(ctx, scratchURL)
	if err != nil {
		_ = drop(ctx)
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() {
		s.Close()
		if err := drop(context.Background()); err != nil {
			t.Errorf("drop scratch schema: %v", err)
		}
	})
	return s, scratchURL
}

// shared is the one migrated schema of this test binary that Tx runs in, set up by Main.
var shared *store.Store

// Main runs a package's tests with a shared scratch schema for Tx, dropped afterwards. A
// package whose tests call Tx runs them through it: func TestMain(m *testing.M) {
// os.Exit(testdb.Main(m)) }.
func Main(m *testing.M) int {
	ctx := context.Background()
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		scratchURL, drop, err := store.Scratch(ctx, u, "shared")
		if err != nil {
			fmt.Fprintf(os.Stderr, "testdb: shared scratch schema: %v\n", err)
			return 1
		}
		defer func() {
			if err := drop(context.Background()); err != nil {
				fmt.Fprintf(os.Stderr, "testdb: drop shared scratch schema: %v\n", err)
			}
		}()
		if shared, err = store.Open(ctx, scratchURL); err != nil {
			fmt.Fprintf(os.Stderr, "testdb: open shared scratch schema: %v\n", err)
			return 1
		}
		defer shared.Close()
	}
	return m.Run()
}

// Tx returns a store over one transaction in the package's shared schema (see Main),
// rolled back when the test ends: for tests that need an empty schema but not one of
// their own, because nothing they do must be seen by another connection or survive them.
// Their rows are invisible to other tests; a test writing a row another also writes (the
// kill switch, one ticket ID) waits for it to roll back.
func Tx(t testing.TB) *store.Store {
	t.Helper()
	URL(t)
	if shared == nil {
		t.Fatal("testdb.Tx needs the package's TestMain to run testdb.Main")
	}
	tx, err := shared.Pool().Begin(context.Background())
	if err != nil {
		t.Fatalf("begin test transaction: %v", err)
	}
	t.Cleanup(func() {
		if err := tx.Rollback(context.Background()); err != nil {
			t.Errorf("roll back test transaction: %v", err)
		}
	})
	return store.OnTx(tx)
}

// Querier is what Column reads through: a pool, a transaction or a store's DB.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Column returns the one column of every row a query returns, in order, and fails the
// test on any error: most checks of what a test left in the database read a single column.
func Column[T any](t testing.TB, ctx context.Context, q Querier, sql string, args ...any) []T {
	t.Helper()
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		t.Fatalf("query %q: %v", sql, err)
	}
	values, err := pgx.CollectRows(rows, pgx.RowTo[T])
	if err != nil {
		t.Fatalf("read %q: %v", sql, err)
	}
	return values
}
