package provenance

import (
	"strings"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/ticket"
)

func TestCheckAccount(t *testing.T) {
	t.Parallel()
	built := &drafts.Saved{TicketID: "T-1", Iteration: 2, Revision: 1, EligibleAt: time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC),
		Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}}
	tests := []struct {
		name    string
		now     ticket.Account
		rev     int
		changes []AccountChange
		says    string
	}{
		{"unchanged", ticket.Account{Plan: "pro", Region: "eu"}, 1, nil, "is current"},
		{"new revision only", ticket.Account{Plan: "pro", Region: "eu", Locale: "en"}, 2, nil, "rebuild it"},
		{"plan changed", ticket.Account{Plan: "business", Region: "eu"}, 2,
			[]AccountChange{{"plan", "pro", "business"}}, "stale account"},
		{"region and locale changed", ticket.Account{Plan: "pro", Region: "us", Locale: "de"}, 3,
			[]AccountChange{{"region", "eu", "us"}, {"locale", "en", "de"}}, "stale account"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := CheckAccount(built, &ticket.Ticket{TicketID: "T-1", Revision: tt.rev, Account: tt.now})
			if len(c.Changes) != len(tt.changes) {
				t.Fatalf("changes %v, want %v", c.Changes, tt.changes)
			}
			for i := range tt.changes {
				if c.Changes[i] != tt.changes[i] {
					t.Errorf("change %d = %v, want %v", i, c.Changes[i], tt.changes[i])
				}
			}
			if !strings.Contains(c.String(), tt.says) {
				t.Errorf("report does not say %q:\n%s", tt.says, c)
			}
		})
	}
}
