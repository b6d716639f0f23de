package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
)

// TestImportSupersedesInOneTransaction approves v2 of a document and checks that v1's
// window was closed at v2's start and v1 marked superseded, audited, by the same
// transaction that inserted v2.
func TestImportSupersedesInOneTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const doc = "billing/refunds"
	tests := []struct {
		name      string
		v2        file
		wantStart string // where v1's window must now end
	}{
		{"effective after approval", file{doc: doc, version: 2, from: "2026-06-01T00:00:00Z", approved: "2026-05-20T00:00:00Z"}, "2026-06-01T00:00:00Z"},
		{"approved after effective_from", file{doc: doc, version: 2, from: "2026-06-01T00:00:00Z", approved: "2026-07-01T00:00:00Z"}, "2026-07-01T00:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, _ := testdb.New(t)
			res := mustImport(t, s, file{doc: doc, version: 1, from: "2026-01-01T00:00:00Z"})
			assert.Equal(t, []string{doc + "@1"}, res.Added)
			assert.Empty(t, res.Superseded)
			v1Before := stored(t, s, doc, 1)
			require.Equal(t, "approved", v1Before.Status)
			require.Nil(t, v1Before.To)

			res = mustImport(t, s, tt.v2)
			assert.Equal(t, []string{doc + "@2"}, res.Added)
			assert.Equal(t, []string{doc + "@1"}, res.Superseded)

			v1, v2 := stored(t, s, doc, 1), stored(t, s, doc, 2)
			assert.Equal(t, "superseded", v1.Status)
			if assert.NotNil(t, v1.To) {
				assert.True(t, v1.To.Equal(ts(t, tt.wantStart)), "v1 ends at v2's start %s, got %s", tt.wantStart, v1.To)
			}
			assert.True(t, v1.From.Equal(*v1Before.From), "v1's start is untouched")
			assert.Equal(t, "approved", v2.Status)
			assert.Nil(t, v2.To)
			// xmin is the transaction that wrote a row version: the update of v1 and the
			// insert of v2 are one transaction, not two.
			assert.Equal(t, v2.Xmin, v1.Xmin, "v1 was superseded by the transaction that inserted v2")
			assert.NotEqual(t, v1Before.Xmin, v1.Xmin)

			type audit struct {
				Version int
				Action  string
				Detail  string
				At      time.Time
				Xmin    string
			}
			rows, err := s.Pool().Query(ctx, `SELECT version, action, detail, at, xmin::text FROM approvals WHERE doc_id = $1 ORDER BY id`, doc)
			require.NoError(t, err)
			audits, err := pgx.CollectRows(rows, pgx.RowToStructByPos[audit])
			require.NoError(t, err)
			require.Len(t, audits, 3, "%+v", audits)
			assert.Equal(t, []any{1, "approved"}, []any{audits[0].Version, audits[0].Action})
			assert.Equal(t, []any{1, "superseded"}, []any{audits[1].Version, audits[1].Action})
			assert.Contains(t, audits[1].Detail, "by version 2")
			assert.Equal(t, []any{2, "approved"}, []any{audits[2].Version, audits[2].Action})
			assert.Equal(t, v2.Xmin, audits[1].Xmin, "the 'superseded' audit row is written by the approving transaction")
			assert.Equal(t, v2.Xmin, audits[2].Xmin)
			assert.Empty(t, overlappingPairs(t, s))
		})
	}
}

// TestImportIdenticalIsNoop re-imports the sample corpus: nothing is added, superseded
// or rewritten, and every version is reported unchanged.
func TestImportIdenticalIsNoop(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)
	versions, err := policy.ParseDir(testenv.SampleCorpus())
	require.NoError(t, err)
	before := counts(t, s)
	var xminBefore []string
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT array_agg(xmin::text ORDER BY id) FROM versions`).Scan(&xminBefore))

	res, err := s.Import(ctx, versions, emb)
	require.NoError(t, err)
	assert.Empty(t, res.Added)
	assert.Empty(t, res.Superseded)
	var refs []string
	for _, v := range versions {
		refs = append(refs, v.Ref())
	}
	assert.Equal(t, refs, res.Unchanged)
	assert.Equal(t, before, counts(t, s))
	var xminAfter []string
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT array_agg(xmin::text ORDER BY id) FROM versions`).Scan(&xminAfter))
	assert.Equal(t, xminBefore, xminAfter, "no version row was rewritten")

	// A version the store has since superseded is still "unchanged" when its file is.
	const doc = "billing/noop"
	mustImport(t, s, file{doc: doc, version: 1, from: "2025-01-01T00:00:00Z"}, file{doc: doc, version: 2, from: "2026-01-01T00:00:00Z"})
	res = mustImport(t, s, file{doc: doc, version: 1, from: "2025-01-01T00:00:00Z"})
	assert.Equal(t, []string{doc + "@1"}, res.Unchanged)
	assert.Empty(t, res.Added)
	assert.Equal(t, "superseded", stored(t, s, doc, 1).Status)
}

