package store_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/store"
)

// TestLexicalArm pins what the lexical arm is for, on real Postgres: it finds a chunk by a
// rare word even when sixty chunks are more similar to the question's embedding; it meets
// inflections through the English stemmer; a word of the document title outweighs the same
// word in the text; a rare word outweighs a common one; words joined by punctuation
// ("Credit/Debit", "cards.Kiosks") are each found; a multi-word name found as written
// beats its words scattered; and it never returns a chunk the account may not be shown.
func TestLexicalArm(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	from := "2025-01-01T00:00:00Z"
	files := []file{
		{doc: "codes/promo", version: 1, from: from, title: "Promotions", body: "## Codes\n\nThe code ZX81 takes ten euros off.\n"},
		{doc: "codes/promo-draft", version: 1, status: "draft", title: "Draft promotions", body: "## Codes\n\nThe code ZX81 takes twenty euros off.\n"},
		{doc: "codes/promo-us", version: 1, from: from, regions: "[us]", title: "US promotions", body: "## Codes\n\nThe code ZX81 takes ten dollars off.\n"},
		{doc: "billing/duplicates", version: 1, from: from, title: "Duplicate payments", body: "## Double charges\n\nDuplicate charges are paid back within five business days.\n"},
		{doc: "billing/invoices", version: 1, from: from, title: "Invoices", body: "## Download\n\nOpen the billing page to download a copy.\n"},
		{doc: "billing/exports", version: 1, from: from, title: "Data exports", body: "## Formats\n\nAn export can include every invoice as a PDF.\n"},
		{doc: "billing/proration", version: 1, from: from, title: "Plan changes", body: "## Proration\n\nProration credits the unused days of a refund period.\n"},
		{doc: "cards/gold", version: 1, from: from, title: "Gold Rewards Card", body: "## Annual fee\n\nThe annual fee is waived in the first year.\n"},
		{doc: "cards/silver", version: 1, from: from, title: "Silver card", body: "## Fees\n\nGold status earns rewards; the annual fee of this card is twelve euros.\n"},
		{doc: "cards/surcharge", version: 1, from: from, title: "Card payments", body: "## At the pump\n\nA surcharge/convenience fee applies to Credit/Debit cards.Kiosks waive it.\n"},
	}
	// Sixty sections that share the question's other words: the embedding ranks them
	// above the one that holds its code.
	for i := range 60 {
		files = append(files, file{doc: fmt.Sprintf("refunds/r%02d", i), version: 1, from: from, title: "Refunds",
			body: fmt.Sprintf("## Refund window %d\n\nA refund of an annual plan within the refund window of %d days.\n", i, i+10)})
	}
	mustImport(t, s, files...)
	search := func(t *testing.T, text string, k int) []store.Hit {
		t.Helper()
		hits, err := s.Eligible(ctx, query(t, text, ts(t, "2026-06-01T00:00:00Z"), k))
		require.NoError(t, err)
		return hits
	}
	lexicalFirst := func(t *testing.T, hits []store.Hit) string {
		t.Helper()
		for _, h := range hits {
			if h.TextRank == 1 {
				return h.DocID
			}
		}
		t.Fatalf("no hit is the lexical arm's first")
		return ""
	}

	t.Run("a rare code is found by the lexical arm alone, in eligible documents only", func(t *testing.T) {
		text := "refund window annual plan refund window code ZX81"
		arms, err := s.Arms(ctx, query(t, text, ts(t, "2026-06-01T00:00:00Z"), 10))
		require.NoError(t, err)
		var docs []string
		for _, h := range arms {
			docs = append(docs, h.DocID)
			if h.DocID == "codes/promo" {
				assert.Zero(t, h.VectorRank, "the embedding ranks sixty refund sections above it")
				assert.Equal(t, 1, h.TextRank)
			}
		}
		assert.Contains(t, docs, "codes/promo")
		assert.NotContains(t, docs, "codes/promo-draft", "a draft is never eligible")
		assert.NotContains(t, docs, "codes/promo-us", "a US document is not eligible in the EU")
	})
	t.Run("the English stemmer meets inflections", func(t *testing.T) {
		assert.Equal(t, "billing/duplicates", lexicalFirst(t, search(t, "I was charged twice", 5)))
	})
	t.Run("a word of the title outweighs the same word in the text", func(t *testing.T) {
		assert.Equal(t, "billing/invoices", lexicalFirst(t, search(t, "invoice", 5)))
	})
	t.Run("a rare word outweighs a common one", func(t *testing.T) {
		assert.Equal(t, "billing/proration", lexicalFirst(t, search(t, "refund proration", 5)))
	})
	t.Run("words joined by a slash or a missing space are each indexed", func(t *testing.T) {
		for _, q := range []string{"debit", "convenience", "kiosks"} {
			assert.Equal(t, "cards/surcharge", lexicalFirst(t, search(t, q, 5)), q)
		}
	})
	t.Run("a name found as written beats its words scattered", func(t *testing.T) {
		hits := search(t, "what is the annual fee of the gold rewards card", 5)
		assert.Equal(t, "cards/gold", lexicalFirst(t, hits))
		assert.Equal(t, "cards/gold", hits[0].DocID, "fused first too")
	})
}

