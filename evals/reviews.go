package evals

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
)

// Review is one QA reviewer's label on one ticket's draft: a line of the --reviews file,
// {"ticket_id": "T-1001", "label": "grounded", "note": "..."}.
type Review struct {
	TicketID string `json:"ticket_id"`
	Label    string `json:"label"`
	Note     string `json:"note"`
}

// ReadReviews reads a reviews JSONL file. Unlike tickets, a bad review line stops the
// run: agreement computed over a silently shortened set would mislead. The error names
// the file, the line and the field.
func ReadReviews(path string) ([]Review, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &InputError{fmt.Errorf("open reviews file: %w", err)}
	}
	defer f.Close()
	return parseReviews(f, path)
}

func parseReviews(r io.Reader, path string) ([]Review, error) {
	var out []Review
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for line := 1; sc.Scan(); line++ {
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		fail := func(format string, args ...any) error {
			return &InputError{fmt.Errorf("%s:%d: %s", path, line, fmt.Sprintf(format, args...))}
		}
		var rv Review
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rv); err != nil {
			return nil, fail("not a review object: %v", err)
		}
		rv.Label = strings.ToLower(strings.TrimSpace(rv.Label))
		switch {
		case rv.TicketID == "":
			return nil, fail(`field "ticket_id" is required`)
		case !slices.Contains(Labels, rv.Label):
			return nil, fail(`field "label" is %q: use one of %s`, rv.Label, strings.Join(Labels, ", "))
		case seen[rv.TicketID] > 0:
			return nil, fail("ticket %s was already reviewed on line %d", rv.TicketID, seen[rv.TicketID])
		}
		seen[rv.TicketID] = line
		out = append(out, rv)
	}
	if err := sc.Err(); err != nil {
		return nil, &InputError{fmt.Errorf("read %s: %w", path, err)}
	}
	return out, nil
}

// Agreement compares a reviewer's labels with the eval's automatic ones for the system.
type Agreement struct {
	Reviewed int `json:"reviewed"`
	Compared int `json:"compared"`
	// NotCompared lists reviewed tickets the run did not draft (not in the set, cut by
	// --limit, or the draft failed).
	NotCompared   []string                  `json:"not_compared,omitempty"`
	Agreed        int                       `json:"agreed"`
	Rate          float64                   `json:"agreement"`
	Kappa         float64                   `json:"kappa"`
	PerLabel      map[string]LabelAgreement `json:"per_label"`
	Disagreements []Disagreement            `json:"disagreements"`
}

// LabelAgreement is one label's agreement over the compared drafts.
type LabelAgreement struct {
	Reviewer  int `json:"reviewer"`  // drafts the reviewer gave this label
	Automatic int `json:"automatic"` // drafts the eval gave it
	Both      int `json:"both"`
	// Agreement is Both/Reviewer: of the drafts the reviewer labelled so, the share the
	// eval labelled the same. Precision is Both/Automatic: how far the eval's label can
	// be trusted when it gives it.
	Agreement float64 `json:"agreement"`
	Precision float64 `json:"precision"`
}

// Disagreement is one draft the reviewer and the eval label differently.
type Disagreement struct {
	TicketID  string `json:"ticket_id"`
	Reviewer  string `json:"reviewer"`
	Automatic string `json:"automatic"`
	Note      string `json:"note,omitempty"`
}

// Compare matches reviews to the system's cases by ticket ID. Kappa is Cohen's kappa over
// the four labels: agreement corrected for what two raters with these label frequencies
// would reach by chance.
func Compare(reviews []Review, cases []Case) *Agreement {
	auto := map[string]string{}
	for _, c := range cases {
		if !c.Failed() {
			auto[c.TicketID] = c.Label
		}
	}
	a := &Agreement{Reviewed: len(reviews), PerLabel: map[string]LabelAgreement{}, Disagreements: []Disagreement{}}
	byReviewer, byEval, both := map[string]int{}, map[string]int{}, map[string]int{}
	for _, rv := range reviews {
		got, ok := auto[rv.TicketID]
		if !ok {
			a.NotCompared = append(a.NotCompared, rv.TicketID)
			continue
		}
		a.Compared++
		byReviewer[rv.Label]++
		byEval[got]++
		if got == rv.Label {
			a.Agreed++
			both[got]++
			continue
		}
		a.Disagreements = append(a.Disagreements, Disagreement{TicketID: rv.TicketID, Reviewer: rv.Label, Automatic: got, Note: rv.Note})
	}
	chance := 0.0
	for _, l := range Labels {
		a.PerLabel[l] = LabelAgreement{Reviewer: byReviewer[l], Automatic: byEval[l], Both: both[l],
			Agreement: ratio(both[l], byReviewer[l]), Precision: ratio(both[l], byEval[l])}
		chance += ratio(byReviewer[l], a.Compared) * ratio(byEval[l], a.Compared)
	}
	a.Rate = ratio(a.Agreed, a.Compared)
	switch {
	case a.Compared == 0:
	case chance >= 1:
		a.Kappa = 1 // one label only, and both raters used it everywhere
	default:
		a.Kappa = (a.Rate - chance) / (1 - chance)
	}
	return a
}

// WriteTable prints the agreement per label and the first disagreements.
func (a *Agreement) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "reviewer label\treviewer\teval\tboth\tagreement\tprecision\n")
	for _, l := range Labels {
		la := a.PerLabel[l]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.1f%%\t%.1f%%\n", l, la.Reviewer, la.Automatic, la.Both, 100*la.Agreement, 100*la.Precision)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "reviews: %d, compared: %d, agreement %.1f%%, Cohen's kappa %.2f\n", a.Reviewed, a.Compared, 100*a.Rate, a.Kappa)
	if len(a.NotCompared) > 0 {
		fmt.Fprintf(w, "not in this run: %s\n", strings.Join(clipList(a.NotCompared, 10), ", "))
	}
	for i, d := range a.Disagreements {
		if i == 10 {
			fmt.Fprintf(w, "  … and %d more disagreements in the JSON report\n", len(a.Disagreements)-10)
			break
		}
		fmt.Fprintf(w, "  %s: reviewer %s, eval %s  %s\n", d.TicketID, d.Reviewer, d.Automatic, d.Note)
	}
	return nil
}

func clipList(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(slices.Clone(s[:n]), fmt.Sprintf("… (%d more)", len(s)-n))
}
