package openai

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/openai/openai-go/v3"
)

// openAIBatch is how many texts go into one embeddings request: well under the API's
// 2,048 inputs and 300,000 tokens per request for policy-sized chunks.
const openAIBatch = 128

// Embedder embeds text with an OpenAI-compatible embeddings endpoint at a fixed number of
// dimensions, so its vectors fit the store's vector column. Build the client with
// NewClient (SDK retries off); classify its errors with IsPermanent.
type Embedder struct {
	client openai.Client
	model  string
	dims   int
}

// NewEmbedder returns an embedder for model at dims dimensions.
func NewEmbedder(client openai.Client, model string, dims int) *Embedder {
	return &Embedder{client: client, model: model, dims: dims}
}

// Name identifies model and size, e.g. "openai:text-embedding-3-small:1536". Vectors are
// only comparable under the same name, so the index records it.
func (e *Embedder) Name() string { return fmt.Sprintf("openai:%s:%d", e.model, e.dims) }

// Dims is the length of every vector Embed returns.
func (e *Embedder) Dims() int { return e.dims }

// Embed returns one unit vector per text, in the order given. A blank text gets a zero
// vector without a request, as the Hashing embedder gives it, because the API refuses
// empty input and one heading-only section must not fail a whole import. Vectors are
// normalised to unit length in case a compatible endpoint does not, and a vector of the
// wrong length (an endpoint ignoring "dimensions") is an error: it would not fit the
// vector column.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var idx []int // positions of the texts that are sent
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			out[i] = make([]float32, e.dims)
			continue
		}
		idx = append(idx, i)
	}
	for start := 0; start < len(idx); start += openAIBatch {
		part := idx[start:min(start+openAIBatch, len(idx))]
		batch := make([]string, len(part))
		for j, i := range part {
			batch[j] = texts[i]
		}
		vecs, err := e.embedBatch(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("embed %d texts with %s: %w", len(batch), e.model, err)
		}
		for j, i := range part {
			out[i] = vecs[j]
		}
	}
	return out, nil
}

func (e *Embedder) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	resp, err := e.client.Embeddings.New(ctx, openai.EmbeddingNewParams{
		Model:          openai.EmbeddingModel(e.model),
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: batch},
		Dimensions:     openai.Int(int64(e.dims)),
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	})
	if err != nil {
		return nil, classify(err)
	}
	if len(resp.Data) != len(batch) {
		return nil, fmt.Errorf("endpoint returned %d embeddings for %d texts", len(resp.Data), len(batch))
	}
	// The API returns an index per embedding; place by it rather than trusting the order.
	vecs := make([][]float32, len(batch))
	for _, d := range resp.Data {
		i := int(d.Index)
		if i < 0 || i >= len(batch) || vecs[i] != nil {
			return nil, fmt.Errorf("endpoint returned embedding index %d, out of range or repeated", d.Index)
		}
		if len(d.Embedding) != e.dims {
			return nil, fmt.Errorf("endpoint returned %d dimensions, want %d", len(d.Embedding), e.dims)
		}
		vecs[i] = unit(d.Embedding)
	}
	return vecs, nil
}

// unit converts v to float32 scaled to length 1; a zero vector stays zero.
func unit(v []float64) []float32 {
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, len(v))
	if norm == 0 {
		return out
	}
	inv := 1 / math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(x * inv)
	}
	return out
}
