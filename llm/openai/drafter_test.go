package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/llm/local"
	"github.com/supportdraft/supportdraft/llm/openai"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/ticket"
)

func newDrafter(t *testing.T, rounds int, search llm.Searcher) (*openai.Writer, *llmtest.Server) {
	t.Helper()
	srv := llmtest.New(t)
	cfg := openai.Config{BaseURL: srv.URL, APIKey: "test-key", DraftModel: "draft-model", JudgeModel: "judge-model", ToolRounds: rounds}
	return openai.NewWriter(openai.NewClient(cfg), cfg, search), srv
}

func refundRequest(t *testing.T) llm.Request {
	return llmtest.CustomerRequest("Refund for my annual plan", "Can I get a refund on my annual plan?", llmtest.ProEU, llmtest.Evidence(t, "evidence.json"))
}

const refundChunk = "billing/refunds-annual@4#refund-window"

func TestWriterParsesStructuredOutput(t *testing.T) {
	t.Parallel()
	d, srv := newDrafter(t, 0, nil)
	srv.Chat(llmtest.JSON(map[string]any{
		"reply":   "Hi,\n\nAnnual plans can be refunded in full within 14 days of purchase.",
		"abstain": false, "category": "refunds", "reasoning": "Quoted the refund window.",
		"claims": []any{map[string]any{
			"sentence":  "Annual plans can be refunded in full within 14 days of purchase.",
			"chunk_ids": []string{refundChunk},
			"quote":     "Annual plans can be refunded in full within 14 days of purchase.",
		}},
		"confidence": 0.97, // self-reported, must be ignored
	}))

	req := refundRequest(t)
	draft, err := d.Write(context.Background(), req)
	require.NoError(t, err)
	assert.False(t, draft.Abstain)
	assert.Contains(t, draft.Reply, "14 days")
	require.Len(t, draft.Claims, 1)
	assert.Equal(t, []string{refundChunk}, draft.Claims[0].ChunkIDs)
	assert.Empty(t, draft.Found, "no search ran, so nothing beyond the request was found")
	assert.Len(t, srv.RequestsTo("/chat/completions"), 1)
}

// The drafter reports what the model said, lies included; the claim checker strikes them.
func TestWriterPassesLiesThrough(t *testing.T) {
	t.Parallel()
	d, srv := newDrafter(t, 0, nil)
	invented := "Annual plans come with a 30-day refund window."
	madeUpQuote := "Customers may request a refund within 30 days."
	srv.Chat(
		llmtest.JSON(map[string]any{"reply": "Hi,\n\n" + invented, "abstain": false, "category": "refunds", "reasoning": "Quoted the refund window.",
			"claims": []any{map[string]any{"sentence": invented, "chunk_ids": []string{refundChunk}, "quote": madeUpQuote}}}),
		llmtest.JSON(map[string]any{"reply": "Hi,\n\nRefunds are instant.", "abstain": false, "category": "refunds", "reasoning": "Quoted the refund window.",
			"claims": []any{map[string]any{"sentence": "Refunds are instant.", "chunk_ids": []string{"billing/made-up@9#nowhere"}, "quote": "Refunds are instant."}}}),
	)
	ctx := context.Background()

	req := refundRequest(t)
	lie, err := d.Write(ctx, req)
	require.NoError(t, err)
	require.Len(t, lie.Claims, 1)
	assert.Equal(t, madeUpQuote, lie.Claims[0].Quote)
	assert.Contains(t, lie.Reply, "30-day refund window")
	// Downstream, the rule judge catches it against the real chunk.
	j, err := local.RuleJudge{}.JudgeClaim(ctx, lie.Claims[0].Sentence, lie.Claims[0].Quote, req.Evidence[0].Text)
	require.NoError(t, err)
	assert.Equal(t, llm.VerdictContradicts, j.Verdict, j.Reasoning)

	unknown, err := d.Write(ctx, refundRequest(t))
	require.NoError(t, err)
	assert.Equal(t, []string{"billing/made-up@9#nowhere"}, unknown.Claims[0].ChunkIDs)
}

