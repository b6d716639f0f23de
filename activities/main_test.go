package activities_test

import (
	"os"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
)

// TestMain gives the tests their shared schema for rolled-back transactions (testdb.Tx).
func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// saveRefundTicket saves revision 1 of ticket id, a Pro customer in the EU asking for a
// refund on an annual plan, and returns its reference.
func saveRefundTicket(t *testing.T, s *store.Store, id string) activities.TicketRef {
	t.Helper()
	at := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)
	testenv.SaveTicket(t, s, testenv.Ticket(id, 1, "pro", "eu", at, "Can I get a refund on my annual plan?"))
	return activities.TicketRef{TicketID: id, Revision: 1}
}
