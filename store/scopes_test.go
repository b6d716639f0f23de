package store_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/reference"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

// requireExact asks store.Arms and the brute-force reference the same question and
// requires the same chunks in the same order from the vector arm, and only eligible chunks
// from both arms; it returns the vector arm's chunk IDs.
func requireExact(t *testing.T, s *store.Store, at time.Time, plan, region, text string) []string {
	t.Helper()
	return requireExactOn(t, s, s.Pool(), at, plan, region, text)
}

// requireExactOn is requireExact for a store over one transaction (s), with the reference
// read from pool.
func requireExactOn(t *testing.T, s *store.Store, pool *pgxpool.Pool, at time.Time, plan, region, text string) []string {
	t.Helper()
	ctx := context.Background()
	vec, err := emb.Embed(ctx, []string{text})
	require.NoError(t, err)
	q := store.Query{At: at, Account: policy.Account{Plan: plan, Region: region, Locale: "en"}, Text: text,
		Vector: vec[0], Embedder: emb.Name(), K: 10}
	hits, err := s.Arms(ctx, q)
	require.NoError(t, err)
	ref, err := reference.Load(ctx, pool)
	require.NoError(t, err)
	want, err := ref.TopK(ctx, pool, q)
	require.NoError(t, err)
	for _, h := range hits {
		require.True(t, ref.Eligible(h.ChunkID, at, q.Account), "%s is not eligible for %s/%s at %s", h.ChunkID, plan, region, at)
	}
	var got, wantIDs []string
	for _, h := range reference.VectorArm(hits, q.K) {
		got = append(got, h.ChunkID)
	}
	for _, w := range want {
		wantIDs = append(wantIDs, w.ID)
	}
	require.Equal(t, wantIDs, got, "%s/%s at %s: %q", plan, region, at.Format(time.RFC3339), text)
	return got
}

