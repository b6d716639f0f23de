package local

import (
	"context"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/policy"
)

// write drafts req with x and fails the test if the drafter returns an error.
func write(t *testing.T, x Extractive, req llm.Request) *llm.Answer {
	t.Helper()
	d, err := x.Write(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// answered drafts req and stops the test unless the draft answers with want; what names
// that answer in the failure, and the checks after it may rely on a reply.
func answered(t *testing.T, req llm.Request, want, what string) *llm.Answer {
	t.Helper()
	d := write(t, Extractive{}, req)
	if d.Abstain || !strings.Contains(d.Reply, want) {
		t.Fatalf("reply = %q, want %s (with %q)", d.Reply, what, want)
	}
	return d
}

// answersWith drafts a reply to a customer who wrote body, from evidence as retrieval
// would hand it, and fails the test (named by name) unless the draft answers with want.
func answersWith(t *testing.T, name, body string, evidence []policy.Evidence, want string) {
	t.Helper()
	d := write(t, Extractive{}, llm.Request{Subject: "Question", Evidence: llmtest.Retrieved(body, evidence),
		Messages: []llm.Message{{Author: "customer", Body: body}}})
	if d.Abstain || !strings.Contains(d.Reply, want) {
		t.Errorf("%s: draft = %+v, want an answer with %q", name, d, want)
	}
}
