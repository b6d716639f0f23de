package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/supportdraft/supportdraft/text"
)

// Retrieval has three arms over the same eligible set, fused by their ranks (Fuse):
//
//   - the vector arm: the Candidates(k) chunks most similar to the query's embedding, with
//     whichever embedder the store was imported with (the local hashing embedder, or a
//     real model such as OpenAI's text-embedding-3-small);
//   - the lexical arm: BM25 over each chunk's weighted lexemes (migration 0070), where a
//     lexeme in the document's title counts TitleWeight times, in the section heading
//     HeadingWeight times and in the text once, with the inverse document frequency of the
//     store's term statistics, plus a bonus for each phrase of the query found verbatim;
//   - the document arm: the same BM25 over the whole document version of each chunk the
//     other arms kept, so a document whose sections share the query's terms between them
//     ranks as a whole; its rank counts DocWeight for every chunk of that document.
//
// Reciprocal-rank fusion needs no common scale between the arms: a cosine and a BM25
// score are not comparable, their ranks are. RRFK is low so that a first place in one arm
// outweighs middling places in all three: middling agreement is what two bags of words
// (BM25 and the hashing embedder) give any chunk that shares a few common words.
const (
	BM25K1         = 1.2
	BM25B          = 0.75
	TitleWeight    = 3
	HeadingWeight  = 2
	PhraseWeight   = 1.0
	DocWeight      = 0.5
	RRFK           = 10
	MaxPhrases     = 24
	MaxQueryTerms  = 64
	SelectiveShare = 0.05
	SelectiveFloor = 1000
)

// LocaleBonus is added to the fused score of a chunk in the account's locale: half the
// vote of a first place in one arm, so the account's language is preferred, never required.
const LocaleBonus = 0.5 / (RRFK + 1)

// MaxPerDoc is how many chunks of one document the top k holds before the chunks of other
// documents: a draft needs the sections that answer, and a QA reader the documents that
// compete, not ten sections of one long page. Chunks held back fill the list when fewer
// other documents are eligible.
const MaxPerDoc = 3

