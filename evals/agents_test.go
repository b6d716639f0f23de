package evals_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/evals"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/policy"
)

// The payments sample agent loads as `eval --agent payments` and `intake replay --agent
// payments` load it: its agent file (strictly), rules, buckets, corpus and messages; the
// tickets' labels are checked against the corpus by TestHandwrittenLabels.
func TestPaymentsSampleLoads(t *testing.T) {
	t.Parallel()
	s, err := evals.FindSample("..", "payments")
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "payments" || len(s.Rules) == 0 || s.Buckets == nil || s.ReviewDelay == "" {
		t.Fatalf("sample = %+v, want rules, buckets and a review delay", s)
	}
	versions, err := policy.ParseDir(s.Corpus())
	if err != nil {
		t.Fatal(err)
	}
	docs, changes := map[string]int{}, 0
	for _, v := range versions {
		docs[v.DocID]++
		if v.EffectiveTo != nil && v.EffectiveTo.Year() == 2026 && v.EffectiveTo.Month() >= 6 {
			changes++
		}
	}
	if len(docs) < 8 || len(docs) > 12 || changes == 0 {
		t.Errorf("%d documents, %d changes inside the tickets' range; want 8-12 documents and a change", len(docs), changes)
	}
	msgs, err := inbox.ReadFile(s.Messages())
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) < 60 {
		t.Errorf("%d messages, want at least 60", len(msgs))
	}
	support, err := inbox.NewSupport(s.Addresses)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		e := m.Expect
		if e == nil {
			t.Fatalf("message %s has no label", m.MessageID)
		}
		if e.Bucket != nil && !s.Buckets.Valid(*e.Bucket) {
			t.Errorf("message %s: bucket %q is not one of %v", m.MessageID, *e.Bucket, s.Buckets.Names())
		}
		if e.Stage == inbox.StageNone && support.Classify(m).Ambiguous {
			t.Errorf("message %s is labelled drafted but is not addressed to %v", m.MessageID, s.Addresses)
		}
	}
	if _, err := evals.FindSample("..", "no-such-agent"); err == nil || !strings.Contains(err.Error(), "no sample") {
		t.Errorf("an agent with no sample: %v, want an error saying so", err)
	}
}

// Under the payments set, the classifier puts every payments message labelled with a
// bucket and drafted as it is into that bucket.
func TestClassifierPicksPaymentsBuckets(t *testing.T) {
	t.Parallel()
	s, err := evals.FindSample("..", "payments")
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := inbox.ReadFile(filepath.Join(s.Dir, "messages.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range msgs {
		if m.Expect.Stage != inbox.StageNone || m.Expect.Bucket == nil {
			continue
		}
		n++
		want := *m.Expect.Bucket
		got, err := inbox.Classifier{Buckets: s.Buckets}.Triage(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		if got.Bucket != want {
			t.Errorf("%s %q: bucket %q (%s), want %q", m.MessageID, m.Subject, got.Bucket, got.Reason, want)
		}
	}
	if n < 30 {
		t.Errorf("%d labelled messages, want at least 30", n)
	}
	if !slices.Contains(s.Buckets.Names(), "payouts") || s.Buckets.Valid(inbox.BucketRefunds) {
		t.Errorf("payments buckets = %v", s.Buckets.Names())
	}
}
