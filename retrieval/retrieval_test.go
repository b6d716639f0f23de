package retrieval_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	brute "github.com/supportdraft/supportdraft/internal/reference"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/retrieval"
	"github.com/supportdraft/supportdraft/store"
)

// TestEligibleIsExactTopK checks retrieval against brute force on random corpora: every
// chunk scored with no filter, filtered in Go by the independent twin
// policy.Version.EligibleAt, ranked by similarity (internal/reference). The vector arm's
// best k must be exactly that top-k, every chunk of either arm must be eligible, and
// store.Eligible must never return fewer than min(k, eligible chunks).
func TestEligibleIsExactTopK(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			rng := rand.New(rand.NewPCG(seed, 0x5eed))
			s, _ := testdb.New(t)
			versions := randomCorpus(t, rng, 40)
			res, err := s.Import(ctx, versions, testenv.Embedder)
			require.NoError(t, err, "the generated corpus must import")
			require.NotEmpty(t, res.Superseded, "the corpus has chains that imports supersede")
			ref := loadReference(t, s)

			var short, long, empty int
			for i := range 30 {
				q := randomQuery(rng, ref)
				what := fmt.Sprintf("query %d: %s %s/%s k=%d %q", i, q.At.Format(time.RFC3339Nano), q.Account.Plan, q.Account.Region, q.K, q.Text)
				vec, err := testenv.Embedder.Embed(ctx, []string{q.Text})
				require.NoError(t, err)
				q.Vector, q.Embedder = vec[0], testenv.Embedder.Name()

				arms, err := s.Arms(ctx, q)
				require.NoError(t, err, what)
				want, eligible := ref.exactTopK(t, s, q)
				var got []string
				for _, h := range brute.VectorArm(arms, q.K) {
					got = append(got, h.ChunkID)
				}
				var wantIDs []string
				for _, w := range want {
					wantIDs = append(wantIDs, w.id)
				}
				require.Equal(t, wantIDs, got, what)
				hits, err := s.Eligible(ctx, q)
				require.NoError(t, err, what)
				require.Len(t, hits, min(q.K, eligible), "%s: never fewer rows than the eligible set holds", what)
				for _, h := range arms {
					assert.True(t, ref.versions[h.ChunkID].EligibleAt(q.At, q.Account.Plan, q.Account.Region), "%s: %s is not eligible", what, h.ChunkID)
					v := ref.versions[h.ChunkID]
					assert.Equal(t, v.DocID, h.DocID, h.ChunkID)
					assert.Equal(t, v.Version, h.Version, h.ChunkID)
				}
				switch {
				case eligible == 0:
					empty++
				case eligible < q.K:
					short++
				default:
					long++
				}
			}
			// The draw must exercise both sides of LIMIT, or the test proves little.
			t.Logf("queries: %d with no eligible chunk, %d with fewer than k, %d with k or more", empty, short, long)
			assert.Positive(t, short, "some queries have fewer eligible chunks than k")
			assert.Positive(t, long, "some queries have more eligible chunks than k")
		})
	}
}

var (
	plans    = []string{"free", "pro", "business"}
	regions  = []string{"eu", "uk", "us"}
	headings = []string{"Refund window", "Who is eligible", "What is refunded", "How to request a refund",
		"Failed payments", "Invoices and VAT", "Cancellation", "Proration", "Seats", "Credits"}
	vocabulary = strings.Fields(`refund refunds annual monthly plan plans invoice invoices vat reverse charge
		payment card declined retry suspended cancel cancellation renewal upgrade downgrade prorated seats
		credit credits window days weeks business calendar account owner admin billing support request
		duplicate charge purchase date receipt tax sales gst workspace free pro trial discount coupon
		the your we within after before at of to a is are can be not`)
	// boilerplate is shared word for word by some sections of different documents: exact
	// score ties, which only the ORDER BY tie-break on chunk ID can settle.
	boilerplate = "Refunds go back to the original payment method within 5 to 10 business days."
	epoch       = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
)

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