// docsOf lists the doc@version of chunk IDs (doc_id@version#anchor), sorted and unique.
func docsOf(ids []string) []string {
	var out []string
	for _, id := range ids {
		out = append(out, id[:strings.Index(id, "#")])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func scopeSizes(t *testing.T, s *store.Store) map[string]int {
	t.Helper()
	scopes, err := s.Scopes(context.Background())
	require.NoError(t, err)
	out := map[string]int{}
	for _, sc := range scopes {
		out[sc.Plan+"/"+sc.Region] = sc.Chunks
	}
	return out
}

// TestScopesFollowTheCorpus: import builds one partition per named plan and '*' × named
// region and '*'; later imports and supersessions reach the partitions through the
// triggers, an unnamed plan is served by the '*' scope, and a scope that is missing falls
// back to the unpartitioned query. Every answer equals the brute-force reference.
func TestScopesFollowTheCorpus(t *testing.T) {
	t.Parallel()
	s, _ := testdb.New(t)
	const q = "annual plans refunded within days"
	mustImport(t, s,
		file{doc: "a", version: 1, from: "2025-01-01T00:00:00Z", approved: "2025-01-01T00:00:00Z", plans: "[pro]", regions: "[eu]"},
		file{doc: "b", version: 1, from: "2025-01-01T00:00:00Z", approved: "2025-01-01T00:00:00Z"})
	require.Equal(t, map[string]int{"pro/eu": 4, "pro/*": 2, "*/eu": 2, "*/*": 2}, scopeSizes(t, s),
		"a's two chunks only where pro and eu are both named; b's everywhere")

	before, after := ts(t, "2025-06-01T00:00:00Z"), ts(t, "2026-06-01T00:00:00Z")
	mustImport(t, s, file{doc: "a", version: 2, from: "2026-01-01T00:00:00Z", approved: "2025-12-01T00:00:00Z", plans: "[pro]", regions: "[eu]"})
	require.Equal(t, []string{"a@2", "b@1"}, docsOf(requireExact(t, s, after, "pro", "eu", q)), "superseded a@1 left the scope's window")
	require.Equal(t, []string{"a@1", "b@1"}, docsOf(requireExact(t, s, before, "pro", "eu", q)), "a@1 still answers for its own time")
	require.Equal(t, []string{"b@1"}, docsOf(requireExact(t, s, after, "free", "us", q)), "unnamed plan and region: the '*' scope")
	require.Equal(t, []string{"b@1"}, docsOf(requireExact(t, s, after, "pro", "us", q)))

	// A plan no version names sees the '*' scope until one does; then its own, from the
	// next query on, although the store remembered the '*' scope for it.
	require.Equal(t, []string{"b@1"}, docsOf(requireExact(t, s, after, "enterprise", "eu", q)))
	// A scope that is not built (here: removed) must not hide what the account may see.
	mustImport(t, s, file{doc: "c", version: 1, from: "2025-01-01T00:00:00Z", approved: "2025-01-01T00:00:00Z", plans: "[enterprise]", regions: "[eu]"})
	require.Contains(t, scopeSizes(t, s), "enterprise/eu", "import builds the scopes of a newly named plan")
	require.Equal(t, []string{"b@1", "c@1"}, docsOf(requireExact(t, s, after, "enterprise", "eu", q)), "the newly named plan's scope")
	_, err := s.Pool().Exec(context.Background(), `DELETE FROM retrieval_scopes WHERE plan = 'enterprise'`)
	require.NoError(t, err)
	require.Equal(t, []string{"b@1", "c@1"}, docsOf(requireExact(t, s, after, "enterprise", "eu", q)), "fallback path")
}

// sentences returns a generator of twelve-word sentences of billing words drawn with seed,
// for scopes large enough to get a graph.
func sentences(seed uint64) func() string {
	rng := rand.New(rand.NewPCG(seed, seed))
	words := strings.Fields("refund annual plan invoice vat card retry cancel upgrade seats credit renewal window days prorated tax")
	return func() string {
		w := make([]string, 12)
		for i := range w {
			w[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(w, " ") + "."
	}
}

// proDoc is version 1 of document name, for the pro plan in every region, in force and
// approved from from, with sections One and Two.
func proDoc(name, from, one, two string) file {
	return file{doc: name, version: 1, from: from, approved: from, plans: "[pro]", regions: `["*"]`,
		body: "## One\n\n" + one + "\n\n## Two\n\n" + two + "\n"}
}

// TestLargeScopeIsIndexed: a scope one chunk short of its store's IndexFrom has no graph,
// and is scanned even with sequential scans priced out; once past it the scope gets its
// HNSW graph, built with store.GraphM, and the graph walk, filtering only on time, returns
// exactly the reference top-k, also when more chunks than k are tied at the same
// similarity and score. The store builds graphs from smallGraph chunks, which imports in a
// fraction of the time; TestSmallScopeIsScanned holds the real IndexFrom.
func TestLargeScopeIsIndexed(t *testing.T) {
	t.Parallel()
	s, url := testdb.New(t)
	store.SetIndexFrom(s, smallGraph)
	at := ts(t, "2026-06-01T00:00:00Z")
	walker, err := store.Open(context.Background(), url+"&enable_seqscan=off")
	require.NoError(t, err)
	defer walker.Close()
	store.SetIndexFrom(walker, smallGraph)
	sentence := sentences(7)
	var files []file
	for d := range smallGraph/2 + 100 {
		from := "2025-01-01T00:00:00Z"
		if d%5 == 0 {
			from = "2027-01-01T00:00:00Z" // not yet in force: the time filter must skip it
		}
		files = append(files, proDoc(fmt.Sprintf("d%04d", d), from, sentence(), sentence()))
	}
	// Two chunks a document, and one of a single section: the first import leaves the
	// scope one chunk short.
	odd := proDoc("odd", "2025-01-01T00:00:00Z", "", "")
	odd.body = "## One\n\n" + sentence() + "\n"
	mustImport(t, s, append(slices.Clone(files[:smallGraph/2-1]), odd)...)
	sc := proScope(t, s)
	require.Equal(t, smallGraph-1, sc.Chunks)
	require.False(t, sc.Indexed, "a scope below IndexFrom has no graph")
	requireScanned(t, walker, sc.ID, at, sentence())
	// 40 chunks of one text, tied for the first 40 places: the walk returns them all among
	// its 50 candidates, and the final order must break the tie by chunk ID.
	const tied = "refund window annual plan days renewal credit seats tax vat card retry."
	files = files[smallGraph/2-1:]
	for d := range 20 {
		files = append(files, proDoc(fmt.Sprintf("tie%02d", d), "2025-01-01T00:00:00Z", tied, tied))
	}
	mustImport(t, s, files...)
	scopes, err := s.Scopes(context.Background())
	require.NoError(t, err)
	var indexed bool
	var options []string
	var scope int
	for _, sc := range scopes {
		if sc.Plan == "pro" && sc.Region == "*" {
			require.GreaterOrEqual(t, sc.Chunks, smallGraph)
			indexed, scope = sc.Indexed, sc.ID
			require.NoError(t, s.Pool().QueryRow(context.Background(), `SELECT reloptions FROM pg_class WHERE relname = $1`,
				fmt.Sprintf("scope_chunks_%d_hnsw", sc.ID)).Scan(&options))
		}
	}
	require.True(t, indexed, "the pro scope holds more than IndexFrom chunks and must be indexed")
	require.Equal(t, []string{fmt.Sprintf("m=%d", store.GraphM), fmt.Sprintf("ef_construction=%d", store.GraphEFConstruction)}, options)
	for range 10 {
		requireExact(t, s, at, "pro", "eu", sentence())
	}

	// With sequential scans priced out the planner walks the graph, the path of large scopes.
	plan, err := walker.ExplainEligible(context.Background(), query(t, tied, at, 10))
	require.NoError(t, err)
	require.Contains(t, strings.Join(plan, "\n"), fmt.Sprintf("Index Scan using scope_chunks_%d_hnsw", scope))
	for range 10 {
		requireExact(t, walker, at, "pro", "eu", sentence())
	}
	got := requireExact(t, walker, at, "pro", "eu", tied)
	require.Equal(t, "tie00@1#one", got[0], "ties go to the lowest chunk ID")

	// A walk that the witnesses prove wrong is redone as an exact scan. Here the walk is
	// cut to one row (no iterative scan, ef_search 1): it comes back short, without the
	// witnesses, and the answer must still be the reference's.
	ctx := context.Background()
	tx, err := walker.Pool().Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	_, err = tx.Exec(ctx, `SET LOCAL hnsw.iterative_scan = off; SET LOCAL hnsw.ef_search = 1`)
	require.NoError(t, err)
	fallback := func(on *store.Store, text string) bool {
		wrong, err := on.ExactFallback(ctx, query(t, text, at, 10))
		require.NoError(t, err)
		return wrong
	}
	for range 5 {
		text := sentence()
		requireExactOn(t, store.OnTx(tx), walker.Pool(), at, "pro", "eu", text)
		require.True(t, fallback(store.OnTx(tx), text), "a walk cut to one row is sent to the exact scan")
	}
	require.NoError(t, tx.Rollback(ctx))
	// A walk ten times the service's width (over about 2,200 chunks) returns every witness
	// that belongs among its candidates, so none sends it to the exact scan.
	tx, err = walker.Pool().Begin(ctx)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `SET LOCAL hnsw.ef_search = 1000`)
	require.NoError(t, err)
	for _, text := range []string{tied, sentence(), sentence(), sentence()} {
		require.False(t, fallback(store.OnTx(tx), text), "a walk that found its witnesses is not sent to the exact scan")
	}
	require.NoError(t, tx.Rollback(ctx))

	requireSideList(t, walker, scope, at)
	requireFullPrecisionCut(t, walker, scope, at)
	requireGraphUpgraded(t, walker, url, scope, at)
}

// scopeTx begins a transaction on s for a check that rewrites scope's partition, returned
// with it, and must leave nothing behind. The caller defers the rollback rather than
// leaving it to the test's end, so that the rows it locks are free for the next check.
func scopeTx(t *testing.T, s *store.Store, scope int) (pgx.Tx, string) {
	t.Helper()
	tx, err := s.Pool().Begin(context.Background())
	require.NoError(t, err)
	return tx, fmt.Sprintf("scope_chunks_%d", scope)
}

// requireFullPrecisionCut: the graph walks in half-precision order, and the candidates are
// the best by full similarity among more walked rows (store.WalkRows). In a
// transaction rolled back, 61 chunks are moved next to a query: 60 whose similarity
// rounds up in half precision and one, the best by full similarity, whose similarity
// rounds down below all 60. The walk's first 50 rows are then all of the 60, and the best
// chunk must still come first.
func requireFullPrecisionCut(t *testing.T, s *store.Store, scope int, at time.Time) {
	t.Helper()
	ctx := context.Background()
	tx, part := scopeTx(t, s, scope)
	defer func() { _ = tx.Rollback(ctx) }()
	ids := testdb.Column[string](t, ctx, tx, `SELECT sc.chunk_id FROM `+part+` sc
		WHERE sc.eligible_window @> $1::timestamptz AND NOT EXISTS (SELECT FROM scope_side s WHERE s.chunk_id = sc.chunk_id)
		ORDER BY sc.chunk_id LIMIT 61`, at)
	require.Len(t, ids, 61)
	unit := func(v []float32, rest int) pgvector.Vector {
		var sum float64
		for _, x := range v {
			sum += float64(x) * float64(x)
		}
		v[rest] = float32(math.Sqrt(1 - sum))
		return pgvector.NewVector(v)
	}
	best := ids[0]
	for i, id := range ids {
		v := make([]float32, emb.Dims())
		if id == best {
			// Similarity 0.849003 to the query; each 0.60033 rounds down to 0.600098 in half
			// precision: 0.848576.
			v[0], v[1] = 0.60033, 0.60033
		} else {
			// 0.848798; 0.60037 rounds up to 0.600586 and 0.6 to 0.600098: 0.848921.
			v[0], v[1] = 0.60037, 0.6
		}
		_, err := tx.Exec(ctx, `UPDATE `+part+` SET embedding = $2 WHERE chunk_id = $1`, id, unit(v, 2+i))
		require.NoError(t, err)
	}
	q := make([]float32, emb.Dims())
	q[0], q[1] = float32(math.Sqrt(0.5)), float32(math.Sqrt(0.5))
	var below int
	require.NoError(t, tx.QueryRow(ctx, `SELECT count(*) FROM `+part+` sc WHERE sc.eligible_window @> $3::timestamptz
		AND (sc.embedding::halfvec(256)) <#> $2::halfvec(256) < (SELECT (x.embedding::halfvec(256)) <#> $2::halfvec(256) FROM `+part+` x WHERE x.chunk_id = $1)`,
		best, pgvector.NewVector(q), at).Scan(&below))
	require.Equal(t, 60, below, "in half precision 60 chunks come before the best one: more than the candidates, fewer than the walked rows")
	require.Greater(t, below, store.Candidates(10))
	require.Less(t, below, store.WalkRows(10))
	hits, err := store.OnTx(tx).Eligible(ctx, store.Query{At: at, Account: proEU,
		Text: "zzz", Vector: q, Embedder: emb.Name(), K: 10})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	require.Equal(t, best, hits[0].ChunkID, "the best chunk by full similarity comes first although its half-precision distance ranks it 61st")
}

// requireGraphUpgraded replays migration 0066 over a scope whose graph is full-precision,
// as graphs were before it: the graph and its side list go, the scope is answered exactly
// in the meantime, and EnsureScopes, run by two workers at once, builds the half-precision
// graph that the walk uses.
func requireGraphUpgraded(t *testing.T, s *store.Store, url string, scope int, at time.Time) {
	t.Helper()
	ctx := context.Background()
	index := fmt.Sprintf("scope_chunks_%d_hnsw", scope)
	_, err := s.Pool().Exec(ctx, fmt.Sprintf(`DROP INDEX %[1]s;
		CREATE INDEX %[1]s ON scope_chunks_%[2]d USING hnsw ((embedding::vector(256)) vector_ip_ops);
		DELETE FROM goose_db_version WHERE version_id = 66`, index, scope))
	require.NoError(t, err)
	applied, err := store.Migrate(ctx, url)
	require.NoError(t, err)
	require.Equal(t, 1, applied)
	var indexed bool
	var side int
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT indexed, (SELECT count(*) FROM scope_side WHERE scope_id = $1)
		FROM retrieval_scopes WHERE id = $1`, scope).Scan(&indexed, &side))
	require.False(t, indexed, "the old graph is dropped")
	require.Zero(t, side, "with its side list")
	requireExact(t, s, at, "pro", "eu", "annual refund window days")

	// Every worker runs EnsureScopes at its start: two at once both succeed, one graph.
	errs := make(chan error, 2)
	for range 2 {
		go func() { errs <- s.EnsureScopes(ctx, emb) }()
	}
	require.NoError(t, <-errs)
	require.NoError(t, <-errs)
	var def string
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT indexdef FROM pg_indexes WHERE indexname = $1`, index).Scan(&def))
	require.Contains(t, def, "halfvec_ip_ops")
	plan, err := s.ExplainEligible(ctx, query(t, "annual refund window days", at, 10))
	require.NoError(t, err)
	require.Contains(t, strings.Join(plan, "\n"), "Index Scan using "+index, "the rebuilt graph is walked")
	requireExact(t, s, at, "pro", "eu", "annual refund window days")
}

// TestPoorGraphIsBuiltAgain: a graph whose check finds more than store.MaxUnreachedShare
// of its chunks lost is built again, and the side list then describes the graph that
// stands. Copies of one text beyond the ten pgvector keeps in a node stay unreached in any
// graph: they are listed but do not make a graph poor.
func TestPoorGraphIsBuiltAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, sc := footerScope(t, 11)
	require.Equal(t, 1, sc.Builds, "copies of one text do not make the graph poor")

	// Dropped as migration 0066 dropped the graphs, and built again with every build
	// counting as poor: built GraphBuilds times, the last one stands, and its side list
	// is its own.
	store.SetUnreachedLimit(s, -1)
	_, err := s.Pool().Exec(ctx, fmt.Sprintf(`DROP INDEX scope_chunks_%[1]d_hnsw; DELETE FROM scope_side WHERE scope_id = %[1]d;
		UPDATE retrieval_scopes SET indexed = false WHERE id = %[1]d`, sc.ID))
	require.NoError(t, err)
	require.NoError(t, s.EnsureScopes(ctx, emb))
	sc = proScope(t, s)
	require.True(t, sc.Indexed)
	require.Equal(t, store.GraphBuilds, sc.Builds)
	var graphs int
	// pg_catalog, not pg_indexes: that view reads every index definition in the database,
	// and other tests drop theirs meanwhile ("could not open relation with OID").
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT count(*) FROM pg_index i
		JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
		WHERE i.indrelid = $1::regclass AND a.amname = 'hnsw'`,
		fmt.Sprintf("scope_chunks_%d", sc.ID)).Scan(&graphs))
	require.Equal(t, 1, graphs)
	requireSideList(t, s, sc.ID, ts(t, "2026-06-01T00:00:00Z"))
}

// TestSmallScopeIsScanned: a scope below store.IndexFrom that has a graph, as one built
// with a lower IndexFrom has or one that retired versions since, loses it at the next
// EnsureScopes, with its side list: its queries then scan it exactly, even with
// sequential scans priced out, where they walked the graph before.
func TestSmallScopeIsScanned(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, url := testdb.New(t)
	walker, err := store.Open(ctx, url+"&enable_seqscan=off")
	require.NoError(t, err)
	defer walker.Close()
	sentence := sentences(17)
	var files []file
	for d := range 300 {
		files = append(files, proDoc(fmt.Sprintf("d%04d", d), "2025-01-01T00:00:00Z", sentence(), sentence()))
	}
	mustImport(t, s, files...)
	sc := proScope(t, s)
	require.False(t, sc.Indexed)
	part := fmt.Sprintf("scope_chunks_%d", sc.ID)
	_, err = s.Pool().Exec(ctx, fmt.Sprintf(`CREATE INDEX %[1]s_hnsw ON %[1]s USING hnsw ((embedding::halfvec(%[2]d)) halfvec_ip_ops);
		UPDATE retrieval_scopes SET indexed = true, graph_builds = 1 WHERE id = %[3]d;
		INSERT INTO scope_side (scope_id, chunk_id, kind, eligible_window, embedding)
		SELECT scope_id, chunk_id, 'witness', eligible_window, embedding FROM %[1]s ORDER BY md5(chunk_id) LIMIT %[4]d`,
		part, emb.Dims(), sc.ID, store.Witnesses))
	require.NoError(t, err)
	at := ts(t, "2026-06-01T00:00:00Z")
	text := sentence()
	plan, err := walker.ExplainEligible(ctx, query(t, text, at, 10))
	require.NoError(t, err)
	require.Contains(t, strings.Join(plan, "\n"), "Index Scan using "+part+"_hnsw", "the graph given by hand is walked")
	// ScanScope, which `bench retrieval` times, scans a scope whatever graph it has: its
	// candidates are the reference's best Candidates(k).
	q := query(t, text, at, store.Candidates(10))
	ref, err := reference.Load(ctx, s.Pool())
	require.NoError(t, err)
	want, err := ref.TopK(ctx, s.Pool(), q)
	require.NoError(t, err)
	var wantIDs []string
	for _, w := range want {
		wantIDs = append(wantIDs, w.ID)
	}
	q.K = 10
	scanned, err := walker.ScanScope(ctx, q)
	require.NoError(t, err)
	require.Equal(t, wantIDs, scanned)

	require.NoError(t, s.EnsureScopes(ctx, emb))
	sc = proScope(t, s)
	require.False(t, sc.Indexed, "a scope below IndexFrom keeps no graph")
	require.Zero(t, sc.Builds)
	var side int
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT count(*) FROM scope_side WHERE scope_id = $1`, sc.ID).Scan(&side))
	require.Zero(t, side, "nor a side list")
	requireScanned(t, walker, sc.ID, at, sentence())
}

