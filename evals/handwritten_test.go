package evals_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/supportdraft/supportdraft/evals/dataset"
	"github.com/supportdraft/supportdraft/policy"
)

// TestHandwrittenLabels checks the labels of the hand-written held-out sets against their
// corpora, as docs/architecture.md defines eligibility: a wrong label would make their
// figures lie.
func TestHandwrittenLabels(t *testing.T) {
	for _, dir := range []string{"handwritten", "heldout"} {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			checkLabels(t, dir)
		})
	}
}

// checkLabels reads dir/corpus and dir/tickets.jsonl and checks every label.
func checkLabels(t *testing.T, dir string) {
	versions, err := policy.ParseDir(dir + "/corpus")
	if err != nil {
		t.Fatalf("evals/%s/corpus: %v", dir, err)
	}
	corpus := dataset.NewCorpus(versions)
	f, err := os.Open(dir + "/tickets.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	unanswerable, n := 0, 0
	for line := 1; sc.Scan(); line++ {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var tk dataset.Labelled
		if err := dec.Decode(&tk); err != nil {
			t.Fatalf("%s/tickets.jsonl line %d: %v", dir, line, err)
		}
		if err := tk.Validate(); err != nil || tk.Expect == nil {
			t.Fatalf("%s/tickets.jsonl line %d: %v (expect %v)", dir, line, err, tk.Expect)
		}
		n++
		e := tk.Expect
		if !e.Answerable {
			unanswerable++
			if len(e.Cite)+len(e.MustInclude) > 0 {
				t.Errorf("%s: an unanswerable ticket cites and includes nothing", tk.TicketID)
			}
			continue
		}
		var cited []*policy.Version
		for _, ref := range e.Cite {
			v := corpus.Ref(ref)
			if v == nil || !v.EligibleAt(tk.UpdatedAt, tk.Account.Plan, tk.Account.Region) {
				t.Errorf("%s: cites %s, which is not an eligible version then", tk.TicketID, ref)
				continue
			}
			cited = append(cited, v)
		}
		for _, fact := range e.MustInclude {
			if !slices.ContainsFunc(cited, func(v *policy.Version) bool { return dataset.Present(fact, dataset.Text(v)) }) {
				t.Errorf("%s: must_include %q is in none of %v", tk.TicketID, fact, e.Cite)
			}
		}
		for _, fact := range e.MustNotInclude {
			for _, v := range cited {
				if dataset.Present(fact, dataset.Text(v)) {
					t.Errorf("%s: must_not_include %q is stated by cited %s", tk.TicketID, fact, v.Ref())
				}
			}
		}
	}
	if n < 30 || unanswerable < 10 {
		t.Errorf("%d tickets, %d unanswerable; the set needs at least 30 and 10", n, unanswerable)
	}
}
