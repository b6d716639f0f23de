package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/supportdraft/supportdraft/policy"

	"github.com/supportdraft/supportdraft/llm"
)

// searchToolName is the one tool the drafter offers.
const searchToolName = "search_policy"

// searchK is how many sections one search returns: enough to find the section a first
// retrieval missed, few enough to keep the prompt short.
const searchK = 4

// searchArgs are the tool's arguments; its strict parameter schema is reflected from it.
type searchArgs struct {
	Query string `json:"query" jsonschema_description:"What to look for in the current policy, in a few words."`
}

// searchResult is what the model sees of one search hit: enough to cite and quote it.
type searchResult struct {
	ChunkID string `json:"chunk_id"`
	Title   string `json:"title"`
	Text    string `json:"text"`
}

// searchTool declares search_policy with strict arguments.
func searchTool() (openai.ChatCompletionToolUnionParam, error) {
	raw, err := json.Marshal(StrictSchema(searchArgs{}))
	if err != nil {
		return openai.ChatCompletionToolUnionParam{}, fmt.Errorf("search tool schema: %w", err)
	}
	var params shared.FunctionParameters
	if err := json.Unmarshal(raw, &params); err != nil {
		return openai.ChatCompletionToolUnionParam{}, fmt.Errorf("search tool schema: %w", err)
	}
	return openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
		Name:        searchToolName,
		Description: openai.String("Search the current, approved billing policy that applies to this customer's plan and region."),
		Strict:      openai.Bool(true),
		Parameters:  params,
	}), nil
}

// draftWithTools runs the tool-use loop. For at most d.rounds turns, and while searches
// remain (d.rounds in all), the model may call search_policy; each call runs the
// eligible-only Searcher and its new results are returned as Draft.Found. Then the request carries no
// tools, so the model has to commit to a structured answer. Counting turns as well as
// searches bounds the loop even for a model that only ever calls unknown tools: at most
// d.rounds+1 requests.
func (d *Writer) draftWithTools(ctx context.Context, params openai.ChatCompletionNewParams, req llm.Request, search llm.Searcher) (*llm.Answer, error) {
	tool, err := searchTool()
	if err != nil {
		return nil, err
	}
	seen := dedupEvidence(nil, req.Evidence...)
	known := len(seen) // seen[known:] is what the searches found
	searches := 0
	for turn := 0; ; turn++ {
		offer := turn < d.rounds && searches < d.rounds
		params.Tools = nil
		if offer {
			params.Tools = []openai.ChatCompletionToolUnionParam{tool}
		}
		completion, err := d.client.Chat.Completions.New(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("draft with %s (search %d of %d): %w", d.model, searches, d.rounds, classify(err))
		}
		msg, finish, err := firstMessage(completion)
		if err != nil {
			return nil, fmt.Errorf("draft with %s: %w", d.model, err)
		}
		if len(msg.ToolCalls) == 0 {
			return finishDraft(d.model, req, msg, finish, seen[known:])
		}
		if !offer {
			return nil, fmt.Errorf("draft with %s: %w", d.model, malformed("tool call on the final turn, where no tools were offered"))
		}
		params.Messages = append(params.Messages, msg.ToParam())
		// Every tool call needs a tool message in reply, or the next request is invalid;
		// calls beyond the budget get a message saying so instead of results.
		for _, call := range msg.ToolCalls {
			content, hits, err := runTool(ctx, search, call, searches < d.rounds)
			if err != nil {
				return nil, err
			}
			if hits != nil {
				searches++
				seen = dedupEvidence(seen, hits...)
			}
			params.Messages = append(params.Messages, openai.ToolMessage(content, call.ID))
		}
	}
}

// runTool answers one tool call. hits is nil when no search ran (unknown tool, bad
// arguments, budget spent); the model is told why in content. Only a failing Searcher is
// an error, since that is our infrastructure, not the model's mistake.
func runTool(ctx context.Context, search llm.Searcher, call openai.ChatCompletionMessageToolCallUnion, allowed bool) (string, []policy.Evidence, error) {
	if call.Function.Name != searchToolName {
		return fmt.Sprintf("error: unknown tool %q; the only tool is %s", call.Function.Name, searchToolName), nil, nil
	}
	if !allowed {
		return "error: search limit reached; answer from the evidence you have", nil, nil
	}
	var args searchArgs
	if err := json.Unmarshal([]byte(call.Function.Arguments), &args); err != nil || strings.TrimSpace(args.Query) == "" {
		return `error: arguments must be {"query": "<non-empty text>"}`, nil, nil
	}
	hits, err := search(ctx, args.Query, searchK)
	if err != nil {
		// The query is left out: the model may have copied customer text into it.
		return "", nil, fmt.Errorf("search_policy: %w", err)
	}
	results := make([]searchResult, 0, len(hits))
	for _, h := range hits {
		results = append(results, searchResult{ChunkID: h.ChunkID, Title: h.Title, Text: h.Text})
	}
	out, err := json.Marshal(results)
	if err != nil {
		return "", nil, fmt.Errorf("search_policy results: %w", err)
	}
	if hits == nil {
		hits = []policy.Evidence{} // a search ran, even with no hits
	}
	return string(out), hits, nil
}

// dedupEvidence appends the items of more whose chunk ID is not yet in list, keeping the
// first occurrence, so each snippet is listed once in the order it was seen.
func dedupEvidence(list []policy.Evidence, more ...policy.Evidence) []policy.Evidence {
	seen := make(map[string]bool, len(list)+len(more))
	for _, e := range list {
		seen[e.ChunkID] = true
	}
	for _, e := range more {
		if seen[e.ChunkID] {
			continue
		}
		seen[e.ChunkID] = true
		list = append(list, e)
	}
	return list
}
