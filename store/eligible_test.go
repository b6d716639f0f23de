package store_test

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

// probe asks whether doc is eligible at an instant for an account; want is the version
// that must be the eligible one, 0 for none.
type probe struct {
	at           string // RFC 3339, or "now"
	plan, region string
	want         int
}

// TestEligibilityMatrix runs the eligibility rule (docs/architecture.md) case by case through every SQL
// path that applies it (store.Eligible, ListVersions, EligibleVersions) and checks that the
// Go twin, policy.Version.EligibleAt, gives the same answer for the same instant and account.
func TestEligibilityMatrix(t *testing.T) {
	t.Parallel()
	const doc = "billing/case"
	nextYear := time.Now().UTC().AddDate(1, 0, 0).Truncate(time.Second).Format(time.RFC3339)
	tests := []struct {
		name    string
		imports [][]file // one Import call each, in order
		probes  []probe
	}{
		{
			name: "a draft is never eligible, whatever its window and scope",
			imports: [][]file{{{doc: doc, version: 1, status: "draft", from: "2025-01-01T00:00:00Z",
				approved: "2025-01-01T00:00:00Z", plans: `["*"]`, regions: `["*"]`}}},
			probes: []probe{
				{"2025-01-01T00:00:00Z", "pro", "eu", 0},
				{"2026-06-01T00:00:00Z", "free", "us", 0},
				{"now", "business", "uk", 0},
			},
		},
		{
			name:    "a draft without window or scope is never eligible",
			imports: [][]file{{{doc: doc, version: 1, status: "draft", plans: "[]", regions: "[]"}}},
			probes:  []probe{{"2026-06-01T00:00:00Z", "pro", "eu", 0}, {"now", "pro", "eu", 0}},
		},
		{
			name: "approved after effective_from: not eligible before approval, eligible from approved_at inclusive",
			imports: [][]file{{{doc: doc, version: 1, from: "2026-01-01T00:00:00Z", approved: "2026-04-01T00:00:00Z",
				plans: "[pro]", regions: "[eu]"}}},
			probes: []probe{
				{"2026-01-01T00:00:00Z", "pro", "eu", 0},
				{"2026-02-01T00:00:00Z", "pro", "eu", 0},
				{"2026-03-31T23:59:59.999999Z", "pro", "eu", 0},
				{"2026-04-01T00:00:00Z", "pro", "eu", 1},
				{"2026-05-01T00:00:00Z", "pro", "eu", 1},
			},
		},
		{
			name: "approval in the future of now: in effect since 2025 but not eligible now",
			imports: [][]file{{{doc: doc, version: 1, from: "2025-01-01T00:00:00Z", approved: nextYear,
				plans: "[pro]", regions: "[eu]"}}},
			probes: []probe{{"now", "pro", "eu", 0}, {"2025-06-01T00:00:00Z", "pro", "eu", 0}},
		},
		{
			name: "effective_from is inclusive and effective_to exclusive",
			imports: [][]file{{{doc: doc, version: 1, from: "2026-03-01T00:00:00Z", to: "2026-09-01T00:00:00Z",
				approved: "2026-02-01T00:00:00Z", plans: "[pro]", regions: "[eu]"}}},
			probes: []probe{
				{"2026-02-15T00:00:00Z", "pro", "eu", 0}, // approved, not yet in effect
				{"2026-02-28T23:59:59.999999Z", "pro", "eu", 0},
				{"2026-03-01T00:00:00Z", "pro", "eu", 1},
				{"2026-08-31T23:59:59.999999Z", "pro", "eu", 1},
				{"2026-09-01T00:00:00Z", "pro", "eu", 0},
				{"now", "pro", "eu", 0},
			},
		},
		{
			name: "approved_at defaults to effective_from, inclusive",
			imports: [][]file{{{doc: doc, version: 1, from: "2026-03-01T00:00:00Z",
				plans: "[pro]", regions: "[eu]"}}},
			probes: []probe{
				{"2026-02-28T23:59:59.999999Z", "pro", "eu", 0},
				{"2026-03-01T00:00:00Z", "pro", "eu", 1},
			},
		},
		{
			name: `plans ["*"] match any plan, regions still filter`,
			imports: [][]file{{{doc: doc, version: 1, from: "2025-01-01T00:00:00Z",
				plans: `["*"]`, regions: "[eu]"}}},
			probes: []probe{
				{"2026-06-01T00:00:00Z", "free", "eu", 1},
				{"2026-06-01T00:00:00Z", "pro", "eu", 1},
				{"2026-06-01T00:00:00Z", "business", "eu", 1},
				{"2026-06-01T00:00:00Z", "enterprise", "eu", 1},
				{"2026-06-01T00:00:00Z", "pro", "us", 0},
			},
		},
		{
			name: `regions ["*"] match any region, plans still filter`,
			imports: [][]file{{{doc: doc, version: 1, from: "2025-01-01T00:00:00Z",
				plans: "[pro]", regions: `["*"]`}}},
			probes: []probe{
				{"2026-06-01T00:00:00Z", "pro", "eu", 1},
				{"2026-06-01T00:00:00Z", "pro", "us", 1},
				{"2026-06-01T00:00:00Z", "pro", "apac", 1},
				{"2026-06-01T00:00:00Z", "free", "us", 0},
			},
		},
		{
			name: "a plan outside the version's plans is not eligible",
			imports: [][]file{{{doc: doc, version: 1, from: "2025-01-01T00:00:00Z",
				plans: "[pro, business]", regions: "[eu, uk]"}}},
			probes: []probe{
				{"2026-06-01T00:00:00Z", "free", "eu", 0},
				{"2026-06-01T00:00:00Z", "enterprise", "uk", 0},
				{"2026-06-01T00:00:00Z", "pro", "eu", 1},
				{"2026-06-01T00:00:00Z", "business", "uk", 1},
			},
		},
		{
			name: "a region outside the version's regions is not eligible",
			imports: [][]file{{{doc: doc, version: 1, from: "2025-01-01T00:00:00Z",
				plans: "[pro, business]", regions: "[eu, uk]"}}},
			probes: []probe{
				{"2026-06-01T00:00:00Z", "pro", "us", 0},
				{"2026-06-01T00:00:00Z", "business", "apac", 0},
				{"2026-06-01T00:00:00Z", "pro", "uk", 1},
			},
		},
		{
			name: "v1 superseded by importing v2: eligible in the past, v2 eligible from its start and now",
			imports: [][]file{
				{{doc: doc, version: 1, from: "2025-01-01T00:00:00Z", plans: "[pro]", regions: "[eu]"}},
				{{doc: doc, version: 2, from: "2026-01-01T00:00:00Z", approved: "2025-12-15T00:00:00Z", plans: "[pro]", regions: "[eu]"}},
			},
			probes: []probe{
				{"2025-06-01T00:00:00Z", "pro", "eu", 1},
				{"2025-12-20T00:00:00Z", "pro", "eu", 1}, // v2 approved, not yet in effect
				{"2025-12-31T23:59:59.999999Z", "pro", "eu", 1},
				{"2026-01-01T00:00:00Z", "pro", "eu", 2},
				{"now", "pro", "eu", 2},
				{"now", "free", "eu", 0},
			},
		},
		{
			name: "v2 approved after its effective_from supersedes v1 only from its approval",
			imports: [][]file{
				{{doc: doc, version: 1, from: "2025-01-01T00:00:00Z"}},
				{{doc: doc, version: 2, from: "2026-01-01T00:00:00Z", approved: "2026-02-01T00:00:00Z"}},
			},
			probes: []probe{
				{"2026-01-15T00:00:00Z", "pro", "eu", 1},
				{"2026-01-31T23:59:59.999999Z", "pro", "eu", 1},
				{"2026-02-01T00:00:00Z", "pro", "eu", 2},
				{"now", "pro", "eu", 2},
			},
		},
		{
			name: "a draft v2 supersedes nothing: v1 stays eligible",
			imports: [][]file{
				{{doc: doc, version: 1, from: "2025-01-01T00:00:00Z"}},
				{{doc: doc, version: 2, status: "draft", from: "2026-01-01T00:00:00Z"}},
			},
			probes: []probe{{"2026-06-01T00:00:00Z", "pro", "eu", 1}, {"now", "pro", "eu", 1}},
		},
		{
			name: "a version filed as superseded is eligible inside its closed window only",
			imports: [][]file{{{doc: doc, version: 1, status: "superseded", from: "2025-01-01T00:00:00Z",
				to: "2026-01-01T00:00:00Z", plans: "[pro]", regions: "[eu]"}}},
			probes: []probe{
				{"2025-06-01T00:00:00Z", "pro", "eu", 1},
				{"2026-01-01T00:00:00Z", "pro", "eu", 0},
				{"now", "pro", "eu", 0},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s, _ := testdb.New(t)
			parsed := map[int]*policy.Version{}
			rewritten := map[string]bool{} // versions whose window an import changed: the file no longer tells
			for _, batch := range tt.imports {
				res := mustImport(t, s, batch...)
				for _, f := range batch {
					parsed[f.version] = f.parse(t)
				}
				for _, ref := range res.Superseded {
					rewritten[ref] = true
				}
			}
			vec, err := emb.Embed(ctx, []string{"refund window"})
			require.NoError(t, err)
			for _, p := range tt.probes {
				at := time.Now()
				if p.at != "now" {
					at = ts(t, p.at)
				}
				acct := policy.Account{Plan: p.plan, Region: p.region, Locale: "en"}
				what := p.at + " " + p.plan + "/" + p.region

				// store.Eligible: every chunk of the eligible version, nothing of any other.
				hits, err := s.Eligible(ctx, store.Query{At: at, Account: acct, Text: "refund window",
					Vector: vec[0], Embedder: emb.Name(), K: 100})
				require.NoError(t, err)
				var gotVersions []int
				for _, h := range hits {
					require.Equal(t, doc, h.DocID)
					assert.True(t, strings.HasPrefix(h.ChunkID, policy.ChunkID(h.DocID, h.Version, "")), "%s names its version", h.ChunkID)
					if !slices.Contains(gotVersions, h.Version) {
						gotVersions = append(gotVersions, h.Version)
					}
				}
				rows, err := s.ListVersions(ctx, at, p.plan, p.region)
				require.NoError(t, err)
				var listed []int
				for _, r := range rows {
					if r.Eligible {
						listed = append(listed, r.Version)
					}
				}
				cur := currentVersions(t, s, doc, at, p.plan, p.region)
				if p.want == 0 {
					assert.Empty(t, gotVersions, "Eligible at %s", what)
					assert.Empty(t, listed, "ListVersions at %s", what)
					assert.Empty(t, cur, "EligibleVersions at %s", what)
				} else {
					assert.Equal(t, []int{p.want}, gotVersions, "Eligible at %s", what)
					assert.Equal(t, []int{p.want}, listed, "ListVersions at %s", what)
					assert.Equal(t, []int{p.want}, cur, "EligibleVersions at %s", what)
					for _, r := range rows {
						if r.Version == p.want {
							assert.Len(t, hits, r.Chunks, "Eligible at %s returns every chunk of the eligible version", what)
						}
					}
				}

				// The Go twin agrees: on the stored rows always, and on the parsed file
				// wherever no later approval has rewritten the file's window.
				for _, r := range rows {
					twin := &policy.Version{DocID: r.DocID, Version: r.Version, Status: policy.Status(r.Status),
						EffectiveFrom: r.EffectiveFrom, EffectiveTo: r.EffectiveTo, ApprovedAt: r.ApprovedAt,
						Plans: r.Plans, Regions: r.Regions}
					assert.Equal(t, r.Version == p.want, twin.EligibleAt(at, p.plan, p.region),
						"Go twin of stored %s@%d at %s", r.DocID, r.Version, what)
				}
				for n, v := range parsed {
					if rewritten[v.Ref()] {
						continue
					}
					assert.Equal(t, n == p.want, v.EligibleAt(at, p.plan, p.region), "Go twin of file %s at %s", v.Ref(), what)
				}
			}
		})
	}
}

