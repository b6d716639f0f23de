package inbox

import (
	"context"
	"fmt"
)

// Triage is the answer of the funnel's last layer: does the message warrant a response,
// and which of the agent's buckets does it belong to.
type Triage struct {
	NeedsResponse bool   `json:"needs_response"`
	Bucket        string `json:"bucket"`
	Reason        string `json:"reason"`
	// Unsure: the message cannot be read with confidence: the local triager found no cue
	// of any bucket, or its reading and the policy corpus's disagree (the triager found no
	// billing topic, the policy corpus answers it: Ground). The message is drafted, forced
	// to review, never skipped.
	Unsure bool `json:"unsure,omitempty"`
}

// Triager classifies a message. Implementations: Classifier (local, deterministic, the
// default) and OpenAITriager (a small model with a strict JSON schema).
type Triager interface {
	Triage(ctx context.Context, m *Message) (*Triage, error)
	// Remote is true when Triage calls a model over the network.
	Remote() bool
}

// Check refuses an answer outside the contract: a bucket that is not one of the agent's
// set (nil: the default agent's), or a message that needs no response yet carries a
// bucket other than none.
func (t *Triage) Check(buckets BucketSet) error {
	if !t.NeedsResponse {
		t.Bucket = ""
		return nil
	}
	if !buckets.Valid(t.Bucket) {
		return fmt.Errorf("triage bucket %q is not one of %v", t.Bucket, buckets.Names())
	}
	return nil
}