// scope draws ["*"] or a non-empty subset of values, as a YAML flow list.
func scope(rng *rand.Rand, values []string) string {
	if rng.IntN(5) == 0 {
		return `["*"]`
	}
	var out []string
	for _, v := range values {
		if rng.IntN(2) == 0 {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		out = []string{pick(rng, values)}
	}
	return "[" + strings.Join(out, ", ") + "]"
}

func sentence(rng *rand.Rand) string {
	words := make([]string, 6+rng.IntN(10))
	for i := range words {
		words[i] = pick(rng, vocabulary)
	}
	return strings.Join(words, " ") + fmt.Sprintf(" %d days.", 7*(1+rng.IntN(5)))
}

// randomCorpus writes docs documents with 1–3 versions each and parses them as an import
// would. Versions of a document start in version order, so importing them in order
// supersedes rather than collides; some are drafts, some were filed as superseded, some
// end on their own, some are approved before or after their effective_from.
func randomCorpus(t *testing.T, rng *rand.Rand, docs int) []*policy.Version {
	t.Helper()
	day := 24 * time.Hour
	var out []*policy.Version
	for d := range docs {
		docID := fmt.Sprintf("billing/doc-%02d", d)
		cursor := epoch.Add(time.Duration(rng.IntN(200))*day + time.Duration(rng.IntN(24))*time.Hour)
		n := 1 + rng.IntN(3)
		for ver := 1; ver <= n; ver++ {
			from := cursor
			start := from
			var approved, to string
			switch rng.IntN(10) {
			case 0, 1, 2:
				a := from.Add(-time.Duration(rng.IntN(30)) * day)
				approved = a.Format(time.RFC3339)
			case 3, 4:
				start = from.Add(time.Duration(1+rng.IntN(20)) * day)
				approved = start.Format(time.RFC3339)
			}
			status := "approved"
			if rng.IntN(3) == 0 {
				to = start.Add(time.Duration(10+rng.IntN(400)) * day).Format(time.RFC3339)
				if ver < n && rng.IntN(2) == 0 {
					status = "superseded"
				}
			}
			if rng.IntN(7) == 0 {
				status = "draft"
			}
			cursor = start.Add(time.Duration(30+rng.IntN(270)) * day)

			var b strings.Builder
			fmt.Fprintf(&b, "---\ndoc_id: %s\nversion: %d\nstatus: %s\ntitle: Doc %d\narea: refunds\n", docID, ver, status, d)
			fmt.Fprintf(&b, "effective_from: %s\n", from.Format(time.RFC3339))
			if approved != "" {
				fmt.Fprintf(&b, "approved_at: %s\n", approved)
			}
			if to != "" {
				fmt.Fprintf(&b, "effective_to: %s\n", to)
			}
			fmt.Fprintf(&b, "plans: %s\nregions: %s\n---\n%s\n", scope(rng, plans), scope(rng, regions), sentence(rng))
			for _, h := range rng.Perm(len(headings))[:2+rng.IntN(3)] {
				fmt.Fprintf(&b, "\n## %s\n\n", headings[h])
				if rng.IntN(8) == 0 {
					b.WriteString(boilerplate + "\n")
					continue
				}
				for range 1 + rng.IntN(3) {
					b.WriteString(sentence(rng) + " ")
				}
				b.WriteString("\n")
			}
			path := fmt.Sprintf("%s/v%d.md", docID, ver)
			v, err := policy.Parse(path, []byte(b.String()))
			require.NoError(t, err, "generated %s:\n%s", path, b.String())
			out = append(out, v)
		}
	}
	return out
}

// reference is every stored chunk's version metadata, read back after import (so it
// includes the windows that supersession closed), for judging eligibility in Go.
type reference struct {
	versions map[string]*policy.Version // by chunk ID
	bounds   []time.Time                // every window edge, for boundary queries
}

func loadReference(t *testing.T, s *store.Store) *reference {
	t.Helper()
	rows, err := s.Pool().Query(context.Background(), `
		SELECT c.id, v.doc_id, v.version, v.status, v.effective_from, v.effective_to, v.approved_at, v.plans, v.regions
		FROM chunks c JOIN versions v ON v.id = c.version_id`)
	require.NoError(t, err)
	ref := &reference{versions: map[string]*policy.Version{}}
	shared := map[string]*policy.Version{}
	for rows.Next() {
		var id string
		v := &policy.Version{}
		require.NoError(t, rows.Scan(&id, &v.DocID, &v.Version, &v.Status, &v.EffectiveFrom, &v.EffectiveTo, &v.ApprovedAt, &v.Plans, &v.Regions))
		if seen, ok := shared[v.Ref()]; ok {
			v = seen
		} else {
			shared[v.Ref()] = v
			for _, tm := range []*time.Time{v.EffectiveFrom, v.EffectiveTo, v.ApprovedAt} {
				if tm != nil {
					ref.bounds = append(ref.bounds, *tm)
				}
			}
		}
		ref.versions[id] = v
	}
	require.NoError(t, rows.Err())
	slices.SortFunc(ref.bounds, func(a, b time.Time) int { return a.Compare(b) })
	return ref
}

// randomQuery draws an instant (uniform, or exactly on or just before a window edge),
// an account, a question from the vocabulary and k.
func randomQuery(rng *rand.Rand, ref *reference) store.Query {
	var at time.Time
	switch rng.IntN(3) {
	case 0:
		at = pick(rng, ref.bounds)
	case 1:
		at = pick(rng, ref.bounds).Add(-time.Microsecond)
	default:
		at = epoch.Add(-90 * 24 * time.Hour).Add(time.Duration(rng.Int64N(int64(3 * 365 * 24 * time.Hour))))
	}
	words := make([]string, 3+rng.IntN(8))
	for i := range words {
		words[i] = pick(rng, vocabulary)
	}
	return store.Query{
		At: at,
		// Every generated version is in English, so the locale bonus is the same for every
		// chunk and cannot reorder them; the locale preference has its own test in store.
		Account: policy.Account{Plan: pick(rng, plans), Region: pick(rng, regions), Locale: "en"},
		Text:    strings.Join(words, " ") + "?",
		K:       pick(rng, []int{1, 5, 10, 50}),
	}
}

type scored struct {
	id string
}

// exactTopK is the brute-force answer of internal/reference (every chunk scored, filtered
// in Go by EligibleAt, best by similarity) and how many chunks were eligible.
func (r *reference) exactTopK(t *testing.T, s *store.Store, q store.Query) ([]scored, int) {
	t.Helper()
	ctx := context.Background()
	corpus, err := brute.Load(ctx, s.Pool())
	require.NoError(t, err)
	top, err := corpus.TopK(ctx, s.Pool(), q)
	require.NoError(t, err)
	out := make([]scored, len(top))
	for i, x := range top {
		out[i] = scored{id: x.ID}
	}
	return out, corpus.Count(q.At, q.Account)
}

// proEU is the account the sample corpus's tests ask as: a Pro customer in the EU.
var proEU = policy.Account{Plan: "pro", Region: "eu", Locale: "en"}

// sampleRetriever retrieves from the sample corpus, in a store of the test's own.
func sampleRetriever(t *testing.T) *retrieval.Retriever {
	t.Helper()
	return &retrieval.Retriever{Store: testenv.Store(t), Embedder: testenv.Embedder}
}

// TestRetrieverOnSampleCorpus asks the sample corpus about refunding an annual plan as a
// pro account in the EU: now it must be answered from refunds-annual@4, never from the
// superseded @3, the draft @5 or the US/APAC policy; in January 2026 from @3, not @4.
func TestRetrieverOnSampleCorpus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := sampleRetriever(t)
	const question = "Hi, I paid for the annual Pro plan last week. Can I get a refund on my annual plan?"
	tests := []struct {
		at    time.Time
		want  string   // a version some of whose chunks must be among the top 6
		never []string // versions no chunk may come from, even with k covering everything
	}{
		{
			at:    time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
			want:  "billing/refunds-annual@4",
			never: []string{"billing/refunds-annual@3", "billing/refunds-annual@5", "billing/refunds-annual-us-apac@1", "helpcenter/annual-plan-refunds@1"},
		},
		{
			at:    time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC),
			want:  "billing/refunds-annual@3",
			never: []string{"billing/refunds-annual@4", "billing/refunds-annual@5", "billing/refunds-annual-us-apac@1", "billing/refunds-annual-de@1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.at.Format(time.DateOnly), func(t *testing.T) {
			t.Parallel()
			for _, k := range []int{6, 100} {
				hits, err := r.Search(ctx, tt.at, proEU, []string{question}, k)
				require.NoError(t, err)
				require.NotEmpty(t, hits)
				assert.LessOrEqual(t, len(hits), k)
				var refs []string
				perDoc := map[string]int{}
				for i, h := range hits {
					e := h.Evidence
					perDoc[e.DocID]++
					ref := fmt.Sprintf("%s@%d", e.DocID, e.Version)
					refs = append(refs, ref)
					assert.True(t, strings.HasPrefix(e.ChunkID, ref+"#"), "%s is cited as %s", e.ChunkID, ref)
					assert.NotEmpty(t, e.Text)
					assert.NotEmpty(t, e.Title)
					// Best first, but a document's chunks beyond store.MaxPerDoc wait
					// until every other document's have been listed.
					if i > 0 && perDoc[e.DocID] <= store.MaxPerDoc {
						assert.LessOrEqual(t, h.Fused, hits[i-1].Fused, "best first")
					}
					if ref == "billing/refunds-annual@4" || ref == "billing/refunds-annual@3" {
						assert.Equal(t, "Refunds on annual plans", e.Title)
						assert.Equal(t, "refunds", e.Area)
						assert.Equal(t, policy.SourceWiki, e.Source)
					}
				}
				assert.Contains(t, refs, tt.want, "k=%d", k)
				for _, never := range tt.never {
					assert.NotContains(t, refs, never, "k=%d", k)
				}
			}

			// The drafter's search tool is the same eligible-only retrieval.
			direct, err := r.Eligible(ctx, tt.at, proEU, []string{"refund window annual plan"}, 10)
			require.NoError(t, err)
			searched, err := r.Searcher(tt.at, proEU)(ctx, "refund window annual plan", 10)
			require.NoError(t, err)
			assert.Equal(t, direct, searched)
		})
	}
}

