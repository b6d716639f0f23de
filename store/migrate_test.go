package store_test

import (
	"context"
	"testing"

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
