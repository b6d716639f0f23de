// Package bench holds the benchmarks that `supportdraft bench …` runs and prints. Each one
// works in a scratch schema it creates and drops, so it never touches the live store.
package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/store"
)

// Selectivities are the shares of all chunks that a benchmark query's filters match.
var Selectivities = []float64{0.5, 0.1, 0.01, 0.001}

// benchAt is the instant every benchmark query is asked at.
var benchAt = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

var (
	oldFrom  = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	currFrom = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
)

// planFor names the plan tag a query uses to match about `sel` of all chunks.
func planFor(sel float64) string { return fmt.Sprintf("sel%g", sel) }

const chunksPerVersion = 10

type synthVersion struct {
	n      int
	status string
	from   time.Time
	to     *time.Time
}

// The synthetic corpus: every document has a current version (effective since 2026-01-01);
// a quarter also have a superseded one (2025) with the same scope and similar wording, so the
// current versions hold 80% of the chunks. For each selectivity s, exactly round(docs·s/0.8)
// documents carry the plan tag of s, which makes that plan's filter match about s of all
// chunks. Old versions are what the similarity-only baseline wrongly returns. Everything is
// written with COPY (through a temporary table), chunks in batches so that a 1M-chunk corpus never sits in memory whole.
// The retrieval scopes are built afterwards, as `supportdraft policy import` would build
// them, with the lexical arm's term statistics; the time and the size they take are returned. No global HNSW index is built: eligible
// retrieval searches the scopes, and the baseline and the reference scan exactly.
func loadCorpus(ctx context.Context, s *store.Store, emb embedding.Embedder, chunks int, seed uint64) (scopeBuild time.Duration, err error) {
	rng := rand.New(rand.NewPCG(seed, 1))
	docs := max(1, int(float64(chunks)/chunksPerVersion/1.25))
	plans := make([][]string, docs)
	for d := range plans {
		plans[d] = []string{"base"}
	}
	for _, sel := range Selectivities {
		n := max(1, int(float64(docs)*sel/0.8+0.5))
		for _, d := range rng.Perm(docs)[:min(n, docs)] {
			plans[d] = append(plans[d], planFor(sel))
		}
	}
	// COPY cannot write to a table under row-level security (migration 0120): the rows are
	// copied into a temporary table of the same columns, on one connection, and moved with
	// INSERT … SELECT, which the policy checks like any insert.
	conn, err := s.Pool().Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	copyRows := func(table string, columns []string, rows [][]any) error {
		cols := make([]string, len(columns))
		for i, c := range columns {
			cols[i] = pgx.Identifier{c}.Sanitize()
		}
		list, stage := strings.Join(cols, ", "), pgx.Identifier{"stage_" + table}.Sanitize()
		if _, err := conn.Exec(ctx, fmt.Sprintf(`CREATE TEMP TABLE IF NOT EXISTS %s AS SELECT %s FROM %s LIMIT 0`, stage, list, pgx.Identifier{table}.Sanitize())); err != nil {
			return fmt.Errorf("stage synthetic %s: %w", table, err)
		}
		if _, err := conn.CopyFrom(ctx, pgx.Identifier{"stage_" + table}, columns, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("copy synthetic %s: %w", table, err)
		}
		if _, err := conn.Exec(ctx, fmt.Sprintf(`INSERT INTO %s (%s) SELECT %s FROM %s; TRUNCATE %s`, pgx.Identifier{table}.Sanitize(), list, list, stage, stage)); err != nil {
			return fmt.Errorf("insert synthetic %s: %w", table, err)
		}
		return nil
	}
	type pending struct {
		id       int64
		docID    string
		n, topic int
	}
	var docRows, versionRows [][]any
	var todo []pending
	versionID := int64(0)
	for d := 0; d < docs; d++ {
		docID := fmt.Sprintf("synthetic/doc-%06d", d)
		docRows = append(docRows, []any{docID})
		topic := rng.IntN(len(topics))
		versions := []synthVersion{{2, "approved", currFrom, nil}}
		if rng.Float64() < 0.25 {
			versions = append(versions, synthVersion{1, "superseded", oldFrom, &currFrom})
		}
		for _, v := range versions {
			versionID++
			versionRows = append(versionRows, []any{versionID, docID, v.n, v.status, "wiki", docID, "billing",
				v.from, v.to, v.from, plans[d], []string{"*"}, "synthetic", ""})
			todo = append(todo, pending{versionID, docID, v.n, topic})
		}
	}
	if err := copyRows("documents", []string{"doc_id"}, docRows); err != nil {
		return 0, err
	}
	if err := copyRows("versions", []string{"id", "doc_id", "version", "status", "source", "title", "area", "effective_from",
		"effective_to", "approved_at", "plans", "regions", "content_hash", "body"}, versionRows); err != nil {
		return 0, err
	}
	const batchVersions = 5000
	for start := 0; start < len(todo); start += batchVersions {
		var chunkRows [][]any
		for _, v := range todo[start:min(start+batchVersions, len(todo))] {
			texts := make([]string, chunksPerVersion)
			for i := range texts {
				texts[i] = sentence(rng, v.topic, v.n)
			}
			vecs, err := emb.Embed(ctx, texts)
			if err != nil {
				return 0, err
			}
			for i, t := range texts {
				id := fmt.Sprintf("%s@%d#s%d", v.docID, v.n, i)
				chunkRows = append(chunkRows, []any{id, v.id, fmt.Sprintf("s%d", i), "", i, t, emb.Name(), pgvector.NewVector(vecs[i])})
			}
		}
		if err := copyRows("chunks", []string{"id", "version_id", "anchor", "heading", "ord", "text", "embedder", "embedding"}, chunkRows); err != nil {
			return 0, err
		}
	}
	if err := s.RecountTerms(ctx); err != nil {
		return 0, err
	}
	if _, err := s.Pool().Exec(ctx, `ANALYZE documents; ANALYZE versions; ANALYZE chunks`); err != nil {
		return 0, err
	}
	begin := time.Now()
	if err := s.EnsureScopes(ctx, emb); err != nil {
		return 0, err
	}
	return time.Since(begin), nil
}