// lexicalArm is the lexical arm and the fused statement's result, after the vector arm's
// `candidates` CTE (chunk_id, similarity) of either statement.
//
// terms are the query's lexemes known to the store, with their inverse document
// frequency: its words as the English stemmer reads them, and as written those the English
// configuration drops as stopwords ("will", "die" and "was" are German words too); a word
// is never counted twice. A term selects chunks of its
// own when it is selective: held by at most SelectiveShare of the chunks (or
// SelectiveFloor, in a small store). A term held by a large share of a corpus says little
// of any one chunk, and the chunks it alone would select are too many to score at every
// query; such terms still count in the score of every chunk the lexical arm ranks. The pool
// the arm ranks is therefore every eligible chunk with a selective term, plus the vector
// arm's candidates. The chunks with a selective term are found through the GIN index of
// chunk_terms first, among the agent's own (migration 0121: chunks' row-level security
// would forbid that index), and only then checked for eligibility (matched): the other
// order walks the account's whole partition; with no selective term, nothing is read.
//
// The score of a pooled chunk is BM25 with field weights: a term's frequency counts each
// position by its field's weight (its label: A title, B heading, D text), and saturates with BM25K1 and the chunk's length
// against the store's mean (BM25B). Each phrase of the query (two content words, or two
// around a stopword, as written) found in the chunk adds PhraseWeight times its terms'
// mean IDF: "Gold Rewards Card" names one product where its three words alone name
// three. The statement also returns the ceiling of that score, the most any chunk could
// score for the query's known terms (every term saturated, every phrase held), so the
// drafter can read a score as a share of what the query asked (Fuse: Evidence.Lexical)
// on any corpus.
//
// The document arm scores whole the versions of the chunks the other two arms kept: a
// term's frequency is summed over the version's pooled chunks (every chunk with a
// selective term is pooled, so a selective term is counted in full; reading every chunk
// of every version would cost more than both other arms), the title counted once; the
// length is the whole version's (each chunk of a version is eligible when one is), against
// the mean of the agent's versions. Its inverse document frequency is the chunk-level one
// of the store's statistics. Each version it ranks brings its best pooled chunk (by the
// chunk score) into the result, so a document the chunk arms placed low still has a chunk
// to cite.
//
// Every query pays for these arms besides its graph walk, so each input is read once: the
// query's terms by the term statistics' key (agent, lexeme), not by a scan of them; each
// pooled chunk's lexemes once (pool_chunks), unnested once (tf), and both arms sum from
// that; a pooled version's whole length once, from version_lengths (migration 0171), not
// from its every chunk; and the similarity of a chunk the vector arm kept from its
// candidates rather than from its vector again.
//
// %[1]s is the FROM and WHERE of the chunks the account may be shown (c aliases chunks),
// %[2]s and %[3]s the parameters of the query's words and phrases, %[4]d how many chunks
// each arm keeps, %[5]d the dimensions of the vectors.
const lexicalArm = `,
vector_arm AS (
  SELECT chunk_id, similarity, row_number() OVER (ORDER BY similarity DESC, chunk_id COLLATE "C") AS rank FROM candidates),
stats AS MATERIALIZED (
  SELECT chunks::float8 AS n, tokens::float8 / greatest(chunks, 1) AS avg_len, tokens::float8 / greatest(versions, 1) AS doc_avg_len
  FROM lexicon),
terms AS MATERIALIZED (
  SELECT l.lexeme, ln(1 + (s.n - l.chunks + 0.5) / (l.chunks + 0.5)) AS idf,
         l.chunks <= greatest(s.n * ` + "%[6]g" + `, ` + "%[7]d" + `) AS selective
  FROM lexemes l CROSS JOIN stats s
  WHERE l.agent_id = current_setting('` + agentSetting + `')
    AND l.lexeme = ANY (ARRAY(
      SELECT lexeme FROM unnest(to_tsvector('english', %[2]s))
      UNION
      SELECT w FROM unnest(string_to_array(%[2]s, ' ')) w WHERE length(to_tsvector('english', w)) = 0))),
phrases AS MATERIALIZED (
  SELECT phraseto_tsquery('english', p) AS q, avg(t.idf) AS idf
  FROM unnest(%[3]s::text[]) p
  JOIN terms t ON t.lexeme = ANY (tsvector_to_array(to_tsvector('english', p)))
  GROUP BY p
  HAVING count(*) = (SELECT count(*) FROM unnest(to_tsvector('english', p)))),
matched AS MATERIALIZED (
  SELECT t.chunk_id AS id FROM chunk_terms t
  WHERE (SELECT bool_or(selective) FROM terms)
    AND t.terms && (SELECT array_agg(lexeme) FROM terms WHERE selective)
    AND t.agent_id = current_setting('` + agentSetting + `')),
pool AS (
  SELECT c.id %[1]s AND c.id IN (SELECT id FROM matched)
  UNION
  SELECT chunk_id FROM candidates),
pool_chunks AS MATERIALIZED (
  SELECT c.id, c.version_id, c.lex_len, c.lex,
         (SELECT coalesce(sum(idf), 0) * ` + "%[12]g" + ` FROM phrases WHERE c.lex @@ q) AS phrase
  FROM pool p JOIN chunks c ON c.id = p.id),
tf AS MATERIALIZED (
  SELECT c.id, c.version_id, c.lex_len, u.lexeme, cardinality(u.weights) AS n,
         cardinality(array_positions(u.weights, 'A')) AS a, cardinality(array_positions(u.weights, 'B')) AS b
  FROM pool_chunks c CROSS JOIN LATERAL unnest(c.lex) u
  WHERE u.lexeme IN (SELECT lexeme FROM terms)),
scored AS MATERIALIZED (
  SELECT p.id, p.version_id, coalesce(w.score, 0) + p.phrase AS score
  FROM pool_chunks p LEFT JOIN (
    SELECT x.id, sum(t.idf * f.tf * (` + "%[8]g" + ` + 1) / (f.tf + ` + "%[8]g" + ` * (1 - ` + "%[9]g" + ` + ` + "%[9]g" + ` * x.lex_len / s.avg_len))) AS score
    FROM tf x JOIN terms t USING (lexeme) CROSS JOIN stats s
    CROSS JOIN LATERAL (SELECT (x.n + ` + "%[10]d" + ` * x.a + ` + "%[11]d" + ` * x.b)::float8 AS tf) f
    GROUP BY x.id) w USING (id)),
lexical_arm AS (
  SELECT id, score, row_number() OVER (ORDER BY score DESC, id COLLATE "C") AS rank
  FROM scored WHERE score > 0
  ORDER BY score DESC, id COLLATE "C"
  LIMIT %[4]d),
pooled AS MATERIALIZED (
  SELECT DISTINCT ON (s.version_id) s.version_id, s.id AS best,
         (SELECT n.tokens FROM version_lengths n WHERE n.version_id = s.version_id)::float8 AS len
  FROM scored s
  WHERE s.id IN (SELECT id FROM lexical_arm UNION ALL SELECT chunk_id FROM vector_arm)
  ORDER BY s.version_id, s.score DESC, s.id COLLATE "C"),
doc_terms AS (
  SELECT x.version_id, x.lexeme, sum(x.n + ` + "%[11]d" + ` * x.b - x.a) AS tf, max(x.a) AS title_tf
  FROM tf x
  WHERE x.version_id IN (SELECT version_id FROM pooled)
  GROUP BY 1, 2),
doc_scored AS (
  SELECT x.version_id, sum(t.idf * f.tf * (` + "%[8]g" + ` + 1) / (f.tf + ` + "%[8]g" + ` * (1 - ` + "%[9]g" + ` + ` + "%[9]g" + ` * n.len / s.doc_avg_len))) AS score
  FROM doc_terms x JOIN terms t USING (lexeme) JOIN pooled n USING (version_id) CROSS JOIN stats s
  CROSS JOIN LATERAL (SELECT (x.tf + (` + "%[10]d" + ` + 1) * x.title_tf)::float8 AS tf) f
  GROUP BY 1),
doc_arm AS (
  SELECT d.version_id, d.score, p.best, row_number() OVER (ORDER BY d.score DESC, d.version_id) AS rank
  FROM doc_scored d JOIN pooled p USING (version_id)
  WHERE d.score > 0
  ORDER BY d.score DESC, d.version_id
  LIMIT %[4]d),
ceiling AS (
  SELECT (` + "%[8]g" + ` + 1) * coalesce((SELECT sum(idf) FROM terms), 0)
         + ` + "%[12]g" + ` * coalesce((SELECT sum(idf) FROM phrases), 0) AS score)
SELECT c.id, v.doc_id, v.version, v.title, v.source, v.area, c.text, 0::float8, c.fixed, c.audience, c.subheadings, v.locale, c.heading,
       coalesce(a.similarity, -((c.embedding::vector(%[5]d)) <#> $1::vector(%[5]d))), coalesce(a.rank, 0)::int, coalesce(l.score, 0), coalesce(l.rank, 0)::int,
       (SELECT score FROM ceiling), coalesce(d.score, 0), coalesce(d.rank, 0)::int, 0::float8, 0
FROM (SELECT chunk_id AS id FROM vector_arm UNION SELECT id FROM lexical_arm UNION SELECT best FROM doc_arm) u
JOIN chunks c ON c.id = u.id
JOIN versions v ON v.id = c.version_id
LEFT JOIN vector_arm a ON a.chunk_id = u.id
LEFT JOIN lexical_arm l ON l.id = u.id
LEFT JOIN doc_arm d ON d.version_id = c.version_id`

