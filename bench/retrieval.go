package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"

	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/internal/reference"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/retrieval"
	"github.com/supportdraft/supportdraft/store"
)

// RetrievalCase is one line of `supportdraft bench retrieval`.
type RetrievalCase struct {
	Chunks                 int     `json:"chunks"`
	Selectivity            float64 `json:"selectivity"`
	EFSearch               int     `json:"ef_search"`
	EligibleChunks         int     `json:"eligible_chunks"`
	P50Ms                  float64 `json:"p50_ms"`
	P95Ms                  float64 `json:"p95_ms"`
	RecallAt10             float64 `json:"recall_at_10"`
	BaselineIneligibleRate float64 `json:"baseline_ineligible_rate"`
	BaselineShortRate      float64 `json:"baseline_short_rate"`
	// Scopes, ScopeBuildS, the sizes and Unreached describe the whole corpus of this
	// case: how many scope partitions it has, how long building them took (fill, HNSW
	// graphs and their reachability checks), their rows and indexes on disk, and how many
	// chunks their graphs lost to the side lists; Rebuilt is how many graphs were built
	// more than once because the first build lost too many (store.MaxUnreachedShare).
	Scopes       int     `json:"scopes"`
	Unreached    int     `json:"unreached"`
	Rebuilt      int     `json:"rebuilt"`
	ScopeBuildS  float64 `json:"scope_build_s"`
	ScopeTableMB float64 `json:"scope_table_mb"`
	ScopeIndexMB float64 `json:"scope_index_mb"`
	// ReferenceScanMs is the p50 of referenceScan, timed before this corpus's queries.
	ReferenceScanMs float64 `json:"reference_scan_ms"`
	// Plan is EXPLAIN (ANALYZE, BUFFERS) of the case's first query, with --explain.
	Plan []string `json:"plan,omitempty"`
	// ScanMs is the p50 of an exact scan of the case's scope for the same queries
	// (store.ScanScope), timed after them: what the vector arm costs a scope of this size
	// without a graph, against the walk the query takes once the scope has one.
	ScanMs float64 `json:"scan_ms"`
	// ExactFallbacks is how many of the recall queries a witness sent from the graph walk
	// to an exact scan of the scope (store.ExactFallback): each costs a scan of the scope.
	ExactFallbacks int `json:"exact_fallbacks"`
	// Misses are the recall queries whose top-k is not the reference's.
	Misses []RecallMiss `json:"misses,omitempty"`
}

// RecallMiss is one query whose returned top-k is not the reference's, with both lists:
// their similarities tell a chunk the search did not find from a tie at the cut.
type RecallMiss struct {
	Query     string        `json:"query"`
	Reference []ScoredChunk `json:"reference"`
	Returned  []ScoredChunk `json:"returned"`
}

// ScoredChunk is one chunk of a RecallMiss and its similarity to the query.
type ScoredChunk struct {
	ID         string  `json:"id"`
	Similarity float64 `json:"similarity"`
}

// RetrievalOptions sets the corpus sizes and how many queries each case runs.
type RetrievalOptions struct {
	Sizes         []int
	Queries       int   // timed queries per case
	RecallQueries int   // queries checked against the exact reference per case
	EFSearch      []int // HNSW search breadths to compare, one case each; none: store.EFSearch
	Explain       bool  // keep each case's query plan
	// Keep leaves each corpus's scratch schema in place and prints its name; Schema runs the
	// cases on such a schema, of Sizes' one size, instead of loading a corpus. A 100k corpus
	// takes minutes to build, and two versions of the code compare best on the same one.
	Keep     bool
	Schema   string
	Progress io.Writer
}

const k = 10

// warmUp is how many untimed queries, other than the timed ones, each case runs first: a
// corpus just built has its graph's pages cold, which no running service has.
const warmUp = 20

// Retrieval loads each synthetic corpus into a scratch schema and measures store.Eligible:
// latency, recall@10 against the brute-force reference (internal/reference), and what a
// similarity-only baseline would have returned.
func Retrieval(ctx context.Context, databaseURL string, opt RetrievalOptions) ([]RetrievalCase, error) {
	emb := embedding.NewHashing(256)
	if opt.Schema != "" {
		if len(opt.Sizes) != 1 {
			return nil, fmt.Errorf("scratch schema %s holds one corpus: give its one size, not %d", opt.Schema, len(opt.Sizes))
		}
		scratchURL, err := store.ScratchSchema(ctx, databaseURL, opt.Schema)
		if err != nil {
			return nil, err
		}
		return retrievalSize(ctx, scratchURL, emb, opt.Sizes[0], false, opt)
	}
	var cases []RetrievalCase
	for _, size := range opt.Sizes {
		scratchURL, drop, err := store.Scratch(ctx, databaseURL, "bench")
		if err != nil {
			return nil, err
		}
		res, err := retrievalSize(ctx, scratchURL, emb, size, true, opt)
		if opt.Keep {
			u, _ := url.Parse(scratchURL)
			fmt.Fprintf(opt.Progress, "  kept the %d-chunk corpus in scratch schema %s\n", size, strings.Split(u.Query().Get("search_path"), ",")[0])
		} else if dropErr := drop(context.Background()); err == nil && dropErr != nil {
			err = dropErr
		}
		if err != nil {
			return nil, err
		}
		cases = append(cases, res...)
	}
	return cases, nil
}

