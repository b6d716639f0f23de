package inbox_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/llm/openai"
	"github.com/supportdraft/supportdraft/ticket"
)

func TestOpenAITriageThroughTheFakeServer(t *testing.T) {
	t.Parallel()
	msg := &inbox.Message{From: inbox.Address{Email: "ana@customer.example"}, Subject: "Refund", Body: "Can we get a refund of the annual plan?",
		Account: &ticket.Account{ID: "A-77", Plan: "pro", Region: "eu"}}
	cases := []struct {
		name    string
		reply   llmtest.Reply
		want    *inbox.Triage
		wantErr string
	}{
		{"good answer", llmtest.JSON(map[string]any{"needs_response": true, "bucket": "refunds", "reason": "asks for a refund"}),
			&inbox.Triage{NeedsResponse: true, Bucket: inbox.BucketRefunds, Reason: "asks for a refund"}, ""},
		{"no response needed", llmtest.JSON(map[string]any{"needs_response": false, "bucket": "refunds", "reason": "a thank-you"}),
			&inbox.Triage{NeedsResponse: false, Reason: "a thank-you"}, ""},
		{"malformed JSON", llmtest.Reply{Content: `{"needs_response": tru`}, nil, "malformed JSON"},
		{"unknown bucket", llmtest.JSON(map[string]any{"needs_response": true, "bucket": "shipping", "reason": "x"}), nil, `bucket "shipping"`},
		{"refusal", llmtest.Reply{Refusal: "I can't help with that."}, nil, "refused"},
		{"server error", llmtest.Error(http.StatusInternalServerError, "upstream exploded"), nil, "500"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.New(t)
			srv.Chat(tc.reply)
			tr := inbox.NewOpenAITriager(openai.NewClient(openai.Config{BaseURL: srv.URL, APIKey: "test"}), "triage-mini", nil)
			got, err := tr.Triage(context.Background(), msg)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if *got != *tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			reqs := srv.RequestsTo("/chat/completions")
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			var body struct {
				Model          string `json:"model"`
				ResponseFormat struct {
					Type       string `json:"type"`
					JSONSchema struct {
						Strict bool `json:"strict"`
						Schema struct {
							Properties map[string]struct {
								Enum []string `json:"enum"`
							} `json:"properties"`
							AdditionalProperties bool `json:"additionalProperties"`
						} `json:"schema"`
					} `json:"json_schema"`
				} `json:"response_format"`
			}
			if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			if body.Model != "triage-mini" || body.ResponseFormat.Type != "json_schema" || !body.ResponseFormat.JSONSchema.Strict ||
				len(body.ResponseFormat.JSONSchema.Schema.Properties["bucket"].Enum) != len(inbox.DefaultBuckets().Names()) {
				t.Fatalf("request is not strict structured output with the bucket enum: %s", reqs[0].Body)
			}
			if strings.Contains(string(reqs[0].Body), "A-77") || strings.Contains(string(reqs[0].Body), "ana@") {
				t.Fatal("the account ID and the sender's address must not leave the machine")
			}
		})
	}
}

// The triage model gets the message redacted, as the drafter does: the probe found the
// sender's name, phone, e-mail and card number verbatim on the triage wire.
func TestOpenAITriageWireIsRedacted(t *testing.T) {
	t.Parallel()
	msg := &inbox.Message{From: inbox.Address{Email: "ana.lopez@customer.example", Name: "Ana Lopez"},
		Subject: "Refund for Ana Lopez, card 4111 1111 1111 1111",
		Body:    "Hi, this is Ana Lopez. Call me on +49 170 1234567 or write to ana.lopez@customer.example. My card 4111-1111-1111-1111 was charged twice. Thanks, Ana"}
	srv := llmtest.New(t)
	srv.Chat(llmtest.JSON(map[string]any{"needs_response": true, "bucket": "refunds", "reason": "double charge"}))
	tr := inbox.NewOpenAITriager(openai.NewClient(openai.Config{BaseURL: srv.URL, APIKey: "test"}), "triage-mini", nil)
	if _, err := tr.Triage(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	reqs := srv.RequestsTo("/chat/completions")
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	wire := string(reqs[0].Body)
	for _, secret := range []string{"Ana", "Lopez", "1234567", "ana.lopez@", "4111", "1111-1111"} {
		if strings.Contains(wire, secret) {
			t.Errorf("%q reached the triage model: %s", secret, wire)
		}
	}
	if !strings.Contains(wire, "charged twice") || !strings.Contains(wire, "customer.example") {
		t.Errorf("the question and the sender's domain still go: %s", wire)
	}
}

// The model's schema and prompt name the agent's buckets, and its answer is checked
// against them: a billing bucket from a payments agent's model is an error.
func TestOpenAITriageUsesTheAgentsBuckets(t *testing.T) {
	t.Parallel()
	set, err := inbox.ParseBuckets([]byte("buckets:\n  - name: payouts\n    policy_words: payouts\n    cues: {\"payout\": 3}\n"))
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t)
	srv.Chat(llmtest.JSON(map[string]any{"needs_response": true, "bucket": "refunds", "reason": "x"}))
	tr := inbox.NewOpenAITriager(openai.NewClient(openai.Config{BaseURL: srv.URL, APIKey: "test"}), "triage-mini", set)
	msg := &inbox.Message{From: inbox.Address{Email: "a@merchant.example"}, Subject: "Payout", Body: "Where is our payout?"}
	if _, err := tr.Triage(context.Background(), msg); err == nil || !strings.Contains(err.Error(), `bucket "refunds"`) {
		t.Fatalf("error %v, want the billing bucket refused", err)
	}
	var body struct {
		Messages       []struct{ Content string } `json:"messages"`
		ResponseFormat struct {
			JSONSchema struct {
				Schema struct {
					Properties map[string]struct {
						Enum []string `json:"enum"`
					} `json:"properties"`
				} `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(srv.RequestsTo("/chat/completions")[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if enum := body.ResponseFormat.JSONSchema.Schema.Properties["bucket"].Enum; strings.Join(enum, ",") != "payouts,not_billing" {
		t.Errorf("bucket enum = %v, want [payouts not_billing]", enum)
	}
	if !strings.Contains(body.Messages[0].Content, "payouts, or not_billing") || strings.Contains(body.Messages[0].Content, "refunds") {
		t.Errorf("the prompt must name the agent's buckets only: %s", body.Messages[0].Content)
	}
}