// lexicalSQL is lexicalArm for a statement whose eligible chunks are `from`, whose query
// words and phrases are the parameters words and phrases, for q.
func lexicalSQL(from, words, phrases string, q Query) string {
	return fmt.Sprintf(lexicalArm, from, words, phrases, Candidates(q.K), len(q.Vector),
		SelectiveShare, SelectiveFloor, BM25K1, BM25B, TitleWeight-1, HeadingWeight-1, PhraseWeight)
}

// QueryWords are the words of a free-text query the lexical arm looks up, space-separated:
// stopwords (function words, support small talk) and one-letter words left out, each word
// once, at most MaxQueryTerms of them. Postgres stems them ('english') and keeps them as
// they are ('simple').
func QueryWords(query string) string {
	seen := map[string]bool{}
	var terms []string
	for _, w := range text.Words(query) {
		if len([]rune(w)) < 2 || text.IsStopword(w) || seen[w] || len(terms) >= MaxQueryTerms {
			continue
		}
		seen[w] = true
		terms = append(terms, w)
	}
	return strings.Join(terms, " ")
}

// QueryPhrases are the phrases of a query the lexical arm rewards when a chunk holds them
// as written: two content words in a row, or two around one stopword ("terms of
// service"), in the query's order, each once, at most MaxPhrases. A name of several words
// ("Gold Rewards Card") yields each of its pairs.
func QueryPhrases(query string) []string {
	words := text.Words(query)
	content := func(i int) bool { return i < len(words) && len([]rune(words[i])) > 1 && !text.IsStopword(words[i]) }
	seen := map[string]bool{}
	out := []string{}
	add := func(p string) {
		if !seen[p] && len(out) < MaxPhrases {
			seen[p] = true
			out = append(out, p)
		}
	}
	for i := range words {
		if !content(i) {
			continue
		}
		switch {
		case content(i + 1):
			add(words[i] + " " + words[i+1])
		case i+2 < len(words) && content(i+2):
			add(words[i] + " " + words[i+1] + " " + words[i+2])
		}
	}
	return out
}