func TestWriterMalformedOutput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reply llmtest.Reply
		want  string
	}{
		{"not JSON", llmtest.Reply{Content: `{"reply": "Hi", "abstain": fals`}, "invalid character"},
		{"wrong type", llmtest.Reply{Content: `{"reply": "Hi", "abstain": "no", "claims": []}`}, "cannot unmarshal"},
		{"missing field", llmtest.Reply{Content: `{"reply": "Hi", "abstain": false}`}, `missing "claims"`},
		{"claim without quote", llmtest.Reply{Content: `{"reply": "Hi", "abstain": false, "category": "refunds", "reasoning": "r", "claims": [{"sentence": "x", "chunk_ids": []}]}`}, "claim 0"},
		{"empty reply", llmtest.Reply{Content: `{"reply": " ", "abstain": false, "category": "refunds", "reasoning": "Quoted the refund window.", "claims": []}`}, "empty reply"},
		{"truncated", llmtest.Reply{Content: `{"reply": "Hi`, FinishReason: "length"}, "truncated"},
		{"no content", llmtest.Reply{}, "empty content"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, srv := newDrafter(t, 0, nil)
			srv.Chat(tc.reply)
			_, err := d.Write(context.Background(), refundRequest(t))
			require.Error(t, err)
			assert.ErrorIs(t, err, openai.ErrMalformedOutput)
			assert.Contains(t, err.Error(), "model returned malformed JSON")
			assert.Contains(t, err.Error(), tc.want)
			assert.False(t, openai.IsPermanent(err), "malformed output is retried by the caller, a bounded number of times")
		})
	}
}

func TestWriterRefusalAbstains(t *testing.T) {
	t.Parallel()
	d, srv := newDrafter(t, 0, nil)
	srv.Chat(llmtest.Reply{Refusal: "I can't help with that."})
	draft, err := d.Write(context.Background(), refundRequest(t))
	require.NoError(t, err)
	assert.True(t, draft.Abstain)
	assert.Empty(t, draft.Claims)
}

func TestOpenAIErrorsAreClassifiedWithoutHiddenRetries(t *testing.T) {
	t.Parallel()
	d, srv := newDrafter(t, 0, nil)
	srv.Chat(
		llmtest.Error(http.StatusTooManyRequests, "rate limited"),
		llmtest.Error(http.StatusInternalServerError, "upstream exploded"),
		llmtest.JSON(map[string]any{"reply": "Hi", "abstain": true, "category": "refunds", "reasoning": "Nothing answers it.", "claims": []any{}}),
		llmtest.Error(http.StatusBadRequest, "invalid schema"),
		llmtest.Error(http.StatusUnauthorized, "bad key"),
		llmtest.Error(http.StatusRequestTimeout, "slow"),
	)
	ctx := context.Background()
	steps := []struct {
		permanent bool
		ok        bool
	}{{false, false}, {false, false}, {false, true}, {true, false}, {true, false}, {false, false}}
	for i, step := range steps {
		_, err := d.Write(ctx, refundRequest(t))
		if step.ok {
			require.NoError(t, err, "call %d", i)
		} else {
			require.Error(t, err, "call %d", i)
			assert.Equal(t, step.permanent, openai.IsPermanent(err), "call %d: %v", i, err)
			assert.Equal(t, step.permanent, errors.Is(err, llm.ErrRejected), "call %d: the activities decide retries by llm.ErrRejected: %v", i, err)
		}
		assert.Len(t, srv.RequestsTo("/chat/completions"), i+1, "call %d: exactly one request, SDK retries are off", i)
	}
}

func TestIsPermanentOtherErrors(t *testing.T) {
	t.Parallel()
	assert.False(t, openai.IsPermanent(nil))
	assert.False(t, openai.IsPermanent(errors.New("dial tcp: connection refused")))
	assert.False(t, openai.IsPermanent(context.DeadlineExceeded))

	// A connection error from the real client: nothing listens on the address.
	cfg := openai.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k", DraftModel: "m"}
	_, err := openai.NewWriter(openai.NewClient(cfg), cfg, nil).Write(context.Background(), refundRequest(t))
	require.Error(t, err)
	assert.False(t, openai.IsPermanent(err))

	// A timeout from the real client.
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	d, _ := newDrafter(t, 0, nil)
	_, err = d.Write(ctx, refundRequest(t))
	require.Error(t, err)
	assert.False(t, openai.IsPermanent(err))
}