// TestEligibleScoresAndLocale pins the ranking contract of store.Eligible: score is the
// reciprocal-rank fusion of the arms, 1/(RRFK+rank) for the lexical arm's rank,
// VectorWeight/(RRFK+rank) for the vector arm's and DocWeight/(RRFK+rank) for the
// document arm's,
// plus LocaleBonus for chunks in the account's locale, so that of two equally ranked
// sections the account's language comes first.
func TestEligibleScoresAndLocale(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	body := "## Refund window\n\nAnnual plans are refunded within 14 days of the invoice date.\n"
	// Identical text, so similarity and text rank tie exactly; without the bonus the
	// tie-break by chunk ID would put a/… first for every account.
	mustImport(t, s,
		file{doc: "a/refunds", version: 1, from: "2025-01-01T00:00:00Z", locale: "en", body: body},
		file{doc: "b/refunds", version: 1, from: "2025-01-01T00:00:00Z", locale: "de", body: body},
	)
	text := "refund annual plan"
	vec, err := emb.Embed(ctx, []string{text})
	require.NoError(t, err)
	for _, locale := range []string{"en", "de"} {
		t.Run(locale, func(t *testing.T) {
			hits, err := s.Eligible(ctx, store.Query{At: ts(t, "2026-06-01T00:00:00Z"),
				Account: policy.Account{Plan: "pro", Region: "eu", Locale: locale},
				Text:    text, Vector: vec[0], Embedder: emb.Name(), K: 10, VectorWeight: 0.5})
			require.NoError(t, err)
			require.Len(t, hits, 2)
			assert.Equal(t, locale, hits[0].Locale, "the account's locale ranks first")
			for _, h := range hits {
				require.Positive(t, h.VectorRank, "%s is in the vector arm", h.ChunkID)
				require.Positive(t, h.TextRank, "%s is in the lexical arm", h.ChunkID)
				require.Positive(t, h.DocRank, "%s is in the document arm", h.ChunkID)
				want := 0.5/float64(store.RRFK+h.VectorRank) + 1/float64(store.RRFK+h.TextRank) + store.DocWeight/float64(store.RRFK+h.DocRank)
				if h.Locale == locale {
					want += store.LocaleBonus
				}
				assert.InDelta(t, want, h.Fused, 1e-9, "fused score of %s", h.ChunkID)
				assert.InDelta(t, h.Similarity, h.Score, 1e-9, "the evidence score of %s is its similarity", h.ChunkID)
			}
		})
	}
}

