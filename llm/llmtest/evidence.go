package llmtest

import (
	"embed"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
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

// Section is the section of ev whose chunk ID ends in "#"+id; the test fails if there is
// none.
func Section(t *testing.T, ev []policy.Evidence, id string) policy.Evidence {
	t.Helper()
	for _, e := range ev {
		if strings.HasSuffix(e.ChunkID, "#"+id) {
			return e
		}
	}
	t.Fatalf("no section #%s in the evidence", id)
	return policy.Evidence{}
}

// CustomerRequest is a one-message ticket from the customer with the given evidence, as
// retrieval would hand it for that message (Retrieved).
func CustomerRequest(subject, body string, account policy.Account, ev []policy.Evidence) llm.Request {
	return llm.Request{
		Subject:  subject,
		Messages: []llm.Message{{Author: "customer", Body: body}},
		Account:  account,
		Evidence: Retrieved(subject+"\n"+body, ev),
	}
}

// Retrieved is a copy of ev with the lexical share retrieval gives each chunk for question
// (policy.Evidence.Lexical), read plainly: the share of the question's content words its
// title and text hold. A share the evidence already carries is kept.
func Retrieved(question string, ev []policy.Evidence) []policy.Evidence {
	words := text.StemSet(question)
	out := slices.Clone(ev)
	for i, e := range out {
		if e.Lexical > 0 || len(words) == 0 {
			continue
		}
		held := text.StemSet(e.Title + "\n" + e.Text)
		n := 0
		for w := range words {
			if held[w] {
				n++
			}
		}
		out[i].Lexical = float64(n) / float64(len(words))
	}
	return out
}

// ProEU is the account most provider tests draft for.
var ProEU = policy.Account{Plan: "pro", Region: "eu", Locale: "en"}