func TestWriterToolUse(t *testing.T) {
	t.Parallel()
	ev := llmtest.Evidence(t, "evidence.json")
	extra := policy.Evidence{ChunkID: "billing/proration@1#mid-cycle-upgrades", DocID: "billing/proration", Version: 1,
		Title: "Proration", Text: "Upgrades mid-cycle are charged pro rata for the remaining days.", Score: 0.6}
	var queries []string
	search := func(_ context.Context, query string, k int) ([]policy.Evidence, error) {
		queries = append(queries, query)
		assert.Positive(t, k)
		if len(queries) == 1 {
			return []policy.Evidence{extra, ev[0]}, nil // ev[0] was already in the request: deduped
		}
		return []policy.Evidence{ev[2]}, nil
	}
	d, srv := newDrafter(t, 2, search)
	srv.Chat(
		llmtest.Call("call_1", "search_policy", `{"query": "upgrade proration"}`),
		llmtest.Call("call_2", "search_policy", `{"query": "payment methods"}`),
		llmtest.JSON(map[string]any{"reply": "Hi,\n\nUpgrades mid-cycle are charged pro rata for the remaining days.", "abstain": false, "category": "refunds", "reasoning": "Quoted the refund window.",
			"claims": []any{map[string]any{"sentence": "Upgrades mid-cycle are charged pro rata for the remaining days.",
				"chunk_ids": []string{extra.ChunkID}, "quote": "Upgrades mid-cycle are charged pro rata for the remaining days."}}}),
	)
	req := llmtest.CustomerRequest("Upgrade", "What happens if I upgrade in the middle of the month?", llmtest.ProEU, ev[:2])

	draft, err := d.Write(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, []string{"upgrade proration", "payment methods"}, queries)
	var ids []string
	for _, e := range draft.Found {
		ids = append(ids, e.ChunkID)
	}
	assert.Equal(t, []string{extra.ChunkID, ev[2].ChunkID}, ids, "found: search results beyond the request's evidence, once each")

	reqs := srv.RequestsTo("/chat/completions")
	require.Len(t, reqs, 3)
	for i, r := range reqs {
		var body map[string]any
		require.NoError(t, json.Unmarshal(r.Body, &body))
		if i < 2 {
			assert.Contains(t, body, "tools", "request %d offers search_policy", i)
			assert.Contains(t, string(r.Body), `"name":"search_policy"`)
		} else {
			assert.NotContains(t, body, "tools", "the final request offers no tools")
		}
		assertStrictSchema(t, body, "support_draft")
	}
	// The second request carries the first call and its results back to the model.
	assert.Contains(t, string(reqs[1].Body), `"tool_call_id":"call_1"`)
	assert.Contains(t, string(reqs[1].Body), extra.ChunkID)
	assert.Contains(t, string(reqs[2].Body), `"tool_call_id":"call_2"`)
}

func TestWriterToolCallOnFinalTurnIsMalformed(t *testing.T) {
	t.Parallel()
	search := func(context.Context, string, int) ([]policy.Evidence, error) { return nil, nil }
	d, srv := newDrafter(t, 1, search)
	srv.Chat(
		llmtest.Call("call_1", "search_policy", `{"query": "refund"}`),
		llmtest.Call("call_2", "search_policy", `{"query": "refund again"}`),
	)
	_, err := d.Write(context.Background(), refundRequest(t))
	require.ErrorIs(t, err, openai.ErrMalformedOutput)
	assert.Len(t, srv.RequestsTo("/chat/completions"), 2, "one search round, then one final turn")
}

