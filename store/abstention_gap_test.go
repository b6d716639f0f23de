package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/policy"
)

// An abstention is a miss: it lands in the rejection log under the draft's area with the
// drafter's note on what no policy mentions, and `gaps` shows it.
func TestAbstentionIsLoggedAsAGap(t *testing.T) {
	t.Parallel()
	s := testdb.Tx(t)
	ctx := context.Background()
	note := "No eligible policy mentions bitcoin: the question needs a reply from the team.\n" + drafts.AbstainNote
	rec := &drafts.Saved{TicketID: "T-crypto", Iteration: 1, Revision: 1, Status: drafts.StatusAbstained, EligibleAt: time.Now(),
		Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, Reply: "Hi,", ModelReply: "Hi,",
		Abstained: true, Note: note}
	if err := s.SaveIteration(ctx, rec, "payment-methods"); err != nil {
		t.Fatal(err)
	}
	gaps, err := s.Gaps(ctx, time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(gaps) != 1 || gaps[0].Area != "payment-methods" || gaps[0].Count != 1 {
		t.Fatalf("gaps = %+v, want one payment-methods gap", gaps)
	}
	if len(gaps[0].Examples) != 1 || gaps[0].Examples[0] != "No eligible policy mentions bitcoin: the question needs a reply from the team." {
		t.Errorf("examples = %q, want the drafter's note", gaps[0].Examples)
	}
	if len(gaps[0].Reasons) != 1 || gaps[0].Reasons[0].Pattern == "" {
		t.Errorf("reasons = %+v, want the abstention reason", gaps[0].Reasons)
	}
}