// retrievalSize runs the cases of one corpus of size chunks at url, loading it first when
// load is set.
func retrievalSize(ctx context.Context, url string, emb embedding.Embedder, size int, load bool, opt RetrievalOptions) ([]RetrievalCase, error) {
	s, err := store.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var build time.Duration
	if load {
		fmt.Fprintf(opt.Progress, "loading %d synthetic chunks…\n", size)
		if build, err = loadCorpus(ctx, s, emb, size, uint64(size)); err != nil {
			return nil, err
		}
	}
	scopes, err := s.Scopes(ctx)
	if err != nil {
		return nil, err
	}
	var tableBytes, indexBytes int64
	unreached, rebuilt := 0, 0
	for _, sc := range scopes {
		tableBytes += sc.TableBytes
		indexBytes += sc.IndexBytes
		unreached += sc.Unreached
		if sc.Builds > 1 {
			rebuilt++
		}
		if sc.Indexed {
			fmt.Fprintf(opt.Progress, "  scope %s/%s: %d chunks, graph builds %d, %d unreached\n", sc.Plan, sc.Region, sc.Chunks, sc.Builds, sc.Unreached)
		}
	}
	ref, err := reference.Load(ctx, s.Pool())
	if err != nil {
		return nil, err
	}
	scanMs, err := referenceScan(ctx, s.Pool())
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(opt.Progress, "  reference scan of %d vectors: p50 %.2f ms\n", referenceRows, scanMs)
	efs := opt.EFSearch
	if len(efs) == 0 {
		efs = []int{store.EFSearch}
	}
	var out []RetrievalCase
	for _, sel := range Selectivities {
		rng := rand.New(rand.NewPCG(uint64(size), uint64(sel*1e6)))
		acct := policy.Account{Plan: planFor(sel), Region: "eu", Locale: "en"}
		eligibleChunks := ref.Count(benchAt, acct)
		fmt.Fprintf(opt.Progress, "  %d chunks, selectivity %g (%d eligible)…\n", size, sel, eligibleChunks)
		// One case per search breadth; every breadth answers the same queries, and each
		// query's exact reference and baseline are computed once.
		cases := make([]RetrievalCase, len(efs))
		lat := make([][]float64, len(efs))
		recallHits := make([]int, len(efs))
		for e, ef := range efs {
			cases[e] = RetrievalCase{Chunks: size, Selectivity: sel, EFSearch: ef, EligibleChunks: eligibleChunks,
				Scopes: len(scopes), Unreached: unreached, Rebuilt: rebuilt, ScopeBuildS: build.Seconds(), ScopeTableMB: float64(tableBytes) / (1 << 20),
				ScopeIndexMB: float64(indexBytes) / (1 << 20), ReferenceScanMs: scanMs}
		}
		// The queries are timed back to back, after warmUp untimed ones of their own, and
		// only then checked against the exact reference and the baseline. Those scan every
		// chunk, and run between the timed queries they would add their own cost to the
		// figures.
		next := func(rng *rand.Rand) store.Query {
			text := query(rng)
			vec, _ := emb.Embed(ctx, []string{text})
			return store.Query{At: benchAt, Account: acct, Text: text, Vector: vec[0], Embedder: emb.Name(), K: k,
				VectorWeight: retrieval.VectorWeight(emb)}
		}
		qs := make([]store.Query, opt.Queries)
		for i := range qs {
			qs[i] = next(rng)
		}
		warm := rand.New(rand.NewPCG(uint64(size)+1, uint64(sel*1e6)))
		for range warmUp {
			if _, err := s.Eligible(ctx, next(warm)); err != nil {
				return nil, err
			}
		}
		for e, ef := range efs {
			for i, q := range qs {
				q.EFSearch = ef
				if i == 0 && opt.Explain {
					if cases[e].Plan, err = s.ExplainEligible(ctx, q); err != nil {
						return nil, err
					}
				}
				start := time.Now()
				if _, err = s.Eligible(ctx, q); err != nil {
					return nil, err
				}
				lat[e] = append(lat[e], ms(time.Since(start)))
			}
		}
		var scans []float64
		for _, q := range qs {
			start := time.Now()
			if _, err := s.ScanScope(ctx, q); err != nil {
				return nil, err
			}
			scans = append(scans, ms(time.Since(start)))
		}
		var recallWant, baseReturned, baseIneligible, baseShort int
		for _, q := range qs[:min(len(qs), opt.RecallQueries)] {
			want, err := ref.TopK(ctx, s.Pool(), q)
			if err != nil {
				return nil, err
			}
			recallWant += len(want)
			for e := range efs {
				// The timed queries returned the fused top k; recall is the vector arm's,
				// the approximate one, asked again at the same search breadth.
				audited := q
				audited.EFSearch = efs[e]
				arms, err := s.Arms(ctx, audited)
				if err != nil {
					return nil, err
				}
				vector := reference.VectorArm(arms, k)
				found := 0
				for _, h := range vector {
					if slices.ContainsFunc(want, func(w reference.Scored) bool { return w.ID == h.ChunkID }) {
						found++
					}
				}
				recallHits[e] += found
				if found < len(want) {
					cases[e].Misses = append(cases[e].Misses, recallMiss(q.Text, want, vector))
				}
				fellBack, err := s.ExactFallback(ctx, audited)
				if err != nil {
					return nil, err
				}
				if fellBack {
					cases[e].ExactFallbacks++
				}
			}
			base, err := s.SimilarityOnly(ctx, q)
			if err != nil {
				return nil, err
			}
			eligible := 0
			for _, h := range base {
				baseReturned++
				if ref.Eligible(h.ChunkID, benchAt, acct) {
					eligible++
				} else {
					baseIneligible++
				}
			}
			if eligible < min(k, eligibleChunks) {
				baseShort++
			}
		}
		for e := range cases {
			c := &cases[e]
			c.P50Ms, c.P95Ms = percentile(lat[e], 50), percentile(lat[e], 95)
			c.ScanMs = percentile(scans, 50)
			c.RecallAt10 = ratio(recallHits[e], recallWant)
			c.BaselineIneligibleRate = ratio(baseIneligible, baseReturned)
			c.BaselineShortRate = ratio(baseShort, min(opt.Queries, opt.RecallQueries))
			// Each case's figures as soon as they are known, so a run cut short still tells them.
			fmt.Fprintf(opt.Progress, "    ef_search %d: p50 %.2f ms, p95 %.2f ms, recall@10 %.3f (%d of %d found), %d of %d queries sent from the walk to an exact scan; exact scan of the scope p50 %.2f ms\n",
				c.EFSearch, c.P50Ms, c.P95Ms, c.RecallAt10, recallHits[e], recallWant, c.ExactFallbacks, min(len(qs), opt.RecallQueries), c.ScanMs)
		}
		out = append(out, cases...)
	}
	return out, nil
}