// TestImportCountsTerms: the term statistics the lexical arm weighs by are the stored
// chunks' own, kept by Import in its transaction.
func TestImportCountsTerms(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := twoDocuments(t)
	mustImport(t, s, file{doc: "a", version: 2, from: "2026-01-01T00:00:00Z"}) // unchanged: counted once
	var chunks, counted, tokens, summed int
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT count(*), coalesce(sum(lex_len), 0) FROM chunks`).Scan(&chunks, &tokens))
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT chunks, tokens FROM lexicon`).Scan(&counted, &summed))
	assert.Equal(t, 6, chunks)
	assert.Equal(t, chunks, counted)
	assert.Equal(t, tokens, summed)
	var wrong int
	require.NoError(t, s.Pool().QueryRow(ctx, `
		SELECT count(*) FROM (SELECT u.lexeme, count(*) AS n FROM chunks c, unnest(c.lex) u GROUP BY u.lexeme) x
		FULL JOIN lexemes l USING (lexeme) WHERE x.n IS DISTINCT FROM l.chunks`).Scan(&wrong))
	assert.Zero(t, wrong, "lexemes whose count differs from the chunks'")
	var refund int
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT chunks FROM lexemes WHERE lexeme = 'refund'`).Scan(&refund))
	assert.Equal(t, 3, refund, "'refunded' stems to refund in one section of each of three versions")
}

func TestQueryPhrases(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []string{"gold rewards", "rewards card", "card free"}, store.QueryPhrases("Is the Gold Rewards Card free?"))
	assert.Equal(t, []string{"terms of service"}, store.QueryPhrases("the terms of service"))
	assert.Empty(t, store.QueryPhrases("can I get it"))
	assert.Equal(t, "refund annual plan", store.QueryWords("Hi, can I get a refund on my annual plan? refund"))
}

func TestDiversifyHoldsBackAFourthChunkOfOneDocument(t *testing.T) {
	t.Parallel()
	var hits []store.Hit
	for i, doc := range []string{"a", "a", "a", "a", "a", "b", "c"} {
		h := store.Hit{Fused: float64(10 - i)}
		h.ChunkID, h.DocID = fmt.Sprintf("%s#%d", doc, i), doc
		hits = append(hits, h)
	}
	var got []string
	for _, h := range store.Diversify(hits, 6) {
		got = append(got, h.ChunkID)
	}
	assert.Equal(t, []string{"a#0", "a#1", "a#2", "b#5", "c#6", "a#3"}, got)
}

// TestFuseReadsTheLexicalShare: each hit's evidence carries its lexical score as a share
// of the query's ceiling, and 0 when the lexical arm did not score it or the query has no
// known term.
func TestFuseReadsTheLexicalShare(t *testing.T) {
	t.Parallel()
	hits := []store.Hit{{TextScore: 3, TextCeiling: 12, TextRank: 1}, {TextCeiling: 12}, {TextScore: 0}}
	for i := range hits {
		hits[i].ChunkID, hits[i].DocID = fmt.Sprintf("d%d#a", i), fmt.Sprintf("d%d", i)
	}
	shares := map[string]float64{}
	for _, h := range store.Fuse(hits, store.Query{}, 3) {
		shares[h.ChunkID] = h.Lexical
	}
	assert.Equal(t, map[string]float64{"d0#a": 0.25, "d1#a": 0, "d2#a": 0}, shares)
}

// TestDocumentArm: the document arm ranks versions whole, so a document whose sections
// hold the question's terms between them ranks above one that repeats one term in one
// section, which the chunk-level lexical arm puts first; every chunk of the ranked
// document carries its document's rank.
func TestDocumentArm(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	from := "2025-01-01T00:00:00Z"
	files := []file{
		{doc: "gifts/split", version: 1, from: from, title: "Gifts",
			body: "## Sending\n\nA voucher is sent by email to the person you name.\n\n## Validity\n\nThe expiry date is one year after the purchase.\n"},
		{doc: "gifts/once", version: 1, from: from, title: "Presents",
			body: "## Sending\n\nThe voucher, a voucher code and a voucher card.\n"},
	}
	for i := range 20 {
		files = append(files, file{doc: fmt.Sprintf("shipping/s%02d", i), version: 1, from: from, title: "Shipping",
			body: fmt.Sprintf("## Parcels\n\nA parcel leaves the warehouse within %d days.\n", i+1)})
	}
	mustImport(t, s, files...)
	text := "voucher expiry"
	arms, err := s.Arms(ctx, query(t, text, ts(t, "2026-06-01T00:00:00Z"), 5))
	require.NoError(t, err)
	docRank := map[string]int{}
	for _, h := range arms {
		if h.TextRank == 1 {
			assert.Equal(t, "gifts/once", h.DocID, "one section saying voucher three times is the best chunk")
		}
		if h.DocID == "gifts/split" {
			assert.Equal(t, 1, h.DocRank, "%s carries its document's rank", h.ChunkID)
		}
		if h.DocRank > 0 {
			docRank[h.DocID] = h.DocRank
		}
	}
	assert.Equal(t, map[string]int{"gifts/split": 1, "gifts/once": 2}, docRank, "the document with both terms is the better document")
}

// TestArmsScoreAsDocumented holds the lexical and document arms to their formulas, computed
// here in Go from the stored lexemes and term statistics: each chunk's BM25 with field
// weights plus its phrase bonus, its rank among the pooled chunks, the ceiling of that
// score for the query (every known term saturated, every phrase held), and each pooled
// version's BM25 summed over its pooled chunks against its whole length, with its rank. The
// statement is written for speed; this is what it must still compute.
func TestArmsScoreAsDocumented(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := testdb.New(t)
	from := "2025-01-01T00:00:00Z"
	mustImport(t, s,
		file{doc: "refunds/annual", version: 1, from: from, title: "Annual plan refunds",
			body: "## Window\n\nAn annual plan is refunded within 14 days of the invoice.\n\n## Partial refunds\n\nAfter the window a refund is prorated by month.\n\n## Monthly plans\n\nMonthly plans are not refunded.\n"},
		file{doc: "refunds/requests", version: 1, from: from, title: "Asking for a refund",
			body: "## How to ask\n\nReply to the invoice email to ask for a refund.\n\n## Timing\n\nRefunds reach the card in five to ten days.\n"},
		file{doc: "billing/invoices", version: 1, from: from, title: "Invoices",
			body: "## Download\n\nEvery invoice can be downloaded from the billing page.\n\n## Corrections\n\nA corrected invoice replaces the first one within two days.\n"},
		file{doc: "cards/gold", version: 1, from: from, title: "Gold Rewards Card",
			body: "## Annual fee\n\nThe annual fee of the card is waived in the first year.\n\n## Points\n\nPoints are earned on every purchase.\n"},
		file{doc: "cards/silver", version: 1, from: from, title: "Silver card",
			body: "## Fees\n\nGold status earns rewards; the annual fee of this card is twelve euros.\n"},
		file{doc: "plans/changes", version: 1, from: from, title: "Plan changes",
			body: "## Upgrades\n\nAn upgrade to an annual plan is charged at once.\n\n## Downgrades\n\nA downgrade takes effect at the end of the billing period.\n"},
	)
	text := "Can I get a refund of my annual plan within 14 days? The gold rewards card invoice"
	hits, err := s.Arms(ctx, query(t, text, ts(t, "2026-06-01T00:00:00Z"), 2))
	require.NoError(t, err)
	keep := store.Candidates(2)

	var n, tokens, versions float64
	require.NoError(t, s.DB().QueryRow(ctx, `SELECT chunks, tokens, versions FROM lexicon`).Scan(&n, &tokens, &versions))
	idf := map[string]float64{}
	rows, err := s.DB().Query(ctx, `SELECT l.lexeme, l.chunks FROM lexemes l WHERE l.lexeme IN (
		SELECT lexeme FROM unnest(to_tsvector('english', $1))
		UNION SELECT w FROM unnest(string_to_array($1, ' ')) w WHERE length(to_tsvector('english', w)) = 0)`, store.QueryWords(text))
	require.NoError(t, err)
	for rows.Next() {
		var lexeme string
		var df float64
		require.NoError(t, rows.Scan(&lexeme, &df))
		idf[lexeme] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	require.NoError(t, rows.Err())
	require.Greater(t, len(idf), 3)

	// Each chunk's counts of each query term: positions, and those in the title (A) and heading (B).
	type counts struct{ n, a, b float64 }
	type chunk struct {
		version int64
		length  float64
		terms   map[string]counts
		phrase  float64
	}
	chunks := map[string]*chunk{}
	versionLength := map[int64]float64{}
	rows, err = s.DB().Query(ctx, `SELECT c.id, c.version_id, c.lex_len, u.lexeme, cardinality(u.weights),
		cardinality(array_positions(u.weights, 'A')), cardinality(array_positions(u.weights, 'B')) FROM chunks c, unnest(c.lex) u`)
	require.NoError(t, err)
	for rows.Next() {
		var id, lexeme string
		var version int64
		var length float64
		var c counts
		require.NoError(t, rows.Scan(&id, &version, &length, &lexeme, &c.n, &c.a, &c.b))
		if chunks[id] == nil {
			chunks[id] = &chunk{version: version, length: length, terms: map[string]counts{}}
			versionLength[version] += length
		}
		if _, ok := idf[lexeme]; ok {
			chunks[id].terms[lexeme] = c
		}
	}
	require.NoError(t, rows.Err())
	// The ceiling: every known term saturated, every phrase of known terms held.
	ceiling := 0.0
	for _, v := range idf {
		ceiling += (store.BM25K1 + 1) * v
	}
	for _, p := range store.QueryPhrases(text) {
		var lexemes []string
		require.NoError(t, s.DB().QueryRow(ctx, `SELECT array_agg(lexeme) FROM unnest(to_tsvector('english', $1))`, p).Scan(&lexemes))
		sum, known := 0.0, true
		for _, l := range lexemes {
			v, ok := idf[l]
			known = known && ok
			sum += v
		}
		if !known {
			continue
		}
		rows, err := s.DB().Query(ctx, `SELECT id FROM chunks WHERE lex @@ phraseto_tsquery('english', $1)`, p)
		require.NoError(t, err)
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		for _, id := range ids {
			chunks[id].phrase += store.PhraseWeight * sum / float64(len(lexemes))
		}
		ceiling += store.PhraseWeight * sum / float64(len(lexemes))
	}
	bm25 := func(tf, length, mean float64) float64 {
		return tf * (store.BM25K1 + 1) / (tf + store.BM25K1*(1-store.BM25B+store.BM25B*length/mean))
	}

	// The pool: every chunk with a query term (every term is selective in a store this
	// small), and the vector arm's candidates.
	vector := map[string]bool{}
	for _, h := range hits {
		if h.VectorRank > 0 {
			vector[h.ChunkID] = true
		}
	}
	score := map[string]float64{}
	for id, c := range chunks {
		if len(c.terms) == 0 && !vector[id] {
			continue
		}
		for l, tc := range c.terms {
			score[id] += idf[l] * bm25(tc.n+(store.TitleWeight-1)*tc.a+(store.HeadingWeight-1)*tc.b, c.length, tokens/n)
		}
		score[id] += c.phrase
	}
	textRank := topRanks(score, keep)

	// The document arm: the versions of the chunks either chunk arm kept, each scored over
	// its pooled chunks, its title counted once, against its whole length.
	pooled := map[int64]bool{}
	for id := range score {
		if textRank[id] > 0 || vector[id] {
			pooled[chunks[id].version] = true
		}
	}
	docScore := map[int64]float64{}
	for v := range pooled {
		tf, title := map[string]float64{}, map[string]float64{}
		for id := range score {
			if chunks[id].version != v {
				continue
			}
			for l, tc := range chunks[id].terms {
				tf[l] += tc.n + (store.HeadingWeight-1)*tc.b - tc.a
				title[l] = max(title[l], tc.a)
			}
		}
		for l := range tf {
			docScore[v] += idf[l] * bm25(tf[l]+store.TitleWeight*title[l], versionLength[v], tokens/versions)
		}
	}
	docRank := topRanks(docScore, keep)

	require.NotEmpty(t, textRank)
	require.Greater(t, len(docRank), 1)
	returned := map[string]bool{}
	for _, h := range hits {
		returned[h.ChunkID] = true
		assert.Equal(t, textRank[h.ChunkID], h.TextRank, "lexical rank of %s", h.ChunkID)
		assert.InDelta(t, ceiling, h.TextCeiling, 1e-9, "ceiling of the lexical score on %s", h.ChunkID)
		assert.LessOrEqual(t, h.TextScore, h.TextCeiling, "%s scores at most the ceiling", h.ChunkID)
		if textRank[h.ChunkID] > 0 {
			assert.InDelta(t, score[h.ChunkID], h.TextScore, 1e-9, "lexical score of %s", h.ChunkID)
		}
		v := chunks[h.ChunkID].version
		assert.Equal(t, docRank[v], h.DocRank, "document rank of %s", h.ChunkID)
		assert.InDelta(t, docScore[v]*float64(min(docRank[v], 1)), h.DocScore, 1e-9, "document score of %s", h.ChunkID)
	}
	for id := range textRank {
		assert.True(t, returned[id], "%s, of the lexical arm, is returned", id)
	}
}

// topRanks is how each arm cuts its list: of the keys that score above zero, best first
// and ties by key, the first keep, each with its rank counted from 1.
func topRanks[K cmp.Ordered](score map[K]float64, keep int) map[K]int {
	var ranked []K
	for k, s := range score {
		if s > 0 {
			ranked = append(ranked, k)
		}
	}
	slices.SortFunc(ranked, func(a, b K) int { return cmp.Or(cmp.Compare(score[b], score[a]), cmp.Compare(a, b)) })
	rank := map[K]int{}
	for i, k := range ranked[:min(keep, len(ranked))] {
		rank[k] = i + 1
	}
	return rank
}
