package llmtest

import (
	"embed"
	"encoding/json"
	"testing"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
)

// evidenceFiles are policy sections as retrieval returns them, shared by the tests of the
// local and the OpenAI providers so both read the same policy.
//
//go:embed testdata/*.json
var evidenceFiles embed.FS

// Evidence reads testdata/<name>, a JSON list of policy.Evidence.
func Evidence(t *testing.T, name string) []policy.Evidence {
	t.Helper()
	raw, err := evidenceFiles.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatalf("read evidence %s: %v", name, err)
	}
	var ev []policy.Evidence
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatalf("parse evidence %s: %v", name, err)
	}
	return ev
}

// CustomerRequest is a one-message ticket from the customer with the given evidence.
func CustomerRequest(subject, body string, account policy.Account, ev []policy.Evidence) llm.Request {
	return llm.Request{
		Subject:  subject,
		Messages: []llm.Message{{Author: "customer", Body: body}},
		Account:  account,
		Evidence: ev,
	}
}

// ProEU is the account most provider tests draft for.
var ProEU = policy.Account{Plan: "pro", Region: "eu", Locale: "en"}