// TestImportRefusesChangedVersion: different bytes under a stored doc_id@version are
// refused with a message that names the version and says to bump it.
func TestImportRefusesChangedVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	const doc = "billing/refunds"
	orig := file{doc: doc, version: 2, from: "2026-01-01T00:00:00Z"}
	mustImport(t, s, file{doc: doc, version: 1, from: "2025-01-01T00:00:00Z"}, orig)
	before, origRow := counts(t, s), stored(t, s, doc, 2)

	edited := orig
	edited.body = "## Refund window\n\nAnnual plans are refunded within 30 days.\n"
	_, err := s.Import(ctx, parseAll(t, edited), emb)
	require.Error(t, err)
	assert.Contains(t, err.Error(), doc+"@2", "names the version")
	assert.Contains(t, err.Error(), "v2.md", "names the file")
	assert.Contains(t, err.Error(), "already stored with different content")
	assert.Contains(t, err.Error(), "version 3", "tells the author to bump the version")
	assert.Equal(t, before, counts(t, s))
	assert.Equal(t, origRow, stored(t, s, doc, 2), "the stored version is untouched")

	// A change of metadata alone is a change too.
	retimed := orig
	retimed.from = "2026-02-01T00:00:00Z"
	_, err = s.Import(ctx, parseAll(t, retimed), emb)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "already stored with different content")
}

// TestImportIsAllOrNothing imports batches whose third version fails and checks that the
// store holds exactly what it held before: no documents, versions, chunks or audit rows
// from the first two, and no supersession they made.
func TestImportIsAllOrNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	existing := []file{
		{doc: "billing/x", version: 1, from: "2025-01-01T00:00:00Z"},
		{doc: "billing/y", version: 1, from: "2025-01-01T00:00:00Z"},
	}
	fromDir := func(t *testing.T) []*policy.Version {
		vs, err := policy.ParseDir("testdata/import-overlap")
		require.NoError(t, err, "every fixture file is valid on its own")
		require.Len(t, vs, 3)
		require.Equal(t, "billing/b@2", vs[2].Ref())
		return vs
	}
	tests := []struct {
		name    string
		batch   func(t *testing.T) []*policy.Version
		wantErr []string
	}{
		{
			name: "an older version imported after a newer one overlaps it",
			batch: func(t *testing.T) []*policy.Version {
				return parseAll(t,
					file{doc: "billing/x", version: 2, from: "2026-01-01T00:00:00Z"}, // supersedes the stored x@1
					file{doc: "billing/new", version: 2, from: "2026-01-01T00:00:00Z"},
					file{doc: "billing/new", version: 1, from: "2025-06-01T00:00:00Z"}, // open-ended, overlaps new@2
				)
			},
			wantErr: []string{"billing/new@1", "overlaps another non-draft version of billing/new"},
		},
		{
			name:    "a corpus directory whose v2 starts before its v1",
			batch:   fromDir,
			wantErr: []string{"billing/b@2", "testdata/import-overlap/billing/b/v2.md", "overlaps"},
		},
		{
			name: "the third file edits a stored version",
			batch: func(t *testing.T) []*policy.Version {
				return parseAll(t,
					file{doc: "billing/x", version: 2, from: "2026-01-01T00:00:00Z"},
					file{doc: "billing/new", version: 1, from: "2025-06-01T00:00:00Z"},
					file{doc: "billing/y", version: 1, from: "2025-01-01T00:00:00Z", body: "## Changed\n\nNew words.\n"},
				)
			},
			wantErr: []string{"billing/y@1", "already stored with different content"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, _ := testdb.New(t)
			mustImport(t, s, existing...)
			before := counts(t, s)
			x1 := stored(t, s, "billing/x", 1)

			res, err := s.Import(ctx, tt.batch(t), emb)
			require.Error(t, err)
			assert.Nil(t, res)
			for _, want := range tt.wantErr {
				assert.Contains(t, err.Error(), want)
			}
			assert.Equal(t, before, counts(t, s), "nothing of the batch is left behind")
			assert.Equal(t, x1, stored(t, s, "billing/x", 1), "the supersession of x@1 was rolled back")
			var docs []string
			require.NoError(t, s.Pool().QueryRow(ctx, `SELECT array_agg(doc_id ORDER BY doc_id) FROM documents`).Scan(&docs))
			assert.Equal(t, []string{"billing/x", "billing/y"}, docs)

			// The store is still usable: the good part of the batch imports on its own.
			mustImport(t, s, file{doc: "billing/x", version: 2, from: "2026-01-01T00:00:00Z"})
			assert.Equal(t, "superseded", stored(t, s, "billing/x", 1).Status)
		})
	}
}

