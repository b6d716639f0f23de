package local

import (
	"context"
	"testing"

	"github.com/supportdraft/supportdraft/llm"
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