var topics = [][]string{
	{"refund", "annual", "plan", "window", "days", "request", "purchase", "eligible"},
	{"invoice", "vat", "reverse", "charge", "company", "address", "download", "billing"},
	{"payment", "failed", "card", "retry", "suspended", "declined", "update", "method"},
	{"upgrade", "downgrade", "prorated", "renewal", "seats", "change", "tier", "credit"},
	{"cancel", "subscription", "period", "end", "access", "data", "export", "notice"},
	{"discount", "nonprofit", "education", "coupon", "promotion", "code", "percent", "apply"},
}

var filler = []string{"the", "your", "account", "we", "can", "within", "after", "before", "team", "customer", "support", "policy", "month", "year"}

// sentence writes a synthetic policy sentence on a topic; old versions use a slightly
// different number so that they look like the policy they used to be.
func sentence(rng *rand.Rand, topic, version int) string {
	words := make([]string, 0, 24)
	for range 18 {
		if rng.IntN(3) == 0 {
			words = append(words, filler[rng.IntN(len(filler))])
		} else {
			words = append(words, topics[topic][rng.IntN(len(topics[topic]))])
		}
	}
	words = append(words, fmt.Sprintf("%d", 7*version+rng.IntN(3)), "days")
	return strings.Join(words, " ") + "."
}

// query writes a synthetic customer question on a random topic.
func query(rng *rand.Rand) string {
	t := topics[rng.IntN(len(topics))]
	words := []string{"hello", "can", "i", "get"}
	for range 8 {
		words = append(words, t[rng.IntN(len(t))])
	}
	return strings.Join(words, " ") + "?"
}