// TestSearchKeepsTheBestLexicalShare: a chunk found by several of a ticket's queries
// carries the best lexical share any of them gave it (the answer to one question of the
// ticket), and the evidence the drafter gets carries it too.
func TestSearchKeepsTheBestLexicalShare(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := sampleRetriever(t)
	at := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	queries := []string{"Hi, I paid for the annual Pro plan last week and my team grew. Can I get a refund on my annual plan?", "refund annual plan"}
	best := map[string]float64{}
	for _, q := range queries {
		hits, err := r.Search(ctx, at, proEU, []string{q}, 100)
		require.NoError(t, err)
		for _, h := range hits {
			assert.InDelta(t, h.TextScore/h.TextCeiling, h.Lexical, 1e-12, "%s for %q", h.ChunkID, q)
			best[h.ChunkID] = max(best[h.ChunkID], h.Lexical)
		}
	}
	evidence, err := r.Eligible(ctx, at, proEU, queries, 100)
	require.NoError(t, err)
	require.NotEmpty(t, evidence)
	scored := 0
	for _, e := range evidence {
		assert.Equal(t, best[e.ChunkID], e.Lexical, "%s", e.ChunkID)
		assert.LessOrEqual(t, e.Lexical, 1.0)
		if e.Lexical > 0 {
			scored++
		}
	}
	assert.Positive(t, scored, "some evidence carries a lexical share")
}

// TestQueries: a ticket is searched once whole, then once per customer message of a
// thread and once per question of a ticket that asks several; a single question is one
// search.
func TestQueries(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []string{"Refund\nCan I get a refund?"}, retrieval.Queries("Refund", []string{"Can I get a refund?"}))
	assert.Equal(t, []string{"Two things\nCan I get a refund? And how do I download an invoice?",
		"Can I get a refund?", "And how do I download an invoice?"},
		retrieval.Queries("Two things", []string{"Can I get a refund? And how do I download an invoice?"}))
	assert.Equal(t, []string{"My card was declined.\nIt still fails, what now",
		"My card was declined.", "It still fails, what now"},
		retrieval.Queries("", []string{"My card was declined.", "It still fails, what now"})[:3])
	long := retrieval.Queries("", []string{"Can I get a refund? Where is my invoice? How many seats? What tax? Which card? How long is the trial? Is there a coupon?"})
	assert.Len(t, long, retrieval.MaxQueries)
}
