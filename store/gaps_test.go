package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/store"
)

// saveStruck saves a draft iteration whose struck sentences land in the rejection log,
// the way the workflow does, and then dates them at `at`.
func saveStruck(t *testing.T, s *store.Store, ticketID, area string, at time.Time, struck ...guard.SentenceResult) {
	t.Helper()
	ctx := context.Background()
	rec := &drafts.Saved{TicketID: ticketID, Iteration: 1, Revision: 1, Status: drafts.StatusReady, EligibleAt: at,
		Account: proEU, Reply: "Hello.", ModelReply: "Hello.",
		Sentences: append([]guard.SentenceResult{{Text: "Hello.", Kept: true, Reason: "no commitment language"}}, struck...)}
	if err := s.SaveIteration(ctx, rec, area); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().Exec(ctx, `UPDATE rejections SET at = $2 WHERE ticket_id = $1`, ticketID, at); err != nil {
		t.Fatal(err)
	}
}

func struck(sentence, reason string) guard.SentenceResult {
	return guard.SentenceResult{Text: sentence, Flagged: true, Reason: reason}
}

func TestGaps(t *testing.T) {
	t.Parallel()
	s := testdb.Tx(t)
	ctx := context.Background()
	day := func(d int) time.Time { return time.Date(2026, 11, d, 12, 0, 0, 0, time.UTC) }

	saveStruck(t, s, "T-1", "refunds", day(2),
		struck("Annual plans have a 30-day refund window.", "no eligible source states 30 day"),
		struck("We can refund the unused months.", "no eligible source backs 'refund'"))
	saveStruck(t, s, "T-2", "refunds", day(10),
		struck("You have 30 days to ask for a refund.", "no eligible source states 30 day"),
		struck("Refunds take 3 days.", `quote "takes 3 days" does not occur verbatim in billing/refunds-annual@4#what-is-refunded`))
	saveStruck(t, s, "T-3", "refunds", day(12),
		struck("Refunds are instant.", `quote "instant" does not occur verbatim in billing/refunds-monthly@1#duplicate-charges`),
		struck("Hi {{first_name}},", "unresolved placeholder {{first_name}}"))
	saveStruck(t, s, "T-4", "chargebacks", day(11),
		struck("We will win the dispute.", "no eligible source backs it"))
	saveStruck(t, s, "T-old", "invoices", day(1).AddDate(0, -2, 0),
		struck("Invoices are kept for 10 years.", "no eligible source states 10 year"))

	gaps, err := s.Gaps(ctx, day(1))
	if err != nil {
		t.Fatal(err)
	}
	var areas []string
	for _, g := range gaps {
		areas = append(areas, g.Area)
	}
	if !slices.Equal(areas, []string{"refunds", "chargebacks"}) {
		t.Fatalf("areas %v, want refunds then chargebacks (invoices is older than --since)", areas)
	}
	refunds := gaps[0]
	if refunds.Count != 6 || refunds.Tickets != 3 || !refunds.Last.Equal(day(12)) {
		t.Errorf("refunds: count %d, tickets %d, last %v", refunds.Count, refunds.Tickets, refunds.Last)
	}
	// Two quotes that are not verbatim count as one pattern; on a tie the newer comes first.
	wantReasons := []store.ReasonCount{
		{Pattern: `quote "…" does not occur verbatim in …`, Count: 2},
		{Pattern: "no eligible source states 30 day", Count: 2},
		{Pattern: "unresolved placeholder …", Count: 1},
		{Pattern: "no eligible source backs 'refund'", Count: 1},
	}
	if !slices.Equal(refunds.Reasons, wantReasons) {
		t.Errorf("reasons %+v,\nwant %+v", refunds.Reasons, wantReasons)
	}
	if len(refunds.Examples) != 3 || slices.Contains(refunds.Examples, "Annual plans have a 30-day refund window.") {
		t.Errorf("examples %q: want the 3 newest", refunds.Examples)
	}

	all, err := s.Gaps(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 {
		t.Errorf("since the beginning: %d areas, want 3", len(all))
	}
}

func TestReasonPattern(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"no eligible source states 30 day":                                        "no eligible source states 30 day",
		`quote "takes 3 days" does not occur verbatim in billing/x@4#what-is`:     `quote "…" does not occur verbatim in …`,
		"cites billing/x@9#nope, which is not in the eligible retrieved set":      "cites …, which is not in the eligible retrieved set",
		"unresolved placeholder {{first_name}}, [NAME]":                           "unresolved placeholder …",
		"the judge found that billing/refunds-annual@4#refund-window contradicts": "the judge found that … contradicts",
	}
	for in, want := range tests {
		if got := store.ReasonPattern(in); got != want {
			t.Errorf("ReasonPattern(%q) = %q, want %q", in, got, want)
		}
	}
}

// saveUnanswered saves a draft iteration the way the workflow does: an abstention (with
// its note) when abstained, else a partial answer with its open questions.
func saveUnanswered(t *testing.T, s *store.Store, ticketID, area string, abstained bool, note string, unanswered ...llm.Unanswered) {
	t.Helper()
	rec := &drafts.Saved{TicketID: ticketID, Iteration: 1, Revision: 1, Status: drafts.StatusReady, EligibleAt: time.Now(),
		Account: proEU, Reply: "Hi,", ModelReply: "Hi,",
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

	reasons := testdb.Column[string](t, ctx, s.DB(), `SELECT reason FROM rejections WHERE ticket_id = 'T-1' ORDER BY sentence`)
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