func TestWriterSearchFailureIsReturned(t *testing.T) {
	t.Parallel()
	boom := errors.New("database unavailable")
	d, srv := newDrafter(t, 2, func(context.Context, string, int) ([]policy.Evidence, error) { return nil, boom })
	srv.Chat(llmtest.Call("call_1", "search_policy", `{"query": "refund"}`))
	_, err := d.Write(context.Background(), refundRequest(t))
	require.ErrorIs(t, err, boom)
	assert.False(t, openai.IsPermanent(err))
}

// What leaves the machine: the ticket text, the eligibility fields, the evidence — and
// nothing else about the account.
func TestOpenAIDraftRequestOnTheWire(t *testing.T) {
	t.Parallel()
	tk := &ticket.Ticket{
		TicketID: "T-1001", Revision: 2,
		Account: ticket.Account{ID: "A-77", Plan: "pro", Region: "eu", Locale: "en"},
		Channel: "email", Subject: "Refund for my annual plan",
		Messages: []ticket.Message{{Author: "customer", Body: "We bought the annual plan last week. Can we get a refund?"}},
	}
	req := llm.RequestFromTicket(tk, llmtest.Evidence(t, "evidence.json"))
	d, srv := newDrafter(t, 0, nil)
	srv.Chat(llmtest.JSON(map[string]any{"reply": "Hi", "abstain": true, "category": "refunds", "reasoning": "Nothing answers it.", "claims": []any{}}))
	_, err := d.Write(context.Background(), req)
	require.NoError(t, err)

	reqs := srv.RequestsTo("/chat/completions")
	require.Len(t, reqs, 1)
	wire := string(reqs[0].Body)
	assert.Contains(t, wire, "plan: pro, region: eu, locale: en")
	assert.Contains(t, wire, "We bought the annual plan last week.")
	assert.Contains(t, wire, refundChunk)
	for _, secret := range []string{"A-77", "T-1001", `"account"`} {
		assert.NotContains(t, wire, secret)
	}
	var body map[string]any
	require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
	assert.Equal(t, "draft-model", body["model"])
	schema := assertStrictSchema(t, body, "support_draft")
	assert.ElementsMatch(t, []any{"reply", "abstain", "claims", "category", "reasoning"}, schema["required"])
	assert.NotContains(t, strings.ToLower(wire[strings.Index(wire, `"response_format"`):]), "confidence")
}

// assertStrictSchema checks response_format is a strict json_schema with the given name
// and returns the schema.
func assertStrictSchema(t *testing.T, body map[string]any, name string) map[string]any {
	t.Helper()
	rf, ok := body["response_format"].(map[string]any)
	require.True(t, ok, "response_format present")
	assert.Equal(t, "json_schema", rf["type"])
	js := rf["json_schema"].(map[string]any)
	assert.Equal(t, name, js["name"])
	assert.Equal(t, true, js["strict"])
	schema := js["schema"].(map[string]any)
	assert.Equal(t, false, schema["additionalProperties"])
	assert.NotContains(t, schema, "$ref")
	assert.NotContains(t, schema, "$schema")
	return schema
}

func TestBuildDraftRequestIsPure(t *testing.T) {
	t.Parallel()
	req := refundRequest(t)
	a, err := json.Marshal(openai.BuildDraftRequest("m", req))
	require.NoError(t, err)
	b, err := json.Marshal(openai.BuildDraftRequest("m", req))
	require.NoError(t, err)
	assert.JSONEq(t, string(a), string(b))
	assert.Contains(t, string(a), "[1] chunk_id: "+refundChunk)
	assert.Contains(t, string(a), "[customer]")
	assert.NotContains(t, string(a), "tools")
}

// A drafter built once at startup gets the ticket's eligible search with each request.
func TestWriterUsesRequestSearcher(t *testing.T) {
	t.Parallel()
	d, srv := newDrafter(t, 1, nil)
	srv.Chat(
		llmtest.Call("call_1", "search_policy", `{"query": "refund"}`),
		llmtest.JSON(map[string]any{"reply": "Hi", "abstain": true, "category": "refunds", "reasoning": "Nothing answers it.", "claims": []any{}}),
	)
	req := refundRequest(t)
	called := 0
	req.Search = func(context.Context, string, int) ([]policy.Evidence, error) { called++; return nil, nil }
	_, err := d.Write(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, 1, called)
	assert.Equal(t, 0, srv.Pending())
}

