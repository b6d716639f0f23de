// Package embedding turns text into vectors for similarity ranking. The local Hashing
// embedder is the default: deterministic, no network, good enough to rank inside the small
// eligible set that the hard filters leave. An OpenAI-compatible embedder is the upgrade.
package embedding

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/supportdraft/supportdraft/text"
)

// Embedder maps texts to unit vectors. Name identifies the model and its settings: chunks
// store the name they were embedded with, and a change of name triggers a re-embed.
type Embedder interface {
	Name() string
	Dims() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Hashing is a feature-hashing embedder over word unigrams, word bigrams and character
// trigrams, with sublinear term frequency and L2 normalisation. Character trigrams make it
// forgiving of typos and inflections ("refund" / "refunds" / "refnd"). Stopwords are
// dropped first: without an IDF to discount them, "we", "your" and "thanks" would make a
// long email most similar to the longest macro rather than to the section on its topic.
// German billing words are read as English (the glossary of package text), so a German question
// finds the English section when no German version exists.
type Hashing struct{ dims int }

// NewHashing returns a hashing embedder with the given number of dimensions.
func NewHashing(dims int) *Hashing { return &Hashing{dims: dims} }

// Name includes the dimension count so that resizing re-embeds the corpus, and a version
// that changes whenever the words it drops or reads as others do (package text's
// stopwords and glossary): a store embedded by an older version is re-embedded on the next
// import or start.
func (h *Hashing) Name() string { return fmt.Sprintf("hashing-v3:%d", h.dims) }

// Dims is the vector length.
func (h *Hashing) Dims() int { return h.dims }

// Embed never fails; the context is accepted to satisfy Embedder.
func (h *Hashing) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = h.vector(t)
	}
	return out, nil
}

func (h *Hashing) vector(text string) []float32 {
	counts := map[uint32]float64{}
	add := func(feature string, weight float64) {
		f := fnv.New32a()
		f.Write([]byte(feature))
		counts[f.Sum32()%uint32(h.dims)] += weight
	}
	words := contentWords(text)
	for i, w := range words {
		add("w:"+w, 1)
		if i > 0 {
			add("b:"+words[i-1]+" "+w, 0.5)
		}
		padded := []rune(" " + w + " ")
		for j := 0; j+3 <= len(padded); j++ {
			add("c:"+string(padded[j:j+3]), 0.3)
		}
	}
	vec := make([]float32, h.dims)
	for idx, c := range counts {
		if c > 1 {
			c = 1 + math.Log(c) // sublinear TF: the tenth "refund" adds little
		}
		vec[idx] = float32(c)
	}
	var norm float64 // summed in index order so the result is bit-for-bit deterministic
	for _, v := range vec {
		norm += float64(v) * float64(v)
	}
	if norm == 0 {
		return vec
	}
	inv := float32(1 / math.Sqrt(norm))
	for i := range vec {
		vec[i] *= inv
	}
	return vec
}

// contentWords is text.Words without stopwords, German billing words read as the English
// ones the policies use.
func contentWords(s string) []string {
	words := text.Words(s)
	kept := words[:0]
	for _, w := range words {
		if text.IsStopword(w) {
			continue
		}
		if en, ok := text.English(w); ok {
			w = en
		}
		kept = append(kept, w)
	}
	return kept
}
