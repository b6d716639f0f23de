package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/supportdraft/supportdraft/llm"
)

// Terms reads how many of the agent's chunks hold each of words, from the term statistics
// the lexical arm ranks with (lexemes, lexicon): a word is read as the English stemmer
// reads it, and a word the stemmer drops as a stopword is left out. It counts every chunk
// the agent imported, eligible or not: a word the whole knowledge base lacks is what tells
// the drafter that no policy covers a question, and a version that is not eligible still
// shows the subject is the knowledge base's.
func (s *Store) Terms(ctx context.Context, words []string) (*llm.Terms, error) {
	out := &llm.Terms{Held: map[string]int{}}
	if len(words) == 0 {
		return out, nil
	}
	lower := make([]string, len(words))
	for i, w := range words {
		lower[i] = strings.ToLower(w)
	}
	if err := s.db.QueryRow(ctx, `SELECT coalesce((SELECT chunks FROM lexicon), 0)`).Scan(&out.Chunks); err != nil {
		return nil, fmt.Errorf("term statistics: lexicon: %w", err)
	}
	rows, err := s.db.Query(ctx, `
		SELECT w, coalesce(max(l.chunks), 0)::int
		FROM unnest($1::text[]) w
		CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector('english', w))) AS x(lexeme)
		LEFT JOIN lexemes l ON l.lexeme = x.lexeme
		GROUP BY w`, lower)
	if err != nil {
		return nil, fmt.Errorf("term statistics of %d words: %w", len(words), err)
	}
	defer rows.Close()
	for rows.Next() {
		var w string
		var n int
		if err := rows.Scan(&w, &n); err != nil {
			return nil, fmt.Errorf("term statistics of %d words: %w", len(words), err)
		}
		out.Held[w] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("term statistics of %d words: %w", len(words), err)
	}
	return out, nil
}