// The OpenAI writer gets the local drafter's answerability decision in front of it
// (local.Answerable, as providers wires it): a question no eligible source mentions is
// abstained on with a note naming what is missing, before any model call, however
// confidently the model would have answered.
func TestAnswerableAbstainsBeforeAskingTheModel(t *testing.T) {
	t.Parallel()
	d, srv := newDrafter(t, 0, nil)
	srv.Chat(llmtest.JSON(map[string]any{"reply": "Hi,\n\nYes, we accept Bitcoin and USDC.", "abstain": false, "category": "refunds", "reasoning": "Quoted the refund window.",
		"claims": []any{map[string]any{"sentence": "Yes, we accept Bitcoin and USDC.", "chunk_ids": []string{"billing/payment-methods@3#accepted-methods"},
			"quote": "We accept Visa, Mastercard and American Express."}}}))
	req := llmtest.CustomerRequest("Crypto", "Can we pay in Bitcoin or USDC?", llmtest.ProEU, llmtest.Evidence(t, "evidence.json"))

	ans, err := local.Answerable{Writer: d}.Write(context.Background(), req)
	require.NoError(t, err)
	assert.True(t, ans.Abstain)
	assert.Equal(t, llm.AbstainEN, strings.TrimPrefix(ans.Reply, "Hi,\n\n"))
	assert.Contains(t, ans.Note, "bitcoin")
	assert.Contains(t, ans.Note, "usdc")
	require.Len(t, ans.Unanswered, 1, "what was asked goes to the rejection log")
	assert.Contains(t, ans.Unanswered[0].Subject, "bitcoin")
	assert.Empty(t, ans.Claims)
	assert.Empty(t, srv.RequestsTo("/chat/completions"), "no model call for a question no source answers")
}

// After the model answers: a reply that claims an answer from a section about something
// else (invoices, for a refund question) is turned into an abstention naming what was
// asked; a reply about what was asked passes through untouched.
func TestAnswerableAbstainsOnAReplyAboutSomethingElse(t *testing.T) {
	t.Parallel()
	offTopic := "Invoices are issued in the currency of the billing country."
	d, srv := newDrafter(t, 0, nil)
	srv.Chat(
		llmtest.JSON(map[string]any{"reply": "Hi,\n\n" + offTopic, "abstain": false, "category": "refunds", "reasoning": "Quoted the refund window.",
			"claims": []any{map[string]any{"sentence": offTopic, "chunk_ids": []string{"billing/invoices@2#downloading-invoices"}, "quote": offTopic}}}),
		llmtest.JSON(map[string]any{"reply": "Hi,\n\nAnnual plans can be refunded in full within 14 days of purchase.", "abstain": false, "category": "refunds", "reasoning": "Quoted the refund window.",
			"claims": []any{map[string]any{"sentence": "Annual plans can be refunded in full within 14 days of purchase.",
				"chunk_ids": []string{refundChunk}, "quote": "Annual plans can be refunded in full within 14 days of purchase."}}}),
	)
	gate := local.Answerable{Writer: d}

	ans, err := gate.Write(context.Background(), refundRequest(t))
	require.NoError(t, err)
	assert.True(t, ans.Abstain, "a reply about invoices does not answer a refund question")
	assert.Contains(t, ans.Note, "refund")
	require.Len(t, ans.Unanswered, 1)
	assert.Contains(t, ans.Unanswered[0].Subject, "refund")
	assert.Empty(t, ans.Claims)

	ans, err = gate.Write(context.Background(), refundRequest(t))
	require.NoError(t, err)
	assert.False(t, ans.Abstain)
	assert.Contains(t, ans.Reply, "14 days")
	require.Len(t, ans.Claims, 1)
	assert.Len(t, srv.RequestsTo("/chat/completions"), 2)
}
