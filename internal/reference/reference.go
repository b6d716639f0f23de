// Package reference computes, by brute force, the answer the vector arm of store.Eligible
// must give: every chunk is scored, eligibility is judged in Go by
// policy.Version.EligibleAt (the twin of the SQL filter, written independently), and the
// best k by similarity are kept (ties by chunk ID). The vector arm is the approximate part
// of retrieval (an HNSW walk on large scopes); tests and `supportdraft bench retrieval`
// measure it against this.
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

// Scored is one chunk of the reference answer and its similarity.
type Scored struct {
	ID         string
	Similarity float64
}

// TopK scores every chunk with no filter in SQL, then filters and keeps the best q.K by
// similarity, ties by chunk ID in byte order.
func (c *Corpus) TopK(ctx context.Context, pool *pgxpool.Pool, q store.Query) ([]Scored, error) {
	dims := len(q.Vector)
	rows, err := pool.Query(ctx, fmt.Sprintf(`
		SELECT c.id, -((c.embedding::vector(%[1]d)) <#> $1::vector(%[1]d))
		FROM chunks c WHERE c.embedder = $2`, dims), pgvector.NewVector(q.Vector), q.Embedder)
	if err != nil {
		return nil, err
	}
	all, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Scored])
	if err != nil {
		return nil, err
	}
	var eligible []Scored
	for _, x := range all {
		if c.Eligible(x.ID, q.At, q.Account) {
			eligible = append(eligible, x)
		}
	}
	slices.SortFunc(eligible, func(a, b Scored) int {
		return cmp.Or(cmp.Compare(b.Similarity, a.Similarity), cmp.Compare(a.ID, b.ID))
	})
	return eligible[:min(q.K, len(eligible))], nil
}

// VectorArm is the vector arm's best k of the hits store.Arms returned, in its order: what
// TopK computes exactly.
func VectorArm(hits []store.Hit, k int) []store.Hit {
	var out []store.Hit
	for _, h := range hits {
		if h.VectorRank > 0 && h.VectorRank <= k {
			out = append(out, h)
		}
	}
	slices.SortFunc(out, func(a, b store.Hit) int { return cmp.Compare(a.VectorRank, b.VectorRank) })
	return out
}