// requireScanned checks that walker, a store whose connections price sequential scans
// out, answers queries of the pro/eu account from scope by an exact scan: its statement
// uses no graph, and its answers are the reference's.
func requireScanned(t *testing.T, walker *store.Store, scope int, at time.Time, text string) {
	t.Helper()
	plan, err := walker.ExplainEligible(context.Background(), query(t, text, at, 10))
	require.NoError(t, err)
	joined := strings.Join(plan, "\n")
	require.Contains(t, joined, fmt.Sprintf("scope_chunks_%d", scope))
	require.NotContains(t, joined, "hnsw", "a scope below IndexFrom is scanned, never walked")
	requireExact(t, walker, at, "pro", "eu", text)
}

// footerScope imports an indexed pro/* scope of 2,200 chunks of varied text and 200 chunks
// of one footer (8% of the scope), and returns it. Its store builds graphs from
// smallGraph chunks: how a graph is checked and rebuilt does not depend on IndexFrom,
// and a scope that size imports in a fraction of the time. The footer's copies beyond the
// ten pgvector keeps in a node stay unreached in any graph.
func footerScope(t *testing.T, seed uint64) (*store.Store, store.Scope) {
	t.Helper()
	s, _ := testdb.New(t)
	store.SetIndexFrom(s, smallGraph)
	sentence := sentences(seed)
	var files []file
	for d := range smallGraph/2 + 100 {
		files = append(files, proDoc(fmt.Sprintf("d%04d", d), "2025-01-01T00:00:00Z", sentence(), sentence()))
	}
	const footer = "questions about billing write to the billing team from the account page."
	for d := range 100 {
		files = append(files, proDoc(fmt.Sprintf("footer%03d", d), "2025-01-01T00:00:00Z", footer, footer))
	}
	mustImport(t, s, files...)
	sc := proScope(t, s)
	require.True(t, sc.Indexed)
	require.Greater(t, sc.Unreached, 100, "copies of the footer beyond a node's ten are unreached")
	return s, sc
}

