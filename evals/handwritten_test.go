package evals_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/supportdraft/supportdraft/evals/dataset"
	"github.com/supportdraft/supportdraft/policy"
)

// TestHandwrittenLabels checks the labels of the hand-written and converted sets against their corpora,
// as docs/architecture.md defines eligibility: a wrong label would make their figures lie.
// helpcenter's tuning and held-out parts share one corpus and are checked apart, so
// each part keeps enough unanswerable tickets to measure abstention on its own.
func TestHandwrittenLabels(t *testing.T) {
	for _, set := range []string{
		"handwritten/tickets.jsonl",
		"heldout/tickets.jsonl",
		"helpcenter/tickets.jsonl",
		"helpcenter/heldout.jsonl",
		"stackfaq/tickets.jsonl",
		"stackfaq/heldout.jsonl",
		"stackfaq/answers/tickets.jsonl",
		"stackfaq/answers/heldout.jsonl",
		"agents/payments/tickets.jsonl",
		"supabase/tickets.jsonl",
		"supabase/heldout.jsonl",
	} {
		t.Run(set, func(t *testing.T) {
			t.Parallel()
			checkLabels(t, set)
		})
	}
}

// minTickets and minUnanswerable are the fewest tickets, and unanswerable ones, a labelled
// file needs for its figures to mean something: with 8 unanswerable tickets abstention
// recall moves in steps of an eighth.
const (
	minTickets      = 25
	minUnanswerable = 8
)

// checkLabels reads the corpus beside the tickets file set and checks every label.
func checkLabels(t *testing.T, set string) {
	dir := filepath.Dir(set)
	versions, err := policy.ParseDir(dir + "/corpus")
	if err != nil {
		t.Fatalf("evals/%s/corpus: %v", dir, err)
	}
	corpus := dataset.NewCorpus(versions)
	f, err := os.Open(set)
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
			t.Fatalf("%s line %d: %v", set, line, err)
		}
		if err := tk.Validate(); err != nil || tk.Expect == nil {
			t.Fatalf("%s line %d: %v (expect %v)", set, line, err, tk.Expect)
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
	if n < minTickets || unanswerable < minUnanswerable {
		t.Errorf("%d tickets, %d unanswerable; the set needs at least %d and %d", n, unanswerable, minTickets, minUnanswerable)
	}
}