// TestConcurrentApprovals races two imports of one document. Whatever the interleaving,
// they cannot both win a version number, and the store never ends with two versions of
// the document eligible at the same instant.
func TestConcurrentApprovals(t *testing.T) {
	t.Parallel()
	const rounds = 8
	race := func(s *store.Store, a, b []*policy.Version) [2]error {
		var wg sync.WaitGroup
		var errs [2]error
		start := make(chan struct{})
		for i, batch := range [][]*policy.Version{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[i] = s.Import(context.Background(), batch, emb)
			}()
		}
		close(start)
		wg.Wait()
		return errs
	}

	t.Run("same doc_id@version with different content: exactly one wins", func(t *testing.T) {
		t.Parallel()
		s, _ := testdb.New(t)
		for round := range rounds {
			doc := fmt.Sprintf("billing/race-%d", round)
			if round%2 == 0 { // half the rounds race on a document the store already has
				mustImport(t, s, file{doc: doc, version: 1, from: "2025-01-01T00:00:00Z"})
			}
			a := file{doc: doc, version: 2, from: "2026-01-01T00:00:00Z", body: "## Window\n\nRefunds within 14 days.\n"}
			b := file{doc: doc, version: 2, from: "2026-02-01T00:00:00Z", body: "## Window\n\nRefunds within 21 days.\n"}
			va, vb := a.parse(t), b.parse(t)
			errs := race(s, []*policy.Version{va}, []*policy.Version{vb})
			won := 0
			var winner *policy.Version
			for i, err := range errs {
				if err == nil {
					won++
					winner = []*policy.Version{va, vb}[i]
				} else {
					assert.Contains(t, err.Error(), "already stored with different content", "round %d", round)
				}
			}
			require.Equal(t, 1, won, "round %d: exactly one approval of %s@2 succeeds: %v", round, doc, errs)
			assert.Equal(t, winner.ContentHash, stored(t, s, doc, 2).ContentHash, "round %d", round)
			var chunks int
			require.NoError(t, s.Pool().QueryRow(context.Background(), `SELECT count(*) FROM chunks c JOIN versions v ON v.id = c.version_id
				WHERE v.doc_id = $1 AND v.version = 2`, doc).Scan(&chunks))
			assert.Equal(t, len(winner.Chunks), chunks, "round %d: only the winner's chunks are stored", round)
		}
		assert.Empty(t, overlappingPairs(t, s))
	})

	t.Run("v2 and v3 both open-ended: never two eligible versions at once", func(t *testing.T) {
		t.Parallel()
		s, _ := testdb.New(t)
		outcomes := map[string]int{}
		for round := range rounds {
			doc := fmt.Sprintf("billing/race-%d", round)
			mustImport(t, s, file{doc: doc, version: 1, from: "2026-01-01T00:00:00Z"})
			v2 := file{doc: doc, version: 2, from: "2026-03-01T00:00:00Z"}.parse(t)
			v3 := file{doc: doc, version: 3, from: "2026-05-01T00:00:00Z"}.parse(t)
			errs := race(s, []*policy.Version{v2}, []*policy.Version{v3})
			require.False(t, errs[0] != nil && errs[1] != nil, "round %d: at least one approval succeeds: %v", round, errs)
			// v3 always wins: if v2 commits first, v3 supersedes it; if v3 commits first, v2
			// (lower number, later-ending window) overlaps it and must be refused.
			require.NoError(t, errs[1], "round %d: v3", round)
			if errs[0] != nil {
				outcomes["v3 first, v2 refused"]++
				assert.Contains(t, errs[0].Error(), "overlaps", "round %d", round)
			} else {
				outcomes["v2 then v3"]++
			}

			want := map[string]int{"2026-02-01T00:00:00Z": 1, "2026-06-01T00:00:00Z": 3, "2027-01-01T00:00:00Z": 3}
			if errs[0] == nil {
				want["2026-04-01T00:00:00Z"] = 2
			} else {
				want["2026-04-01T00:00:00Z"] = 1
			}
			for at, n := range want {
				assert.Equal(t, []int{n}, currentVersions(t, s, doc, ts(t, at), "pro", "eu"), "round %d at %s", round, at)
			}
		}
		assert.Empty(t, overlappingPairs(t, s), "no two non-draft versions of a doc overlap")
		t.Logf("interleavings seen: %v", outcomes)
	})
}

