// Package retrieval answers one question: which policy chunks may this account be told
// about at this instant, best first? Eligibility is a hard filter applied in SQL before
// any ranking; the lexical and vector arms, fused by rank (store.Fuse), only order what is
// already allowed.
package retrieval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/text"
	"github.com/supportdraft/supportdraft/ticket"
)

// Retriever embeds questions and runs the eligible-only query.
type Retriever struct {
	Store    *store.Store
	Embedder embedding.Embedder
	// SimilarityOnly drops every metadata filter and the lexical arm: the baseline evals
	// compare against, to show what plain similarity search would have quoted. It asks
	// the first query only. Never set it for live drafting.
	SimilarityOnly bool
}

// Eligible returns the k best chunks eligible at `at` for account, as drafting evidence:
// one retrieval per query, fused (Search).
func (r *Retriever) Eligible(ctx context.Context, at time.Time, account policy.Account, queries []string, k int) ([]policy.Evidence, error) {
	hits, err := r.Search(ctx, at, account, queries, k)
	if err != nil {
		return nil, err
	}
	out := make([]policy.Evidence, len(hits))
	for i, h := range hits {
		out[i] = h.Evidence
	}
	return out, nil
}

// Search runs one eligible retrieval per query and fuses their lists by reciprocal rank:
// a chunk ranked r-th for a query adds 1/(store.RRFK + r). A ticket that asks two things
// then gets the best chunks for each, where one query of its whole text would let the
// longer question drown the shorter. Each hit keeps the arm ranks and scores of the query
// that ranked it best, for `supportdraft search`, and the best lexical share any query
// gave it: the chunk may answer the question it was searched for, not the whole ticket.
func (r *Retriever) Search(ctx context.Context, at time.Time, account policy.Account, queries []string, k int) ([]store.Hit, error) {
	if len(queries) == 0 {
		return nil, nil
	}
	if r.SimilarityOnly {
		queries = queries[:1]
	}
	vecs, err := r.Embedder.Embed(ctx, queries)
	if err != nil {
		return nil, fmt.Errorf("embed question with %s: %w", r.Embedder.Name(), err)
	}
	fused := map[string]*store.Hit{}
	score, lexical := map[string]float64{}, map[string]float64{}
	for i, query := range queries {
		q := store.Query{At: at, Account: account, Text: query, Vector: vecs[i], Embedder: r.Embedder.Name(), K: k,
			VectorWeight: VectorWeight(r.Embedder)}
		search := r.Store.Eligible
		if r.SimilarityOnly {
			search = r.Store.SimilarityOnly
		}
		hits, err := search(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("eligible retrieval: %w", err)
		}
		if len(queries) == 1 {
			return hits, nil
		}
		for _, h := range hits {
			score[h.ChunkID] += 1.0 / float64(store.RRFK+h.Rank)
			lexical[h.ChunkID] = max(lexical[h.ChunkID], h.Lexical)
			if best, ok := fused[h.ChunkID]; !ok || h.Rank < best.Rank {
				fused[h.ChunkID] = &h
			}
		}
	}
	out := make([]store.Hit, 0, len(fused))
	for id, h := range fused {
		h.Fused, h.Lexical = score[id], lexical[id]
		out = append(out, *h)
	}
	return store.Diversify(out, k), nil
}

// TicketQueries are Queries for a ticket revision, read as the drafter reads it: its
// subject and its customer messages.
func TicketQueries(t *ticket.Ticket) []string {
	req := llm.RequestFromTicket(t, nil)
	return Queries(req.Subject, req.CustomerBodies())
}

// HashingVote is the vector arm's weight in the fusion with the local hashing embedder. Its
// vectors hash a chunk's words, so its arm is a second, cruder bag of words beside the
// lexical arm: at full weight it outvoted BM25 where the two disagreed, and lost a
// labelled document from the top five that the lexical arm alone had found (the shipped
// practice and help-center tuning sets). An embedding model that reads meaning votes in
// full.
const HashingVote = 0.25

// VectorWeight is how much the vector arm of emb counts in the fusion (store.Fuse).
func VectorWeight(emb embedding.Embedder) float64 {
	if _, ok := emb.(*embedding.Hashing); ok {
		return HashingVote
	}
	return 1
}

// MaxQueries bounds how many retrievals one ticket runs.
const MaxQueries = 6

// Queries are the retrievals a ticket needs: its whole text (subject and every customer
// message), then each customer message of a thread on its own, then each question of a
// ticket that asks more than one, in reading order, each once, at most MaxQueries.
func Queries(subject string, customerBodies []string) []string {
	whole := strings.TrimSpace(strings.Join(append([]string{subject}, customerBodies...), "\n"))
	out := []string{whole}
	add := func(q string) {
		q = strings.TrimSpace(q)
		if q != "" && len(out) < MaxQueries && !slices.Contains(out, q) && store.QueryWords(q) != "" {
			out = append(out, q)
		}
	}
	if len(customerBodies) > 1 {
		for _, b := range customerBodies {
			add(b)
		}
	}
	var asks []string
	for _, b := range customerBodies {
		for _, s := range text.SplitLines(b) {
			if text.IsAsking(s) {
				asks = append(asks, s)
			}
		}
	}
	if len(asks) > 1 {
		for _, a := range asks {
			add(a)
		}
	}
	return out
}

// Searcher adapts Eligible for the tool-use drafter: every search stays inside the set
// this account may be told about at this instant.
func (r *Retriever) Searcher(at time.Time, account policy.Account) llm.Searcher {
	return func(ctx context.Context, query string, k int) ([]policy.Evidence, error) {
		return r.Eligible(ctx, at, account, []string{query}, k)
	}
}