// smallGraph is how many chunks footerScope's store builds graphs from.
const smallGraph = 2000

// proScope returns the pro/* scope.
func proScope(t *testing.T, s *store.Store) store.Scope {
	t.Helper()
	scopes, err := s.Scopes(context.Background())
	require.NoError(t, err)
	for _, sc := range scopes {
		if sc.Plan == "pro" && sc.Region == "*" {
			return sc
		}
	}
	t.Fatal("no pro/* scope")
	return store.Scope{}
}

// requireSideList checks scope's side list (migration 0064) on a built graph: it lists as
// unreached exactly the chunks that a ten-wide walk for their own vector does not return,
// and nothing unchecked; and a chunk on it is found though the graph has lost it. To lose
// one for certain, the test moves a chunk's vector in the graph, in a transaction rolled
// back, while the side list keeps the true one: the walk no longer sees it near its own
// text, the side list does, and without the list the query misses it.
func requireSideList(t *testing.T, s *store.Store, scope int, at time.Time) {
	t.Helper()
	ctx := context.Background()
	tx, part := scopeTx(t, s, scope)
	defer func() { _ = tx.Rollback(ctx) }()
	lost, listed := lostAndListed(t, tx, scope)
	require.Equal(t, lost, listed, "unreached: exactly what a walk for the chunk's own vector does not return")
	var kinds map[string]int
	require.NoError(t, tx.QueryRow(ctx, `SELECT jsonb_object_agg(kind, n) FROM (
		SELECT kind, count(*) AS n FROM scope_side WHERE scope_id = $1 GROUP BY kind) k`, scope).Scan(&kinds))
	require.Equal(t, store.Witnesses, kinds["witness"])
	require.Zero(t, kinds["unchecked"])

	var lostID, text string
	var vec []float32
	require.NoError(t, tx.QueryRow(ctx, `SELECT c.id, c.text, c.embedding::real[] FROM `+part+` sc JOIN chunks c ON c.id = sc.chunk_id
		WHERE sc.eligible_window @> $1::timestamptz AND NOT EXISTS (SELECT FROM scope_side s WHERE s.chunk_id = sc.chunk_id)
		ORDER BY c.id LIMIT 1`, at).Scan(&lostID, &text, &vec))
	far, err := emb.Embed(ctx, []string{"zebra quartz xylophone"})
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = 100`)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `UPDATE `+part+` SET embedding = $2 WHERE chunk_id = $1`, lostID, pgvector.NewVector(far[0]))
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `INSERT INTO scope_side (scope_id, chunk_id, kind, eligible_window, embedding)
		SELECT scope_id, chunk_id, 'unreached', eligible_window, $3 FROM `+part+` WHERE chunk_id = $1 AND scope_id = $2`,
		lostID, scope, pgvector.NewVector(vec))
	require.NoError(t, err)
	q := store.Query{At: at, Account: proEU, Text: text, Vector: vec, Embedder: emb.Name(), K: 10}
	ids := func() []string {
		hits, err := store.OnTx(tx).Eligible(ctx, q)
		require.NoError(t, err)
		var out []string
		for _, h := range hits {
			out = append(out, h.ChunkID)
		}
		return out
	}
	require.Contains(t, ids(), lostID, "a chunk the graph lost is found on the side list")
	_, err = tx.Exec(ctx, `DELETE FROM scope_side WHERE chunk_id = $1`, lostID)
	require.NoError(t, err)
	require.NotContains(t, ids(), lostID, "without the side list the walk misses it")
	require.NoError(t, tx.Rollback(ctx))

	// A chunk that joins a built graph is unchecked until EnsureScopes checks it. The
	// triggers rewrite a chunk's partition rows this way when its version changes.
	_, err = s.Pool().Exec(ctx, `WITH gone AS (DELETE FROM `+part+` WHERE chunk_id = $1 RETURNING *)
		INSERT INTO scope_chunks SELECT * FROM gone`, lostID)
	require.NoError(t, err)
	var kind string
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT kind FROM scope_side WHERE chunk_id = $1`, lostID).Scan(&kind))
	require.Equal(t, "unchecked", kind)
	require.NoError(t, s.EnsureScopes(ctx, emb))
	err = s.Pool().QueryRow(ctx, `SELECT kind FROM scope_side WHERE chunk_id = $1`, lostID).Scan(&kind)
	if !errors.Is(err, pgx.ErrNoRows) {
		require.NoError(t, err)
		require.Equal(t, "unreached", kind, "checked")
	}
}