// Fuse orders the hits of the arms of q by reciprocal-rank fusion: the lexical arm's rank
// r adds 1/(RRFK + r), the vector arm's q.VectorWeight/(RRFK + r), the document arm's rank
// of the chunk's document DocWeight/(RRFK + r), and a chunk in the
// account's locale adds LocaleBonus. It keeps k of them, at most MaxPerDoc per document
// first (Diversify), and numbers their fused ranks. Each hit's evidence score is its
// similarity (see Hit), and its lexical share its BM25 score over the query's ceiling.
func Fuse(hits []Hit, q Query, k int) []Hit {
	for i := range hits {
		h := &hits[i]
		h.Score = h.Similarity
		h.Lexical = 0
		if h.TextCeiling > 0 {
			h.Lexical = min(h.TextScore/h.TextCeiling, 1)
		}
		h.Fused = 0
		if h.VectorRank > 0 {
			h.Fused += q.VectorWeight / float64(RRFK+h.VectorRank)
		}
		if h.TextRank > 0 {
			h.Fused += 1.0 / float64(RRFK+h.TextRank)
		}
		if h.DocRank > 0 {
			h.Fused += DocWeight / float64(RRFK+h.DocRank)
		}
		if h.Locale == q.Account.Locale {
			h.Fused += LocaleBonus
		}
	}
	return Diversify(hits, k)
}

// Diversify sorts hits by fused score (ties by chunk ID) and returns the best k, taking at most
// MaxPerDoc chunks of a document before the chunks of documents not yet listed; the
// chunks held back fill what is left. Rank numbers the result from 1.
func Diversify(hits []Hit, k int) []Hit {
	slices.SortFunc(hits, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Fused, a.Fused), strings.Compare(a.ChunkID, b.ChunkID))
	})
	out := make([]Hit, 0, min(k, len(hits)))
	var held []Hit
	perDoc := map[string]int{}
	for _, h := range hits {
		if perDoc[h.DocID] >= MaxPerDoc {
			held = append(held, h)
			continue
		}
		perDoc[h.DocID]++
		out = append(out, h)
	}
	out = append(out, held...)
	out = out[:min(k, len(out))]
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// countTerms adds the chunks of versions (by doc_id@version) to the term statistics the
// lexical arm reads. Import calls it in the transaction that adds them, after all its
// documents are written, so concurrent imports take the statistics' row locks last. The
// lexemes are updated in order, so two imports never wait on each other in a cycle.
func countTerms(ctx context.Context, tx pgx.Tx, refs []string) error {
	if len(refs) == 0 {
		return nil
	}
	const added = `SELECT c.agent_id, c.version_id, c.lex, c.lex_len FROM chunks c JOIN versions v ON v.id = c.version_id WHERE v.doc_id || '@' || v.version = ANY ($1)`
	if _, err := tx.Exec(ctx, `
		INSERT INTO lexemes (agent_id, lexeme, chunks)
		SELECT a.agent_id, u.lexeme, count(*) FROM (`+added+`) a, unnest(a.lex) u GROUP BY 1, 2 ORDER BY 1, 2
		ON CONFLICT (agent_id, lexeme) DO UPDATE SET chunks = lexemes.chunks + excluded.chunks`, refs); err != nil {
		return fmt.Errorf("count the lexemes of the new chunks: %w", err)
	}
	if _, err := tx.Exec(ctx, `
		INSERT INTO lexicon (agent_id, chunks, tokens, versions)
		SELECT a.agent_id, count(*), coalesce(sum(a.lex_len), 0), count(DISTINCT a.version_id) FROM (`+added+`) a GROUP BY 1 ORDER BY 1
		ON CONFLICT (agent_id) DO UPDATE SET chunks = lexicon.chunks + excluded.chunks, tokens = lexicon.tokens + excluded.tokens,
			versions = lexicon.versions + excluded.versions`, refs); err != nil {
		return fmt.Errorf("count the new chunks: %w", err)
	}
	return nil
}

// RecountTerms rebuilds the lexical arm's term statistics from every stored chunk of ctx's
// agents, for bulk loaders that write chunks with COPY rather than through Import. Each
// agent has statistics of its own: one corpus never changes another's ranking.
func (s *Store) RecountTerms(ctx context.Context) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `LOCK TABLE lexemes, lexicon IN EXCLUSIVE MODE`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM lexemes`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO lexemes (agent_id, lexeme, chunks)
			SELECT c.agent_id, u.lexeme, count(*) FROM chunks c, unnest(c.lex) u GROUP BY 1, 2`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM lexicon`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO lexicon (agent_id, chunks, tokens, versions)
			SELECT agent_id, count(*), coalesce(sum(lex_len), 0), count(DISTINCT version_id) FROM chunks GROUP BY 1`)
		return err
	})
}
