package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"testing"

	openaisdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/llm/openai"
)

func newEmbedder(t *testing.T, dims int) (*openai.Embedder, *llmtest.Server) {
	t.Helper()
	srv := llmtest.New(t)
	client := openaisdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	return openai.NewEmbedder(client, "text-embedding-3-small", dims), srv
}

func TestOpenAIEmbed(t *testing.T) {
	t.Parallel()
	e, srv := newEmbedder(t, 16)
	if got, want := e.Name(), "openai:text-embedding-3-small:16"; got != want {
		t.Fatalf("Name() = %q, want %q", got, want)
	}
	if e.Dims() != 16 {
		t.Fatalf("Dims() = %d, want 16", e.Dims())
	}
	texts := []string{"Annual plans can be refunded within 14 days.", "  ", "Invoices are issued monthly."}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("got %d vectors for %d texts", len(vecs), len(texts))
	}
	for i, v := range vecs {
		if len(v) != 16 {
			t.Fatalf("vector %d has %d dims", i, len(v))
		}
		var norm float64
		for _, x := range v {
			norm += float64(x) * float64(x)
		}
		want := 1.0
		if i == 1 {
			want = 0 // blank text: zero vector, never sent
		}
		if math.Abs(norm-want) > 1e-5 {
			t.Errorf("vector %d has squared norm %f, want %f", i, norm, want)
		}
	}
	if vecs[0][0] != float32(llmtest.Vector(texts[0], 16)[0]) {
		t.Error("vectors are not in input order")
	}

	reqs := srv.RequestsTo("/embeddings")
	if len(reqs) != 1 {
		t.Fatalf("got %d requests, want 1", len(reqs))
	}
	var body struct {
		Input          []string `json:"input"`
		Model          string   `json:"model"`
		Dimensions     int      `json:"dimensions"`
		EncodingFormat string   `json:"encoding_format"`
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Model != "text-embedding-3-small" || body.Dimensions != 16 || body.EncodingFormat != "float" || len(body.Input) != 2 {
		t.Errorf("request = %+v", body)
	}
}

func TestOpenAIEmbedBatchesAndEmpty(t *testing.T) {
	t.Parallel()
	e, srv := newEmbedder(t, 4)
	vecs, err := e.Embed(context.Background(), nil)
	if err != nil || len(vecs) != 0 {
		t.Fatalf("Embed(nil) = %v, %v", vecs, err)
	}
	texts := make([]string, 300)
	for i := range texts {
		texts[i] = "chunk text " + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	vecs, err = e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 300 {
		t.Fatalf("got %d vectors", len(vecs))
	}
	if n := len(srv.RequestsTo("/embeddings")); n != 3 {
		t.Errorf("got %d requests for 300 texts, want 3 batches", n)
	}
	if vecs[299][0] != float32(llmtest.Vector(texts[299], 4)[0]) {
		t.Error("last batch out of order")
	}
}

func TestOpenAIEmbedErrorIsTheAPIError(t *testing.T) {
	t.Parallel()
	e, srv := newEmbedder(t, 4)
	srv.FailEmbeddings(llmtest.Error(http.StatusTooManyRequests, "slow down"))
	_, err := e.Embed(context.Background(), []string{"refund"})
	var apiErr *openaisdk.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("err = %v, want a 429 *openaisdk.Error", err)
	}
	if n := len(srv.RequestsTo("/embeddings")); n != 1 {
		t.Errorf("got %d requests, want 1 (no hidden retries)", n)
	}
}
