// Package retrieval answers one question: which policy chunks may this account be told
// about at this instant, best first? Eligibility is a hard filter applied in SQL before
// any ranking; similarity only orders what is already allowed.
package retrieval

import (
	"context"
	"fmt"
	"time"

	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

// Retriever embeds questions and runs the eligible-only query.
type Retriever struct {
	Store    *store.Store
	Embedder embedding.Embedder
	// SimilarityOnly drops every metadata filter: the baseline evals compare against, to
	// show what plain similarity search would have quoted. Never set it for live drafting.
	SimilarityOnly bool
}

// Eligible returns the k best chunks eligible at `at` for account, as drafting evidence.
func (r *Retriever) Eligible(ctx context.Context, at time.Time, account policy.Account, query string, k int) ([]policy.Evidence, error) {
	vecs, err := r.Embedder.Embed(ctx, []string{query})
	if err != nil {
		return nil, fmt.Errorf("embed question with %s: %w", r.Embedder.Name(), err)
	}
	q := store.Query{At: at, Account: account, Text: query, Vector: vecs[0], Embedder: r.Embedder.Name(), K: k}
	search := r.Store.Eligible
	if r.SimilarityOnly {
		search = r.Store.SimilarityOnly
	}
	hits, err := search(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("eligible retrieval: %w", err)
	}
	out := make([]policy.Evidence, len(hits))
	for i, h := range hits {
		out[i] = h.Evidence
	}
	return out, nil
}

// Searcher adapts Eligible for the tool-use drafter: every search stays inside the set
// this account may be told about at this instant.
func (r *Retriever) Searcher(at time.Time, account policy.Account) llm.Searcher {
	return func(ctx context.Context, query string, k int) ([]policy.Evidence, error) {
		return r.Eligible(ctx, at, account, query, k)
	}
}