// TestExclusionConstraint writes versions with raw SQL, past the importer, to show the
// schema itself holds the line: at most one non-draft version per doc at any instant.
func TestExclusionConstraint(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	// x@1 is eligible during [2026-01-01, 2026-06-01).
	mustImport(t, s, file{doc: "billing/x", version: 1, from: "2026-01-01T00:00:00Z", to: "2026-06-01T00:00:00Z"})
	mustImport(t, s, file{doc: "billing/other", version: 1, status: "draft", plans: "[]", regions: "[]"})

	const insert = `INSERT INTO versions (doc_id, version, status, source, title, area, effective_from, effective_to,
		approved_at, plans, regions, content_hash, body)
		VALUES ($1, $2, $3, 'wiki', 'raw', 'refunds', $4, $5, $6, $7, '{"*"}', 'raw', 'raw')`
	tests := []struct {
		name           string
		doc            string
		status         string
		from, to       any
		approved       any
		plans          []string
		wantConstraint string // "" when the row is allowed
		wantCode       string
	}{
		{"approved and overlapping", "billing/x", "approved", "2026-03-01T00:00:00Z", nil, "2026-03-01T00:00:00Z", []string{"*"}, "one_eligible_version_per_doc", "23P01"},
		{"superseded and overlapping", "billing/x", "superseded", "2025-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2025-01-01T00:00:00Z", []string{"*"}, "one_eligible_version_per_doc", "23P01"},
		{"approved before x@1 ends, effective after it", "billing/x", "approved", "2026-07-01T00:00:00Z", nil, "2026-05-31T00:00:00Z", []string{"*"}, "", ""},
		{"approved in a disjoint plan scope still overlaps", "billing/x", "approved", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z", "2026-02-01T00:00:00Z", []string{"free"}, "one_eligible_version_per_doc", "23P01"},
		{"adjacent window starting at effective_to", "billing/x", "approved", "2026-06-01T00:00:00Z", nil, "2026-06-01T00:00:00Z", []string{"*"}, "", ""},
		{"adjacent window ending at effective_from", "billing/x", "superseded", "2025-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "2025-01-01T00:00:00Z", []string{"*"}, "", ""},
		{"draft with the same window", "billing/x", "draft", "2026-03-01T00:00:00Z", nil, "2026-03-01T00:00:00Z", []string{"*"}, "", ""},
		{"same window, another doc", "billing/other", "approved", "2026-03-01T00:00:00Z", nil, "2026-03-01T00:00:00Z", []string{"*"}, "", ""},
		{"approved without approved_at", "billing/x", "approved", "2027-01-01T00:00:00Z", nil, nil, []string{"*"}, "approved_needs_scope", "23514"},
		{"approved without plans", "billing/x", "approved", "2027-01-01T00:00:00Z", nil, "2027-01-01T00:00:00Z", []string{}, "approved_needs_scope", "23514"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Sequential on one store: each case runs in a transaction that is rolled back.
			tx, err := s.Pool().Begin(ctx)
			require.NoError(t, err)
			defer func() { _ = tx.Rollback(ctx) }()
			_, err = tx.Exec(ctx, insert, tt.doc, 2, tt.status, tt.from, tt.to, tt.approved, tt.plans)
			if tt.wantConstraint == "" {
				assert.NoError(t, err)
				return
			}
			var pgErr *pgconn.PgError
			require.True(t, errors.As(err, &pgErr), "want a Postgres error, got %v", err)
			assert.Equal(t, tt.wantCode, pgErr.Code)
			assert.Equal(t, tt.wantConstraint, pgErr.ConstraintName)
		})
	}
	assert.Empty(t, overlappingPairs(t, s))
}

// lockProbe is an embedder that, while it embeds, tries to lock the document row of doc
// without waiting, and counts the texts it was asked for: the import must not hold its
// transaction (and the document's lock) open while a model embeds.
type lockProbe struct {
	store.Embedder
	s        *store.Store
	doc      string
	lockErrs []error
	texts    int
}

func (p *lockProbe) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	p.texts += len(texts)
	err := pgx.BeginFunc(ctx, p.s.Pool(), func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `SELECT 1 FROM documents WHERE doc_id = $1 FOR UPDATE NOWAIT`, p.doc)
		return err
	})
	p.lockErrs = append(p.lockErrs, err)
	return p.Embedder.Embed(ctx, texts)
}

