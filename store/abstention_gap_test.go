package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

// saveUnanswered saves a draft iteration the way the workflow does: an abstention (with
// its note) when abstained, else a partial answer with its open questions.
func saveUnanswered(t *testing.T, s *store.Store, ticketID, area string, abstained bool, note string, unanswered ...llm.Unanswered) {
	t.Helper()
	rec := &drafts.Saved{TicketID: ticketID, Iteration: 1, Revision: 1, Status: drafts.StatusReady, EligibleAt: time.Now(),
		Account: policy.Account{Plan: "pro", Region: "eu", Locale: "en"}, Reply: "Hi,", ModelReply: "Hi,",
		Abstained: abstained, Note: note, Unanswered: unanswered}
	if abstained {
		rec.Status = drafts.StatusAbstained
	}
	if err := s.SaveIteration(context.Background(), rec, area); err != nil {
		t.Fatal(err)
	}
}

// An abstention is a miss: it lands in the rejection log under the draft's area with the
// drafter's note on what no policy mentions and what the question asked about, and `gaps`
// shows it.
func TestAbstentionIsLoggedAsAGap(t *testing.T) {
	t.Parallel()
	s := testdb.Tx(t)
	ctx := context.Background()
	note := "No eligible policy mentions bitcoin: the question needs a reply from the team.\n" + drafts.AbstainNote
	saveUnanswered(t, s, "T-crypto", "payment-methods", true, note, llm.Unanswered{Subject: "bitcoin"})
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
	if len(gaps[0].Subjects) != 1 || gaps[0].Subjects[0].Subject != "bitcoin" || gaps[0].Subjects[0].Count != 1 {
		t.Errorf("subjects = %+v, want bitcoin once", gaps[0].Subjects)
	}
}

// The questions a partial answer leaves open are misses too, one line each with what it
// asked about; a partial answer's answered part logs nothing. Gaps ranks an area's
// subjects by how often they were asked, whether the draft abstained or answered in part.
func TestOpenQuestionsOfPartialAnswersAreRankedGaps(t *testing.T) {
	t.Parallel()
	s := testdb.Tx(t)
	ctx := context.Background()
	saveUnanswered(t, s, "T-1", "payment-methods", false, "",
		llm.Unanswered{Question: "Can we pay with Alipay?", Subject: "alipay"},
		llm.Unanswered{Question: "Do you take cheques?", Subject: "cheques"})
	saveUnanswered(t, s, "T-2", "payment-methods", true, "No eligible policy mentions alipay: the question needs a reply from the team.",
		llm.Unanswered{Subject: "alipay"})
	saveUnanswered(t, s, "T-3", "payment-methods", false, "", llm.Unanswered{Question: "Is Alipay accepted for annual plans?", Subject: "alipay"})
	saveUnanswered(t, s, "T-4", "payment-methods", false, "") // answered in full: nothing to log

	var reasons []string
	rows, err := s.DB().Query(ctx, `SELECT reason FROM rejections WHERE ticket_id = 'T-1' ORDER BY sentence`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			t.Fatal(err)
		}
		reasons = append(reasons, r)
	}
	if len(reasons) != 2 || reasons[0] != reasons[1] || reasons[0] == "" {
		t.Errorf("T-1 logged %q, want one line per open question with the partial-answer reason", reasons)
	}

	gaps, err := s.Gaps(ctx, time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(gaps) != 1 || gaps[0].Count != 4 || gaps[0].Tickets != 3 {
		t.Fatalf("gaps = %+v, want one payment-methods gap of 4 lines in 3 tickets", gaps)
	}
	var subjects []string
	for _, sc := range gaps[0].Subjects {
		subjects = append(subjects, sc.Subject)
	}
	if !slices.Equal(subjects, []string{"alipay", "cheques"}) || gaps[0].Subjects[0].Count != 3 {
		t.Errorf("subjects = %+v, want alipay (3) before cheques (1)", gaps[0].Subjects)
	}
}
