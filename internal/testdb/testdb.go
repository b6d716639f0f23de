// Package testdb gives each test its own migrated schema in the real Postgres + pgvector
// that scripts/services.sh starts. There is no skip: a missing database fails the test,
// because CI must never pass without the store it is meant to exercise.
package testdb

import (
	"context"
	"os"
	"testing"

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
