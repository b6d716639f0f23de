package store

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/policy"
)

// Hit is one retrieved chunk: the evidence a draft uses, and how retrieval ranked it. Each
// arm's rank is 0 when the chunk was not among that arm's best (DocScore and DocRank are
// its document's, in the document arm); Fused is the fused score
// (Fuse) and Rank the fused rank the order follows. Evidence.Score is the similarity: how
// well the chunk fits the question on an absolute scale, which the drafter and the judge
// weigh, where the fused score only orders.
type Hit struct {
	policy.Evidence
	Locale     string  `json:"locale"`
	Heading    string  `json:"heading"`
	Similarity float64 `json:"similarity"`
	VectorRank int     `json:"vector_rank"`
	TextScore  float64 `json:"text_score"`
	TextRank   int     `json:"text_rank"`
	// TextCeiling is the most a chunk could score in the lexical arm for the query's
	// terms: TextScore's scale, which differs from query to query.
	TextCeiling float64 `json:"text_ceiling"`
	DocScore    float64 `json:"doc_score"`
	DocRank     int     `json:"doc_rank"`
	Fused       float64 `json:"fused"`
	Rank        int     `json:"rank"`
}

// Query asks for the k best chunks eligible at At for Account.
type Query struct {
	At       time.Time
	Account  policy.Account
	Text     string    // the customer's question, for the lexical arm
	Vector   []float32 // the question embedded with Embedder
	Embedder string    // only chunks embedded by the same model are comparable
	K        int
	// VectorWeight is how much the vector arm's vote counts in the fusion, the lexical
	// arm's counting 1 (Fuse): retrieval.VectorWeight says it for each embedder.
	VectorWeight float64
	// EFSearch, when not 0, replaces store.EFSearch for this query's HNSW walk, so that
	// `bench retrieval --ef-search` can weigh recall against latency on one corpus.
	EFSearch int
}

// Candidates is how many eligible chunks each arm of retrieval keeps for the fusion.
func Candidates(k int) int { return max(5*k, 50) }

// eligibleSQL is the whole retrieval in one statement when the account's scope is not
// built yet: hard filters first (the eligibility rule of docs/architecture.md through the
// stored eligible_window, plan and region), then the vector arm's candidates of that
// filtered set, then the lexical arm over the same filter (lexicalArm). The candidate step
// is written so the planner can choose: an exact scan of the filtered rows when they are
// few, or the HNSW index with pgvector's iterative scan (set on every connection, with no
// cap on scanned tuples, so the filtered result is never short) when they are many. The
// vector cast and the embedder filter match the partial HNSW index of that embedder, and
// the candidate order is the distance alone, the only order the index can produce.
const eligibleSQL = `
WITH candidates AS MATERIALIZED (
  SELECT c.id AS chunk_id, -((c.embedding::vector(%[1]d)) <#> $1::vector(%[1]d)) AS similarity
  FROM versions v
  JOIN chunks c ON c.version_id = v.id
  WHERE ` + eligibleWhere + `
  ORDER BY (c.embedding::vector(%[1]d)) <#> $1::vector(%[1]d)
  LIMIT %[2]d)`

// eligibleWhere is the hard filter of eligibleSQL, on versions v and chunks c.
const eligibleWhere = `v.status <> 'draft'
    AND v.eligible_window @> $2::timestamptz
    AND v.plans && ARRAY['*', $3]::text[]
    AND v.regions && ARRAY['*', $4]::text[]
    AND c.embedder = $5`

// Eligible returns the top-k chunks of the set eligible at q.At for q.Account, fused from
// its arms (Fuse).
func (s *Store) Eligible(ctx context.Context, q Query) ([]Hit, error) {
	hits, err := s.Arms(ctx, q)
	if err != nil {
		return nil, err
	}
	return Fuse(hits, q, q.K), nil
}

// Arms returns every chunk either arm of retrieval kept for q, unfused, with each arm's
// rank and score: from the account's scope partition when it is built (scopes.go), else
// with eligibleSQL. `bench retrieval` checks the vector arm's ranks against an exact scan.
func (s *Store) Arms(ctx context.Context, q Query) ([]Hit, error) {
	hits, err := onScope(ctx, s, q, func(sc scopeRef) (string, []any) { return eligibleStatement(q, sc) }, pgx.RowToStructByPos[Hit])
	if err != nil {
		return nil, fmt.Errorf("eligible chunks for %s/%s: %w", q.Account.Plan, q.Account.Region, err)
	}
	return hits, nil
}

