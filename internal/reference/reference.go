// Package reference computes, by brute force, the answer store.Eligible must give: every
// chunk is scored, eligibility is judged in Go by policy.Version.EligibleAt (the twin of
// the SQL filter, written independently), the best store.Candidates(k) by similarity are
// kept (ties by chunk ID), and they are ordered by the fused score. Tests and
// `supportdraft bench retrieval` measure retrieval against it.
package reference

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

// Corpus is every stored chunk's version metadata, read once.
type Corpus struct {
	versions map[string]*policy.Version // by chunk ID
}

// Load reads the version metadata of every chunk.
func Load(ctx context.Context, pool *pgxpool.Pool) (*Corpus, error) {
	rows, err := pool.Query(ctx, `
		SELECT c.id, v.doc_id, v.version, v.status, v.effective_from, v.effective_to, v.approved_at, v.plans, v.regions
		FROM chunks c JOIN versions v ON v.id = c.version_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	c := &Corpus{versions: map[string]*policy.Version{}}
	shared := map[string]*policy.Version{}
	for rows.Next() {
		var id string
		v := &policy.Version{}
		if err := rows.Scan(&id, &v.DocID, &v.Version, &v.Status, &v.EffectiveFrom, &v.EffectiveTo, &v.ApprovedAt, &v.Plans, &v.Regions); err != nil {
			return nil, err
		}
		if s, ok := shared[v.Ref()]; ok {
			v = s
		}
		shared[v.Ref()] = v
		c.versions[id] = v
	}
	return c, rows.Err()
}

// Eligible reports whether a chunk may be quoted at `at` to a (plan, region) account.
func (c *Corpus) Eligible(chunkID string, at time.Time, a policy.Account) bool {
	v, ok := c.versions[chunkID]
	return ok && v.EligibleAt(at, a.Plan, a.Region)
}

// Count is how many chunks are eligible at `at` for a.
func (c *Corpus) Count(at time.Time, a policy.Account) int {
	n := 0
	for id := range c.versions {
		if c.Eligible(id, at, a) {
			n++
		}
	}
	return n
}

// Scored is one chunk of the reference answer: its fused score and its similarity.
type Scored struct {
	ID         string
	Score      float64
	Similarity float64
}

// TopK scores every chunk with no filter in SQL, then filters, keeps the candidates and
// orders them exactly as store.Eligible defines its ranking.
func (c *Corpus) TopK(ctx context.Context, pool *pgxpool.Pool, q store.Query) ([]Scored, error) {
	dims := len(q.Vector)
	rows, err := pool.Query(ctx, fmt.Sprintf(`
		SELECT c.id, -((c.embedding::vector(%[1]d)) <#> $1::vector(%[1]d)), ts_rank(c.tsv, to_tsquery('simple', $2), 32)::float8, v.locale
		FROM chunks c JOIN versions v ON v.id = c.version_id
		WHERE c.embedder = $3`, dims),
		pgvector.NewVector(q.Vector), store.TSQuery(q.Text), q.Embedder)
	if err != nil {
		return nil, err
	}
	type row struct {
		id        string
		sim, rank float64
		locale    string
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
		var x row
		err := r.Scan(&x.id, &x.sim, &x.rank, &x.locale)
		return x, err
	})
	if err != nil {
		return nil, err
	}
	var eligible []row
	for _, x := range all {
		if c.Eligible(x.id, q.At, q.Account) {
			eligible = append(eligible, x)
		}
	}
	slices.SortFunc(eligible, func(a, b row) int {
		return cmp.Or(cmp.Compare(b.sim, a.sim), cmp.Compare(a.id, b.id))
	})
	eligible = eligible[:min(store.Candidates(q.K), len(eligible))]
	out := make([]Scored, len(eligible))
	for i, x := range eligible {
		score := x.sim + store.TextRankWeight*x.rank
		if x.locale == q.Account.Locale {
			score += store.LocaleBonus
		}
		out[i] = Scored{ID: x.id, Score: score, Similarity: x.sim}
	}
	slices.SortFunc(out, func(a, b Scored) int { return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID)) })
	return out[:min(q.K, len(out))], nil
}
