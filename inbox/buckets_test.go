package inbox

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// The default agent's set is the embedded billing file: every billing bucket named in Go
// is in it, with not_billing last, and an unknown bucket is refused.
func TestDefaultBucketsAreBillings(t *testing.T) {
	t.Parallel()
	want := []string{BucketPaymentFailed, BucketRefunds, BucketCancellation, BucketPlanChange, BucketInvoiceTax,
		BucketPricingDiscounts, BucketAccountData, BucketNotBilling}
	if got := DefaultBuckets().Names(); !slices.Equal(got, want) {
		t.Fatalf("default buckets = %v, want %v", got, want)
	}
	if !BucketSet(nil).Valid(BucketRefunds) || BucketSet(nil).Valid("payouts") {
		t.Fatal("a nil set is the default agent's")
	}
}

// A set read from an agent's YAML sorts messages into its own buckets: billing's are not
// in it, and its not_billing cues push product mail away.
func TestClassifierTakesTheAgentsSet(t *testing.T) {
	t.Parallel()
	set, err := ParseBuckets([]byte(`buckets:
  - name: payouts
    policy_words: payouts payout
    cues: {"payout": 3, "paid out": 3}
  - name: chargebacks
    policy_words: chargebacks disputes
    cues: {"chargeback": 3, "dispute": 3}
  - name: not_billing
    cues: {"terminal": 3, "webhook": 3}
`))
	if err != nil {
		t.Fatal(err)
	}
	cl := Classifier{Buckets: set}
	for _, c := range []struct{ subject, body, want string }{
		{"Missing payout", "Yesterday's payout never reached our bank.", "payouts"},
		{"Dispute on order 88", "A customer disputed a payment; what do we send?", "chargebacks"},
		{"Refund please", "Can we get a refund of the annual plan?", BucketNotBilling},
		{"Terminal broken", "The terminal shows an error; our payout page works.", BucketNotBilling},
	} {
		got, err := cl.Triage(context.Background(), &Message{Subject: c.subject, Body: c.body})
		if err != nil {
			t.Fatal(err)
		}
		if got.Bucket != c.want {
			t.Errorf("%q: bucket %q (%s), want %q", c.subject, got.Bucket, got.Reason, c.want)
		}
		if err := got.Check(set); err != nil {
			t.Errorf("%q: the answer fails its own set: %v", c.subject, err)
		}
	}
	if err := (&Triage{NeedsResponse: true, Bucket: BucketRefunds}).Check(set); err == nil {
		t.Error("a billing bucket must be refused under the payments set")
	}
}

// A set triage could not use is refused with the bucket or cue that is wrong.
func TestParseBucketsRefusesBadSets(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ yaml, want string }{
		{"buckets:\n  - name: not_billing\n    cues: {\"api\": 2}\n", "at least one bucket"},
		{"buckets:\n  - name: Payouts\n    policy_words: p\n    cues: {\"payout\": 3}\n", `name "Payouts"`},
		{"buckets:\n  - name: payouts\n    policy_words: p\n    cues: {\"payout\": 3}\n  - name: payouts\n    policy_words: p\n    cues: {\"x\": 1}\n", "listed twice"},
		{"buckets:\n  - name: payouts\n    policy_words: p\n    cues: {\"payout\": -3}\n", "no cue with a positive weight"},
		{"buckets:\n  - name: payouts\n    cues: {\"payout\": 3}\n", "policy_words is required"},
		{"buckets:\n  - name: payouts\n    policy_words: p\n    cues: {\"payout\": three}\n", "not an integer"},
		{"buckets:\n  - name: payouts\n    policy_words: p\n    cues: {\"payout\": 3, \"payout\": 2}\n", "payout"},
		{"buckets:\n  - name: payouts\n    policy_words: p\n    cues: [\"payout\"]\n", "mapping of cue text"},
		{"buckets:\n  - name: payouts\n    policy_words: p\n    weight: 3\n    cues: {\"payout\": 3}\n", "weight"},
	} {
		_, err := ParseBuckets([]byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseBuckets(%q) = %v, want an error naming %q", c.yaml, err, c.want)
		}
	}
}