// ExplainEligible runs q's statement under EXPLAIN (ANALYZE, BUFFERS) and returns the
// plan's lines: which partition, whether its HNSW graph or an exact scan, how many rows
// the time filter dropped, and planning and execution time. `bench retrieval --explain`
// prints it per selectivity. EXPLAIN plans the statement afresh, with the query's values:
// a scoped statement's plan is the same without them (graphCandidates), but its planning
// time is what a connection pays once per scope, not per query (onScope).
func (s *Store) ExplainEligible(ctx context.Context, q Query) ([]string, error) {
	plan, err := onScope(ctx, s, q, func(sc scopeRef) (string, []any) {
		sql, args := eligibleStatement(q, sc)
		return "EXPLAIN (ANALYZE, BUFFERS) " + sql, args
	}, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("explain eligible chunks for %s/%s: %w", q.Account.Plan, q.Account.Region, err)
	}
	return plan, nil
}

// eligibleStatement is q's statement: on its scope's partition when that is built, else
// the unpartitioned eligibleSQL.
func eligibleStatement(q Query, sc scopeRef) (string, []any) {
	if sc.found {
		return scopedStatement(q, sc)
	}
	from := "FROM versions v JOIN chunks c ON c.version_id = v.id WHERE " + eligibleWhere
	return fmt.Sprintf(eligibleSQL, len(q.Vector), Candidates(q.K)) + lexicalSQL(from, "$6", "$7", q),
		[]any{pgvector.NewVector(q.Vector), q.At, q.Account.Plan, q.Account.Region, q.Embedder, QueryWords(q.Text), QueryPhrases(q.Text)}
}

// onScope runs the statement that build makes on q's scope and returns its rows, each
// read with scan (none when build returns "": nothing to run). It sends the statement in one round
// trip with the scope lookup and the query's own settings: a pgx batch runs as one
// implicit transaction, so set_config(…, true) holds for that statement alone. The store
// remembers the scope each plan × region's last lookup found (scopeCache) and builds the
// statement on it; the lookup in the batch runs just before the statement and confirms it.
// When it answers otherwise (the first query of a plan × region, or a scope built or given
// its graph since), the statement is built on the new answer and sent again, with the
// lookup again. A third disagreement in a row is taken as it comes: that statement was
// built on the lookup one round trip before it, as when the lookup went alone.
//
// Scoped statements run with generic plans: their text names the scope, and their plan
// depends on no value of the query (graphCandidates), so each connection plans each once
// instead of every query paying half a millisecond or more of planning. The
// unpartitioned statement keeps the connection's custom plans: whether the global graph
// or an exact scan is cheaper depends on how many chunks the account's plan and region
// match.
func onScope[T any](ctx context.Context, s *Store, q Query, build func(scopeRef) (string, []any), scan pgx.RowToFunc[T]) ([]T, error) {
	// A query walks one agent's scopes and ranks by one agent's term statistics: the scope
	// lookup and the lexical arm see the rows of ctx's agents, which must be one.
	id, err := agent.ID(ctx)
	if err != nil {
		return nil, fmt.Errorf("retrieval: %w", err)
	}
	var out []T
	key := scopeKey{agent: id, embedder: q.Embedder, plan: q.Account.Plan, region: q.Account.Region, dims: len(q.Vector)}
	sc, known := s.scopes.get(key)
	for tries := 1; ; tries++ {
		out = nil // a statement sent on a scope that is gone answers nothing
		b := &pgx.Batch{}
		var now scopeRef
		looked := false
		queueScopeOf(b, q, &now, &looked)
		if known {
			if sql, args := build(sc); sql != "" {
				if q.EFSearch != 0 && q.EFSearch != EFSearch {
					b.Queue(`SELECT set_config('hnsw.ef_search', $1, true)`, strconv.Itoa(q.EFSearch))
				}
				if sc.found {
					b.Queue(`SELECT set_config('plan_cache_mode', 'force_generic_plan', true)`)
				}
				b.Queue(sql, args...).Query(func(rows pgx.Rows) (err error) {
					out, err = pgx.CollectRows(rows, scan)
					return err
				})
			}
		}
		err := s.db.SendBatch(ctx, b).Close()
		if !looked {
			return nil, err
		}
		s.scopes.put(key, now)
		if known && (now == sc || tries == 3) {
			return out, err
		}
		sc, known = now, true
	}
}