// referenceRows is how many vectors referenceScan scans; it times referenceRuns scans after
// referenceWarmUp untimed ones.
const (
	referenceRows   = 20_000
	referenceRuns   = 50
	referenceWarmUp = 5
)

// referenceScan times a workload that no change to supportdraft touches, to tell a slower
// machine from slower code: the exact top 10 of the same referenceRows vectors of 256
// dimensions (sines of their row and dimension numbers, the same on every run) for the
// same query vector, on one of the store's connections, p50 of the runs back to back.
// Machines of the same size differ in speed, so figures of two runs compare only as far
// as their reference scans agree.
func referenceScan(ctx context.Context, pool *pgxpool.Pool) (float64, error) {
	if _, err := pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS reference_scan AS
		SELECT i, array(SELECT sin(i * 257 + j)::real FROM generate_series(1, 256) j)::vector(256) AS v
		FROM generate_series(1, $1::int) i`, referenceRows); err != nil {
		return 0, fmt.Errorf("create the reference scan's table: %w", err)
	}
	query := make([]float32, 256)
	for j := range query {
		query[j] = float32(math.Cos(float64(j + 1)))
	}
	var lat []float64
	for i := range referenceWarmUp + referenceRuns {
		start := time.Now()
		rows, err := pool.Query(ctx, `SELECT i FROM reference_scan ORDER BY v <#> $1 LIMIT 10`, pgvector.NewVector(query))
		if err != nil {
			return 0, err
		}
		if _, err := pgx.CollectRows(rows, pgx.RowTo[int]); err != nil {
			return 0, fmt.Errorf("reference scan: %w", err)
		}
		if i >= referenceWarmUp {
			lat = append(lat, ms(time.Since(start)))
		}
	}
	return percentile(lat, 50), nil
}

func recallMiss(text string, want []reference.Scored, hits []store.Hit) RecallMiss {
	m := RecallMiss{Query: text}
	for _, w := range want {
		m.Reference = append(m.Reference, ScoredChunk{ID: w.ID, Similarity: w.Similarity})
	}
	for _, h := range hits {
		m.Returned = append(m.Returned, ScoredChunk{ID: h.ChunkID, Similarity: h.Similarity})
	}
	return m
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
