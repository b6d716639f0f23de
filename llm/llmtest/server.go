// Package llmtest is an in-process OpenAI-compatible server for tests. It speaks the real
// wire format — POST /chat/completions answering with a chat.completion object (JSON
// content or tool calls) or an API error, and POST /embeddings — so the real openai-go
// client runs against it. Chat replies are scripted and served in order; every request
// body is recorded for assertions about what would have left the machine.
package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Reply is one scripted answer of the chat endpoint.
type Reply struct {
	// Status is the HTTP status; 0 means 200. Any status of 400 or more is sent as an
	// OpenAI error object carrying ErrorMessage.
	Status       int
	ErrorMessage string
	// Content is the assistant message's content, usually structured-output JSON.
	Content   string
	ToolCalls []ToolCall
	Refusal   string
	// FinishReason defaults to "stop", or "tool_calls" when ToolCalls is set.
	FinishReason string
	// Delay holds the answer back this long (or until the client gives up): a slow or
	// hung endpoint.
	Delay time.Duration
}

// ToolCall is one function call the scripted assistant makes.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string // JSON text
}

// JSON returns a reply whose content is v marshalled, for scripting structured output.
func JSON(v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		return Reply{Status: http.StatusInternalServerError, ErrorMessage: "llmtest: cannot marshal scripted reply: " + err.Error()}
	}
	return Reply{Content: string(b)}
}

// Error returns a reply that fails with status.
func Error(status int, message string) Reply {
	return Reply{Status: status, ErrorMessage: message}
}

// Call is one search_policy-style tool call, for scripting tool use.
func Call(id, name, argumentsJSON string) Reply {
	return Reply{ToolCalls: []ToolCall{{ID: id, Name: name, Arguments: argumentsJSON}}}
}

// Request is one request the server received.
type Request struct {
	Method string
	Path   string
	Body   []byte
}

// Server is the fake endpoint. Use URL as the client's base URL.
type Server struct {
	*httptest.Server

	mu        sync.Mutex
	chat      []Reply
	embed     []Reply // scripted embedding failures; empty means answer normally
	requests  []Request
	abandoned int // delayed replies whose client gave up first
}

// New starts a server and stops it when the test ends.
func New(tb testing.TB) *Server {
	tb.Helper()
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	tb.Cleanup(s.Close)
	return s
}

// Chat queues replies for /chat/completions, served in order. A request with no reply
// left gets a 500 naming the problem, which tests see as an error.
func (s *Server) Chat(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chat = append(s.chat, replies...)
}

// FailEmbeddings queues error replies for /embeddings; once they are used up, embeddings
// are answered with deterministic vectors.
func (s *Server) FailEmbeddings(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.embed = append(s.embed, replies...)
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// RequestsTo returns the requests whose path ends in suffix, e.g. "/chat/completions".
func (s *Server) RequestsTo(suffix string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if strings.HasSuffix(r.Path, suffix) {
			out = append(out, r)
		}
	}
	return out
}

// Abandoned counts the delayed replies whose client gave up (timed out) before them.
func (s *Server) Abandoned() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.abandoned
}

// Pending reports how many scripted chat replies have not been served.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.chat)
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Body: body})
	s.mu.Unlock()

	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		s.handleChat(r.Context(), w, body)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/embeddings"):
		s.handleEmbeddings(w, body)
	default:
		writeError(w, http.StatusNotFound, "llmtest: no route for "+r.Method+" "+r.URL.Path)
	}
}

func (s *Server) handleChat(ctx context.Context, w http.ResponseWriter, body []byte) {
	s.mu.Lock()
	if len(s.chat) == 0 {
		s.mu.Unlock()
		writeError(w, http.StatusInternalServerError, "llmtest: no scripted chat reply left")
		return
	}
	reply := s.chat[0]
	s.chat = s.chat[1:]
	s.mu.Unlock()
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-ctx.Done():
			s.mu.Lock()
			s.abandoned++
			s.mu.Unlock()
			return
		}
	}

	if reply.Status >= 400 {
		writeError(w, reply.Status, reply.ErrorMessage)
		return
	}
	var req struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(body, &req)

	message := map[string]any{"role": "assistant", "content": nil, "refusal": nil}
	if reply.Content != "" {
		message["content"] = reply.Content
	}
	if reply.Refusal != "" {
		message["refusal"] = reply.Refusal
	}
	finish := reply.FinishReason
	if len(reply.ToolCalls) > 0 {
		var calls []map[string]any
		for _, c := range reply.ToolCalls {
			calls = append(calls, map[string]any{
				"id": c.ID, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": c.Arguments},
			})
		}
		message["tool_calls"] = calls
		if finish == "" {
			finish = "tool_calls"
		}
	}
	if finish == "" {
		finish = "stop"
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": "chatcmpl-llmtest", "object": "chat.completion", "created": 1767225600, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish, "logprobs": nil}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
	})
}

// handleEmbeddings answers with a deterministic unit vector per input, derived from the
// text's hash, of the requested dimensions (8 when none is asked for).
func (s *Server) handleEmbeddings(w http.ResponseWriter, body []byte) {
	s.mu.Lock()
	if len(s.embed) > 0 {
		reply := s.embed[0]
		s.embed = s.embed[1:]
		s.mu.Unlock()
		writeError(w, reply.Status, reply.ErrorMessage)
		return
	}
	s.mu.Unlock()

	var req struct {
		Input      json.RawMessage `json:"input"`
		Model      string          `json:"model"`
		Dimensions int             `json:"dimensions"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "llmtest: bad embeddings body: "+err.Error())
		return
	}
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			writeError(w, http.StatusBadRequest, "llmtest: input must be a string or a list of strings")
			return
		}
		inputs = []string{one}
	}
	dims := req.Dimensions
	if dims <= 0 {
		dims = 8
	}
	data := make([]any, 0, len(inputs))
	for i, text := range inputs {
		data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": Vector(text, dims)})
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"object": "list", "data": data, "model": req.Model,
		"usage": map[string]any{"prompt_tokens": len(inputs), "total_tokens": len(inputs)},
	})
}

// Vector is the embedding the server returns for text: deterministic, unit length.
func Vector(text string, dims int) []float64 {
	v := make([]float64, dims)
	var norm float64
	for i := range v {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d:%s", i, text)
		v[i] = float64(h.Sum64()%2001)/1000 - 1
		norm += v[i] * v[i]
	}
	norm = math.Sqrt(norm)
	for i := range v {
		if norm > 0 {
			v[i] /= norm
		}
	}
	return v
}

func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{
		"message": message, "type": http.StatusText(status), "param": nil, "code": nil,
	}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