// scopeKey is what decides an account's scope.
type scopeKey struct {
	agent, embedder, plan, region string
	dims                          int
}

// maxScopeKeys bounds scopeCache: plans and regions come from the helpdesk's accounts,
// and a cache keyed by whatever they say must not grow without end.
const maxScopeKeys = 4096

// scopeCache is what the last lookup of each scopeKey found (onScope). It only saves a
// round trip: every query checks it against a fresh lookup.
type scopeCache struct {
	mu sync.Mutex
	m  map[scopeKey]scopeRef
}

func (c *scopeCache) get(k scopeKey) (scopeRef, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sc, ok := c.m[k]
	return sc, ok
}

func (c *scopeCache) put(k scopeKey, sc scopeRef) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxScopeKeys {
		c.m = make(map[scopeKey]scopeRef)
	}
	c.m[k] = sc
}

// similarityOnlySQL is the baseline the product exists to beat: top-k by similarity over
// every chunk, whatever its status, window or scope. Benchmarks and evals use it to show
// what unfiltered retrieval would have quoted.
const similarityOnlySQL = `
SELECT c.id, v.doc_id, v.version, v.title, v.source, v.area, c.text,
       -((c.embedding::vector(%[1]d)) <#> $1::vector(%[1]d)) AS score, c.fixed, c.audience, c.subheadings, v.locale, c.heading,
       -((c.embedding::vector(%[1]d)) <#> $1::vector(%[1]d)) AS similarity,
       row_number() OVER (ORDER BY (c.embedding::vector(%[1]d)) <#> $1::vector(%[1]d), c.id COLLATE "C")::int, 0::float8, 0, 0::float8, 0::float8, 0, 0::float8,
       row_number() OVER (ORDER BY (c.embedding::vector(%[1]d)) <#> $1::vector(%[1]d), c.id COLLATE "C")::int
FROM versions v
JOIN chunks c ON c.version_id = v.id
WHERE c.embedder = $2
ORDER BY (c.embedding::vector(%[1]d)) <#> $1::vector(%[1]d), c.id COLLATE "C"
LIMIT $3`

// SimilarityOnly returns the top-k chunks by similarity with no metadata filter at all.
func (s *Store) SimilarityOnly(ctx context.Context, q Query) ([]Hit, error) {
	rows, err := s.db.Query(ctx, fmt.Sprintf(similarityOnlySQL, len(q.Vector)), pgvector.NewVector(q.Vector), q.Embedder, q.K)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Hit])
}

// VectorIndexSQL is the statement EnsureVectorIndex runs, for bulk loaders that build the
// index on their own connection after COPY. The index is partial, one per embedder: the
// planner then estimates from the embedder column's statistics, and a change of embedder
// never mixes vector sizes in one index. The eligible query names the same expression,
// and the graph has the scopes' parameters (GraphM).
func VectorIndexSQL(embedder string, dims int) string {
	sum := sha256.Sum256([]byte(embedder))
	return fmt.Sprintf(`CREATE INDEX IF NOT EXISTS chunks_hnsw_%x ON chunks
		USING hnsw ((embedding::vector(%d)) vector_ip_ops) %s WHERE embedder = '%s'`,
		sum[:6], dims, graphWith, strings.ReplaceAll(embedder, "'", "''"))
}

// EnsureVectorIndex creates the HNSW index for emb's vectors if it is missing.
func (s *Store) EnsureVectorIndex(ctx context.Context, emb Embedder) error {
	if _, err := s.db.Exec(ctx, VectorIndexSQL(emb.Name(), emb.Dims())); err != nil {
		return fmt.Errorf("create vector index for %s: %w", emb.Name(), err)
	}
	return nil
}

// Chunks loads chunks by ID (any status: they are cited by a saved draft), as evidence.
func (s *Store) Chunks(ctx context.Context, ids []string) ([]policy.Evidence, error) {
	rows, err := s.db.Query(ctx, `
		SELECT c.id, v.doc_id, v.version, v.title, v.source, v.area, c.text, 0::float8, c.fixed, c.audience, c.subheadings
		FROM chunks c JOIN versions v ON v.id = c.version_id WHERE c.id = ANY ($1) ORDER BY c.id`, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[policy.Evidence])
}