// lostAndListed returns the chunks of scope that a ten-wide walk for their own vector does
// not return, and those its side list holds as unreached. It leaves tx set for such walks.
func lostAndListed(t *testing.T, tx pgx.Tx, scope int) (lost, listed []string) {
	t.Helper()
	ctx := context.Background()
	part := fmt.Sprintf("scope_chunks_%d", scope)
	_, err := tx.Exec(ctx, `SET LOCAL hnsw.iterative_scan = off; SET LOCAL hnsw.ef_search = 10`)
	require.NoError(t, err)
	lost = testdb.Column[string](t, ctx, tx, `SELECT sc.chunk_id FROM `+part+` sc WHERE sc.chunk_id NOT IN (
		SELECT t.chunk_id FROM `+part+` t ORDER BY (t.embedding::halfvec(256)) <#> (sc.embedding::halfvec(256)) LIMIT 10)
		ORDER BY 1`)
	listed = testdb.Column[string](t, ctx, tx, `SELECT chunk_id FROM scope_side WHERE scope_id = $1 AND kind = 'unreached' ORDER BY 1`, scope)
	return lost, listed
}

// TestGraphIsCheckedWholeAgain: a chunk that joins a built graph can unlink an older one,
// which only a check of the whole graph finds. Here the side list is emptied of its
// unreached chunks (copies of a footer beyond a node's ten, which stay unreached in any
// graph), as if imports had unlinked them unseen. Chunks that join the graph are checked
// themselves; once more than store.RecheckShare of the scope has joined since the last
// whole check, EnsureScopes checks the whole graph again and the list is exact.
func TestGraphIsCheckedWholeAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, sc := footerScope(t, 13)
	part := fmt.Sprintf("scope_chunks_%d", sc.ID)
	_, err := s.Pool().Exec(ctx, `DELETE FROM scope_side WHERE scope_id = $1 AND kind = 'unreached'`, sc.ID)
	require.NoError(t, err)

	// The triggers rewrite a chunk's partition row this way when its version changes.
	rewrite := func(n int) {
		_, err := s.Pool().Exec(ctx, `WITH gone AS (
			DELETE FROM `+part+` WHERE chunk_id IN (
				SELECT sc.chunk_id FROM `+part+` sc WHERE sc.chunk_id LIKE 'd%' AND NOT EXISTS (
					SELECT FROM scope_side s WHERE s.chunk_id = sc.chunk_id AND s.kind = 'witness')
				ORDER BY md5(sc.chunk_id) LIMIT $1)
			RETURNING *)
			INSERT INTO scope_chunks SELECT * FROM gone`, n)
		require.NoError(t, err)
	}
	lostAndListedNow := func() ([]string, []string) {
		tx, err := s.Pool().Begin(ctx)
		require.NoError(t, err)
		defer func() { _ = tx.Rollback(ctx) }()
		return lostAndListed(t, tx, sc.ID)
	}
	share := int(store.RecheckShare * float64(sc.Chunks))
	rewrite(share / 2)
	require.NoError(t, s.EnsureScopes(ctx, emb))
	lost, listed := lostAndListedNow()
	require.Greater(t, len(lost)-len(listed), 100, "below RecheckShare only the chunks that joined are checked")

	rewrite(share/2 + 10)
	require.NoError(t, s.EnsureScopes(ctx, emb))
	lost, listed = lostAndListedNow()
	// Footer copies have identical vectors, and which of more than ten identical twins a
	// ten-wide walk returns is a tie that two walks over one graph can break differently;
	// so the list may differ from this walk's answer by a footer twin or two, never by a
	// chunk of another text.
	differ := symmetricDifference(lost, listed)
	require.LessOrEqual(t, len(differ), 2, "past RecheckShare the whole graph is checked again: %v", differ)
	for _, id := range differ {
		require.True(t, strings.HasPrefix(id, "footer"), "%s differs between the list and a walk, and is no footer twin", id)
	}
	var joined int
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT joined_since_check FROM retrieval_scopes WHERE id = $1`, sc.ID).Scan(&joined))
	require.Zero(t, joined, "the count starts again after a whole check")
}

// TestGraphMemoryHoldsTheGraph: given what store.GraphMemory asks for, pgvector builds the
// whole HNSW graph in memory. With less it warns that the graph no longer fits and goes on
// inserting on disk, which is what made large scopes take hours to index.
func TestGraphMemoryHoldsTheGraph(t *testing.T) {
	t.Parallel()
	_, url := testdb.New(t)
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(url)
	require.NoError(t, err)
	var notices []string
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices = append(notices, n.Message) }
	conn, err := pgx.ConnectConfig(ctx, cfg)
	require.NoError(t, err)
	defer conn.Close(ctx)
	const n, dims = 4000, 256
	_, err = conn.Exec(ctx, fmt.Sprintf(`CREATE TABLE graph_probe AS
		SELECT i, (SELECT array_agg(random()::real) FROM generate_series(1, %[1]d) WHERE i > 0)::vector(%[1]d) AS v
		FROM generate_series(1, %[2]d) i`, dims, n))
	require.NoError(t, err)
	_, err = conn.Exec(ctx, fmt.Sprintf(`SET maintenance_work_mem = '%dkB'`, store.GraphMemory(n, dims)>>10))
	require.NoError(t, err)
	_, err = conn.Exec(ctx, fmt.Sprintf(`CREATE INDEX ON graph_probe USING hnsw ((v::halfvec(%d)) halfvec_ip_ops) WITH (m = %d, ef_construction = %d)`,
		dims, store.GraphM, store.GraphEFConstruction))
	require.NoError(t, err)
	require.Empty(t, notices, "pgvector built part of the graph on disk")
}

// symmetricDifference returns the IDs in exactly one of a and b.
func symmetricDifference(a, b []string) []string {
	in := map[string]int{}
	for _, id := range a {
		in[id]++
	}
	for _, id := range b {
		in[id]--
	}
	var out []string
	for id, n := range in {
		if n != 0 {
			out = append(out, id)
		}
	}
	return out
}