// TestImportEmbedsBeforeItsTransaction: the chunks of a new version are embedded while no
// lock is held, and versions already stored are not embedded again.
func TestImportEmbedsBeforeItsTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testenv.Store(t)
	const doc = "billing/embed-first"
	mustImport(t, s, file{doc: doc, version: 1, from: "2025-01-01T00:00:00Z"})

	probe := &lockProbe{Embedder: emb, s: s, doc: doc}
	res, err := s.Import(ctx, parseAll(t, file{doc: doc, version: 1, from: "2025-01-01T00:00:00Z"},
		file{doc: doc, version: 2, from: "2026-01-01T00:00:00Z"}), probe)
	require.NoError(t, err)
	assert.Equal(t, []string{doc + "@2"}, res.Added)
	assert.Equal(t, []string{doc + "@1"}, res.Unchanged)
	require.Len(t, probe.lockErrs, 1, "only the new version is embedded")
	assert.NoError(t, probe.lockErrs[0], "the document was locked while its chunks were embedded")
	var chunks int
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT count(*) FROM chunks WHERE id LIKE $1`, doc+"@2#%").Scan(&chunks))
	assert.Equal(t, chunks, probe.texts)
	assert.Positive(t, chunks)
}

// A section's front-matter marks and its subheadings survive the import: every read that
// hands chunks to the guard or the drafter (by ID, by version) carries them.
func TestImportKeepsSectionMarks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	v := file{doc: "billing/refunds", version: 1, from: "2026-01-01T00:00:00Z"}.parse(t)
	for i := range v.Chunks {
		if v.Chunks[i].Anchor == "how-to-ask" {
			v.Chunks[i].Audience, v.Chunks[i].Fixed = policy.AudienceAgents, true
			v.Chunks[i].Subheadings = []string{"By mail"}
		}
	}
	_, err := s.Import(ctx, []*policy.Version{v}, emb)
	require.NoError(t, err)

	byID, err := s.Chunks(ctx, []string{"billing/refunds@1#how-to-ask", "billing/refunds@1#refund-window"})
	require.NoError(t, err)
	require.Len(t, byID, 2)
	assert.True(t, byID[0].ForAgents() && byID[0].FixedWording(), "%+v", byID[0])
	assert.False(t, byID[1].ForAgents() || byID[1].FixedWording(), "%+v", byID[1])
	assert.Equal(t, []string{"By mail"}, byID[0].Subheadings)
	assert.Empty(t, byID[1].Subheadings)

	var versionID int64
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT id FROM versions WHERE doc_id = 'billing/refunds'`).Scan(&versionID))
	chunks, err := s.VersionChunks(ctx, []int64{versionID})
	require.NoError(t, err)
	marked, titled := map[string]bool{}, map[string][]string{}
	for _, c := range chunks {
		marked[c.ChunkID], titled[c.ChunkID] = c.ForAgents(), c.Subheadings
	}
	assert.Equal(t, map[string]bool{"billing/refunds@1#how-to-ask": true, "billing/refunds@1#refund-window": false}, marked)
	assert.Equal(t, map[string][]string{"billing/refunds@1#how-to-ask": {"By mail"}, "billing/refunds@1#refund-window": {}}, titled)
}

// TestNamedPlansAndRegions: the plans and regions of published versions, "*" aside; a
// draft's are not named, since no account is ever told a draft.
func TestNamedPlansAndRegions(t *testing.T) {
	t.Parallel()
	s, _ := testdb.New(t)
	mustImport(t, s,
		file{doc: "billing/refunds", version: 1, from: "2026-01-01T00:00:00Z", approved: "2025-12-01T00:00:00Z", plans: "[pro, business]", regions: "[eu, uk]"},
		file{doc: "billing/tax", version: 1, from: "2026-01-01T00:00:00Z", approved: "2025-12-01T00:00:00Z", regions: "[us, eu]"},
		file{doc: "billing/enterprise", version: 1, status: "draft", plans: "[enterprise]", regions: "[apac]"},
	)
	plans, regions, err := s.NamedPlansAndRegions(context.Background())
	require.NoError(t, err)
	require.Equal(t, []string{"business", "pro"}, plans)
	require.Equal(t, []string{"eu", "uk", "us"}, regions)
}
