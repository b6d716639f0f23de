package bench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

// RetrievalCase is one line of `supportdraft bench retrieval`.
type RetrievalCase struct {
	Chunks                 int     `json:"chunks"`
	Selectivity            float64 `json:"selectivity"`
	EligibleChunks         int     `json:"eligible_chunks"`
	P50Ms                  float64 `json:"p50_ms"`
	P95Ms                  float64 `json:"p95_ms"`
	RecallAt10             float64 `json:"recall_at_10"`
	BaselineIneligibleRate float64 `json:"baseline_ineligible_rate"`
	BaselineShortRate      float64 `json:"baseline_short_rate"`
}

// RetrievalOptions sets the corpus sizes and how many queries each case runs.
type RetrievalOptions struct {
	Sizes         []int
	Queries       int // timed queries per case
	RecallQueries int // queries checked against the exact reference per case
	Progress      io.Writer
}

const k = 10

// Retrieval loads each synthetic corpus into a scratch schema and measures store.Eligible:
// latency, recall@10 against an independent exact reference, and what a similarity-only
// baseline would have returned.
func Retrieval(ctx context.Context, databaseURL string, opt RetrievalOptions) ([]RetrievalCase, error) {
	emb := embedding.NewHashing(256)
	var cases []RetrievalCase
	for _, size := range opt.Sizes {
		scratchURL, drop, err := store.Scratch(ctx, databaseURL, "bench")
		if err != nil {
			return nil, err
		}
		res, err := retrievalSize(ctx, scratchURL, emb, size, opt)
		if dropErr := drop(context.Background()); err == nil && dropErr != nil {
			err = dropErr
		}
		if err != nil {
			return nil, err
		}
		cases = append(cases, res...)
	}
	return cases, nil
}

func retrievalSize(ctx context.Context, url string, emb embedding.Embedder, size int, opt RetrievalOptions) ([]RetrievalCase, error) {
	s, err := store.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	fmt.Fprintf(opt.Progress, "loading %d synthetic chunks…\n", size)
	if err := loadCorpus(ctx, s, emb, size, uint64(size)); err != nil {
		return nil, err
	}
	ref, err := loadReference(ctx, s)
	if err != nil {
		return nil, err
	}
	var out []RetrievalCase
	for _, sel := range Selectivities {
		rng := rand.New(rand.NewPCG(uint64(size), uint64(sel*1e6)))
		acct := policy.Account{Plan: planFor(sel), Region: "eu", Locale: "en"}
		c := RetrievalCase{Chunks: size, Selectivity: sel, EligibleChunks: ref.eligibleCount(acct)}
		fmt.Fprintf(opt.Progress, "  %d chunks, selectivity %g (%d eligible)…\n", size, sel, c.EligibleChunks)
		var lat []float64
		var recallHits, recallWant, baseReturned, baseIneligible, baseShort int
		for i := range opt.Queries {
			text := query(rng)
			vec, _ := emb.Embed(ctx, []string{text})
			q := store.Query{At: benchAt, Account: acct, Text: text, Vector: vec[0], Embedder: emb.Name(), K: k}
			start := time.Now()
			hits, err := s.Eligible(ctx, q)
			if err != nil {
				return nil, err
			}
			lat = append(lat, float64(time.Since(start).Microseconds())/1000)
			if i >= opt.RecallQueries {
				continue
			}
			want, err := ref.exactTopK(ctx, s, q)
			if err != nil {
				return nil, err
			}
			recallWant += len(want)
			for _, h := range hits {
				if slices.Contains(want, h.ChunkID) {
					recallHits++
				}
			}
			base, err := s.SimilarityOnly(ctx, q)
			if err != nil {
				return nil, err
			}
			eligible := 0
			for _, h := range base {
				baseReturned++
				if ref.eligible(h.ChunkID, acct) {
					eligible++
				} else {
					baseIneligible++
				}
			}
			if eligible < min(k, c.EligibleChunks) {
				baseShort++
			}
		}
		c.P50Ms, c.P95Ms = percentile(lat, 50), percentile(lat, 95)
		c.RecallAt10 = ratio(recallHits, recallWant)
		c.BaselineIneligibleRate = ratio(baseIneligible, baseReturned)
		c.BaselineShortRate = ratio(baseShort, min(opt.Queries, opt.RecallQueries))
		out = append(out, c)
	}
	return out, nil
}

// reference holds every chunk's metadata so eligibility can be judged in Go, by
// policy.Version.EligibleAt, independently of the SQL filter under test.
type reference struct {
	versions map[string]*policy.Version // by chunk ID
}

func loadReference(ctx context.Context, s *store.Store) (*reference, error) {
	rows, err := s.Pool().Query(ctx, `
		SELECT c.id, v.doc_id, v.version, v.status, v.effective_from, v.effective_to, v.approved_at, v.plans, v.regions
		FROM chunks c JOIN versions v ON v.id = c.version_id`)
	if err != nil {
		return nil, err
	}
	ref := &reference{versions: map[string]*policy.Version{}}
	cache := map[string]*policy.Version{}
	for rows.Next() {
		var id string
		v := &policy.Version{}
		if err := rows.Scan(&id, &v.DocID, &v.Version, &v.Status, &v.EffectiveFrom, &v.EffectiveTo, &v.ApprovedAt, &v.Plans, &v.Regions); err != nil {
			return nil, err
		}
		if shared, ok := cache[v.Ref()]; ok {
			v = shared
		} else {
			cache[v.Ref()] = v
		}
		ref.versions[id] = v
	}
	return ref, rows.Err()
}

func (r *reference) eligible(chunkID string, a policy.Account) bool {
	v, ok := r.versions[chunkID]
	return ok && v.EligibleAt(benchAt, a.Plan, a.Region)
}

func (r *reference) eligibleCount(a policy.Account) int {
	n := 0
	for id := range r.versions {
		if r.eligible(id, a) {
			n++
		}
	}
	return n
}

// exactTopK scores EVERY chunk with the same scoring expression but no filter, then
// filters in Go and sorts: the brute-force answer the filtered query must reproduce.
func (r *reference) exactTopK(ctx context.Context, s *store.Store, q store.Query) ([]string, error) {
	rows, err := s.Pool().Query(ctx, `
		SELECT c.id, (1 - (c.embedding <=> $1)) + $3 * ts_rank(c.tsv, to_tsquery('simple', $2), 32)
		           + CASE WHEN v.locale = $4 THEN $5 ELSE 0 END
		FROM chunks c JOIN versions v ON v.id = c.version_id`,
		pgvector.NewVector(q.Vector), store.TSQuery(q.Text), store.TextRankWeight, q.Account.Locale, store.LocaleBonus)
	if err != nil {
		return nil, err
	}
	type scored struct {
		id    string
		score float64
	}
	all, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (scored, error) {
		var sc scored
		err := row.Scan(&sc.id, &sc.score)
		return sc, err
	})
	if err != nil {
		return nil, err
	}
	var eligible []scored
	for _, sc := range all {
		if r.eligible(sc.id, q.Account) {
			eligible = append(eligible, sc)
		}
	}
	sort.Slice(eligible, func(i, j int) bool {
		if eligible[i].score != eligible[j].score {
			return eligible[i].score > eligible[j].score
		}
		return eligible[i].id < eligible[j].id
	})
	var ids []string
	for _, sc := range eligible[:min(q.K, len(eligible))] {
		ids = append(ids, sc.id)
	}
	return ids, nil
}

func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	idx := int(float64(len(s)-1) * p / 100)
	return s[idx]
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