// refundWindowOn opens a store on a fresh scratch database with one more connection
// parameter in its URL, and returns it with the sample's "refund window" query for a
// pro account in the EU.
func refundWindowOn(t *testing.T, param, value string) (*store.Store, store.Query) {
	t.Helper()
	_, scratchURL := testdb.New(t)
	ctx := context.Background()
	u, err := url.Parse(scratchURL)
	require.NoError(t, err)
	params := u.Query()
	params.Set(param, value)
	u.RawQuery = params.Encode()
	s, err := store.Open(ctx, u.String())
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s, query(t, "refund window", time.Now(), 10)
}

// TestEFSearchStaysWithItsQuery: a query's own HNSW search breadth (Query.EFSearch) holds
// for its transaction only; the pooled connection goes back to store.EFSearch.
func TestEFSearchStaysWithItsQuery(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, q := refundWindowOn(t, "pool_max_conns", "1") // the next query gets the same connection
	q.EFSearch = 7
	_, err := s.Eligible(ctx, q)
	require.NoError(t, err)
	var ef string
	require.NoError(t, s.Pool().QueryRow(ctx, `SHOW hnsw.ef_search`).Scan(&ef))
	require.Equal(t, strconv.Itoa(store.EFSearch), ef)
}

// TestScopedStatementsArePlannedOnce: a scoped statement's plan depends on no value of the
// query, so its connection plans it once (a generic plan) rather than on every query.
func TestScopedStatementsArePlannedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, scratchURL := testdb.New(t)
	mustImport(t, s, file{doc: "a", version: 1, from: "2025-01-01T00:00:00Z", approved: "2025-01-01T00:00:00Z", plans: "[pro]", regions: "[eu]"})
	one, err := store.Open(ctx, scratchURL+"&pool_max_conns=1") // prepared statements belong to their connection
	require.NoError(t, err)
	defer one.Close()
	q := query(t, "annual refund", time.Now(), 10)
	for range 3 {
		hits, err := one.Eligible(ctx, q)
		require.NoError(t, err)
		require.NotEmpty(t, hits)
	}
	var generic, custom int
	require.NoError(t, one.Pool().QueryRow(ctx, `SELECT generic_plans, custom_plans FROM pg_prepared_statements
		WHERE statement LIKE '%lexical_arm%' AND statement NOT LIKE '%pg_prepared_statements%'`).Scan(&generic, &custom))
	require.Equal(t, 3, generic, "generic plans")
	require.Zero(t, custom, "custom plans")
}

// TestRetrievalIsNotJITCompiled: an indexed scope's statement carries an exact fallback
// that never runs but whose estimated cost, at a million chunks, passes Postgres'
// jit_above_cost; the server then compiled every query, and compiling took most of each
// query's time. The store's connections turn JIT off, so a server whose
// thresholds are low (here: every statement) still runs the statement as planned.
func TestRetrievalIsNotJITCompiled(t *testing.T) {
	t.Parallel()
	s, q := refundWindowOn(t, "jit_above_cost", "0") // sent at connect: without jit = off, every statement is compiled
	plan, err := s.ExplainEligible(context.Background(), q)
	require.NoError(t, err)
	require.NotEmpty(t, plan)
	require.NotContains(t, strings.Join(plan, "\n"), "JIT:", "the statement was JIT-compiled")
}
