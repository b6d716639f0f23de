package intakereplay_test

import (
	"context"
	"os"
	"testing"

	"github.com/supportdraft/supportdraft/evals"
	"github.com/supportdraft/supportdraft/evals/intakereplay"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/internal/testdb"
)

// The labelled sets through the real funnel (Postgres, Temporal, triage read against each
// agent's eligible corpus): no genuine message is thrown away as noise, buckets stay
// right, and a payments message with none of its agent's cue words that the payments
// corpus answers is drafted for review in the bucket its closest section names, not
// skipped as off-topic.
func TestLabelledSetsKeepEveryGenuineMessage(t *testing.T) {
	temporal := os.Getenv("TEMPORAL_ADDRESS")
	if temporal == "" {
		t.Fatal("TEMPORAL_ADDRESS is not set: run the tests with scripts/test.sh, which starts the Temporal dev server and sets it")
	}
	payments, err := evals.FindSample("../..", "payments")
	if err != nil {
		t.Fatal(err)
	}
	billingRules, err := inbox.LoadRules("../../evals/rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	paymentsRules, err := payments.IntakeRules()
	if err != nil {
		t.Fatal(err)
	}
	sets := []struct {
		name, messages, corpus string
		rules                  *inbox.Rules
		addresses              []string
		buckets                inbox.BucketSet
	}{
		{"billing", "../../evals/messages.jsonl", "../../evals/corpus", billingRules, inbox.DefaultSupportAddresses, nil},
		{"payments", payments.Messages(), payments.Corpus(), paymentsRules, payments.Addresses, payments.Buckets},
	}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			support, err := inbox.NewSupport(set.addresses)
			if err != nil {
				t.Fatal(err)
			}
			msgs, err := inbox.ReadFile(set.messages)
			if err != nil {
				t.Fatal(err)
			}
			st, err := intakereplay.StartStack(ctx, intakereplay.StackOptions{DatabaseURL: testdb.URL(t), TemporalAddress: temporal, Rules: set.rules,
				Support: support, Triager: inbox.Classifier{Buckets: set.buckets}, Buckets: set.buckets, Corpus: set.corpus})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			r, err := intakereplay.Replay(ctx, st, msgs, nil)
			if err != nil {
				t.Fatal(err)
			}
			if *r.GenuineDropped != 0 || *r.BucketAccuracy < 0.90 {
				t.Errorf("genuine dropped %d, bucket accuracy %.3f; want 0 and at least 0.90", *r.GenuineDropped, *r.BucketAccuracy)
			}
			rescued := 0
			for i, d := range r.Decisions {
				e := msgs[i].Expect
				if d.Stage == inbox.StageUnsure && d.Bucket != nil && *d.Bucket != inbox.BucketNotBilling && e.Stage == inbox.StageUnsure {
					rescued++
					if *d.Bucket != *e.Bucket {
						t.Errorf("%s: rescued into %q, want %q (%s)", d.MessageID, *d.Bucket, *e.Bucket, d.Reason)
					}
				}
			}
			if set.name == "payments" && rescued < 2 {
				t.Errorf("%d cue-less payments messages drafted for review, want at least 2", rescued)
			}
		})
	}
}
