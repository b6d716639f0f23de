package activities_test

import (
	"os"
	"testing"

	"github.com/supportdraft/supportdraft/internal/testdb"
)

// TestMain gives the tests their shared schema for rolled-back transactions (testdb.Tx).
func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }
