package evals

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestParseReviewsNamesTheBadLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, input, want string
	}{
		{"bad JSON", "{\"ticket_id\":\"T-1\",\"label\":\"grounded\"}\n{oops", "qa.jsonl:2: not a review object"},
		{"unknown label", `{"ticket_id":"T-1","label":"great"}`, `qa.jsonl:1: field "label" is "great"`},
		{"no ticket", `{"label":"grounded"}`, `qa.jsonl:1: field "ticket_id" is required`},
		{"unknown field", `{"ticket_id":"T-1","label":"grounded","lable":"x"}`, `qa.jsonl:1: not a review object: json: unknown field "lable"`},
		{"duplicate", "{\"ticket_id\":\"T-1\",\"label\":\"grounded\"}\n\n{\"ticket_id\":\"T-1\",\"label\":\"abstained\"}", "qa.jsonl:3: ticket T-1 was already reviewed on line 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := parseReviews(strings.NewReader(tc.input), "qa.jsonl")
			if err == nil || !strings.Contains(err.Error(), tc.want) || !IsInputError(err) {
				t.Fatalf("err = %v, want an input error containing %q", err, tc.want)
			}
		})
	}
	got, err := parseReviews(strings.NewReader(`{"ticket_id":"T-1","label":" Grounded ","note":"fine"}`), "qa.jsonl")
	if err != nil || len(got) != 1 || got[0].Label != LabelGrounded {
		t.Fatalf("got %+v, %v; want one grounded review (labels are case-insensitive)", got, err)
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	cases := []Case{
		{TicketID: "T-1", Label: LabelGrounded},
		{TicketID: "T-2", Label: LabelGrounded},
		{TicketID: "T-3", Label: LabelUnsupported},
		{TicketID: "T-4", Label: LabelAbstained},
		{TicketID: "T-5"}, // failed: cannot be compared
	}
	reviews := []Review{
		{TicketID: "T-1", Label: LabelGrounded},
		{TicketID: "T-2", Label: LabelIncomplete, Note: "misses the 14 days"},
		{TicketID: "T-3", Label: LabelUnsupported},
		{TicketID: "T-4", Label: LabelAbstained},
		{TicketID: "T-5", Label: LabelGrounded},
		{TicketID: "T-99", Label: LabelGrounded},
	}
	a := Compare(reviews, cases)
	if a.Reviewed != 6 || a.Compared != 4 || a.Agreed != 3 || len(a.NotCompared) != 2 {
		t.Fatalf("agreement = %+v; want 6 reviewed, 4 compared, 3 agreed, 2 not compared", a)
	}
	if math.Abs(a.Rate-0.75) > 1e-9 {
		t.Errorf("rate = %v, want 0.75", a.Rate)
	}
	// Chance agreement: reviewer {g:1, i:1, u:1, a:1}, eval {g:2, u:1, a:1} over 4:
	// 1/4·2/4 + 1/4·0 + 1/4·1/4 + 1/4·1/4 = 0.25; kappa = (0.75−0.25)/(1−0.25) = 2/3.
	if math.Abs(a.Kappa-2.0/3) > 1e-9 {
		t.Errorf("kappa = %v, want 2/3", a.Kappa)
	}
	g := a.PerLabel[LabelGrounded]
	if g.Reviewer != 1 || g.Automatic != 2 || g.Both != 1 || g.Agreement != 1 || g.Precision != 0.5 {
		t.Errorf("grounded = %+v, want reviewer 1, eval 2, both 1, agreement 1, precision 0.5", g)
	}
	if inc := a.PerLabel[LabelIncomplete]; inc.Reviewer != 1 || inc.Both != 0 || inc.Agreement != 0 {
		t.Errorf("incomplete = %+v, want reviewer 1, both 0", inc)
	}
	if len(a.Disagreements) != 1 || a.Disagreements[0].TicketID != "T-2" || a.Disagreements[0].Automatic != LabelGrounded {
		t.Errorf("disagreements = %+v, want T-2 (reviewer incomplete, eval grounded)", a.Disagreements)
	}
	var out bytes.Buffer
	if err := a.WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"agreement 75.0%", "kappa 0.67", "T-2: reviewer incomplete, eval grounded", "T-99"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}
