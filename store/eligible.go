package store

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
)

// Hit is one retrieved chunk with the metadata a draft binds to.
type Hit struct {
	ChunkID    string  `json:"chunk_id"`
	DocID      string  `json:"doc_id"`
	Version    int     `json:"version"`
	Title      string  `json:"title"`
	Source     string  `json:"source"`
	Area       string  `json:"area"`
	Locale     string  `json:"locale"`
	Heading    string  `json:"heading"`
	Text       string  `json:"text"`
	Similarity float64 `json:"similarity"`
	TextRank   float64 `json:"text_rank"`
	Score      float64 `json:"score"`
}

// Query asks for the k best chunks eligible at At for Account.
type Query struct {
	At       time.Time
	Account  policy.Account
	Text     string    // the customer's question, for full-text rank
	Vector   []float32 // the question embedded with Embedder
	Embedder string    // only chunks embedded by the same model are comparable
	K        int
}

// Ranking weights: cosine similarity leads; full-text rank (normalised to [0,1)) breaks
// near-ties towards chunks that share the customer's exact words; the account's locale
// is preferred, never required.
const (
	TextRankWeight = 0.3
	LocaleBonus    = 0.1
)

// eligibleSQL is the whole retrieval: hard filters first (DESIGN.md's eligibility rule,
// through the stored eligible_window), then an exact ranking of the eligible set only.
// It is an exact scan over the filtered rows, never an approximate index, so it returns the
// true top-k and never fewer rows than the eligible set holds (see `supportdraft bench
// retrieval` for the figures behind that choice).
const eligibleSQL = `
SELECT c.id, v.doc_id, v.version, v.title, v.source, v.area, v.locale, c.heading, c.text,
       s.similarity, s.text_rank,
       s.similarity + $8 * s.text_rank + CASE WHEN v.locale = $4 THEN $9 ELSE 0 END AS score
FROM versions v
JOIN chunks c ON c.version_id = v.id
CROSS JOIN LATERAL (SELECT 1 - (c.embedding <=> $5) AS similarity,
                           ts_rank(c.tsv, to_tsquery('simple', $6), 32) AS text_rank) s
WHERE v.status <> 'draft'
  AND v.eligible_window @> $1::timestamptz
  AND ('*' = ANY (v.plans) OR $2 = ANY (v.plans))
  AND ('*' = ANY (v.regions) OR $3 = ANY (v.regions))
  AND c.embedder = $10
ORDER BY score DESC, c.id
LIMIT $7`

// Eligible returns the exact top-k chunks of the set eligible at q.At for q.Account.
func (s *Store) Eligible(ctx context.Context, q Query) ([]Hit, error) {
	rows, err := s.pool.Query(ctx, eligibleSQL, q.At, q.Account.Plan, q.Account.Region, q.Account.Locale,
		pgvector.NewVector(q.Vector), TSQuery(q.Text), q.K, TextRankWeight, LocaleBonus, q.Embedder)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Hit])
}

// similarityOnlySQL is the baseline the product exists to beat: top-k by similarity over
// every chunk, whatever its status, window or scope. Benchmarks and evals use it to show
// what unfiltered retrieval would have quoted.
const similarityOnlySQL = `
SELECT c.id, v.doc_id, v.version, v.title, v.source, v.area, v.locale, c.heading, c.text,
       s.similarity, s.text_rank, s.similarity + $3 * s.text_rank AS score
FROM versions v
JOIN chunks c ON c.version_id = v.id
CROSS JOIN LATERAL (SELECT 1 - (c.embedding <=> $1) AS similarity,
                           ts_rank(c.tsv, to_tsquery('simple', $2), 32) AS text_rank) s
WHERE c.embedder = $5
ORDER BY score DESC, c.id
LIMIT $4`

// SimilarityOnly returns the top-k chunks by similarity with no metadata filter at all.
func (s *Store) SimilarityOnly(ctx context.Context, q Query) ([]Hit, error) {
	rows, err := s.pool.Query(ctx, similarityOnlySQL, pgvector.NewVector(q.Vector), TSQuery(q.Text), TextRankWeight, q.K, q.Embedder)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Hit])
}

// TSQuery turns free text into an OR-query of its words for to_tsquery('simple', …).
// A customer's whole e-mail as an AND-query would match nothing; OR lets ts_rank reward
// chunks that share more of the customer's words. Only letters and digits survive, so the
// result is always valid tsquery syntax.
func TSQuery(text string) string {
	seen := map[string]bool{}
	var terms []string
	for _, w := range embedding.Words(text) {
		if len([]rune(w)) < 2 || seen[w] || len(terms) >= 64 {
			continue
		}
		seen[w] = true
		terms = append(terms, w)
	}
	return strings.Join(terms, " | ")
}

// Chunks loads chunks by ID (any status: they are cited by a saved draft), as evidence.
func (s *Store) Chunks(ctx context.Context, ids []string) ([]llm.Evidence, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT c.id, v.doc_id, v.version, v.title, v.source, v.area, c.text, 0::float8
		FROM chunks c JOIN versions v ON v.id = c.version_id WHERE c.id = ANY ($1) ORDER BY c.id`, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[llm.Evidence])
}
