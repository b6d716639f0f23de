package store_test

import (
	"os"
	"testing"

	"github.com/supportdraft/supportdraft/internal/testdb"
)

// TestMain gives the tests that run in a rolled-back transaction (testdb.Tx) their shared
// schema; the others still make a scratch schema each (testdb.New).
func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }
