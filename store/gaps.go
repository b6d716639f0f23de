package store

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// maxGapExamples is how many struck sentences a gap shows: enough to see what customers
// asked, few enough to read a month of them in one sitting.
const maxGapExamples = 3

// maxGapSubjects is how many of an area's most asked-about subjects a gap lists.
const maxGapSubjects = 5

// Gap is one policy area the corpus could not answer: the rejections logged for it since
// some instant, with the reasons and a few of the struck sentences.
type Gap struct {
	Area     string        `json:"area"` // "" when the draft had no area
	Count    int           `json:"count"`
	Tickets  int           `json:"tickets"`
	Last     time.Time     `json:"last"`
	Reasons  []ReasonCount `json:"reasons"`  // most frequent first
	Examples []string      `json:"examples"` // newest first, distinct
	// Subjects are what the unanswered questions of the area asked about (abstentions and
	// the open questions of partial answers), most asked first: the policy to write next.
	Subjects []SubjectCount `json:"subjects"`
}

// SubjectCount is how many logged misses of an area asked about one subject.
type SubjectCount struct {
	Subject string    `json:"subject"`
	Count   int       `json:"count"`
	Last    time.Time `json:"last"`
}

// ReasonCount is how often one reason pattern struck a sentence in an area.
type ReasonCount struct {
	Pattern string `json:"pattern"`
	Count   int    `json:"count"`
}

// Gaps groups the rejection log since the given instant by policy area, most frequent
// first, and within an area by reason pattern. It is the list of questions the corpus
// cannot answer: read monthly, it points at the policy documents nobody has written yet.
func (s *Store) Gaps(ctx context.Context, since time.Time) ([]Gap, error) {
	rows, err := s.db.Query(ctx, `
		SELECT area, count(*), count(DISTINCT ticket_id), max(at)
		FROM rejections WHERE at >= $1 GROUP BY area`, since)
	if err != nil {
		return nil, fmt.Errorf("read rejection log: %w", err)
	}
	gaps, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Gap, error) {
		var g Gap
		err := row.Scan(&g.Area, &g.Count, &g.Tickets, &g.Last)
		return g, err
	})
	if err != nil {
		return nil, fmt.Errorf("read rejection log: %w", err)
	}
	byArea := make(map[string]*Gap, len(gaps))
	for i := range gaps {
		gaps[i].Reasons, gaps[i].Examples, gaps[i].Subjects = []ReasonCount{}, []string{}, []SubjectCount{}
		byArea[gaps[i].Area] = &gaps[i]
	}

	// Per reason, the newest few sentences; patterns and examples are merged in Go
	// because the pattern is ours, not SQL's.
	rows, err = s.db.Query(ctx, `
		SELECT area, reason, count(*), max(at), (array_agg(sentence ORDER BY at DESC))[1:$2]
		FROM rejections WHERE at >= $1 GROUP BY area, reason
		ORDER BY max(at) DESC, reason`, since, maxGapExamples)
	if err != nil {
		return nil, fmt.Errorf("read rejection log: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var area, reason string
		var n int
		var last time.Time
		var examples []string
		if err := rows.Scan(&area, &reason, &n, &last, &examples); err != nil {
			return nil, fmt.Errorf("read rejection log: %w", err)
		}
		g := byArea[area]
		if g == nil {
			continue // a rejection logged between the two queries
		}
		pattern := ReasonPattern(reason)
		if i := slices.IndexFunc(g.Reasons, func(r ReasonCount) bool { return r.Pattern == pattern }); i >= 0 {
			g.Reasons[i].Count += n
		} else {
			g.Reasons = append(g.Reasons, ReasonCount{Pattern: pattern, Count: n})
		}
		for _, e := range examples {
			if len(g.Examples) < maxGapExamples && !slices.Contains(g.Examples, e) {
				g.Examples = append(g.Examples, e)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read rejection log: %w", err)
	}
	if err := s.gapSubjects(ctx, since, byArea); err != nil {
		return nil, err
	}
	for i := range gaps {
		slices.SortStableFunc(gaps[i].Reasons, func(a, b ReasonCount) int { return b.Count - a.Count })
	}
	slices.SortFunc(gaps, func(a, b Gap) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return b.Last.Compare(a.Last)
	})
	return gaps, nil
}

// gapSubjects adds to each area's gap the subjects its unanswered questions asked about,
// most asked first, the newest first on a tie.
func (s *Store) gapSubjects(ctx context.Context, since time.Time, byArea map[string]*Gap) error {
	rows, err := s.db.Query(ctx, `
		SELECT area, subject, count(*), max(at) FROM rejections
		WHERE at >= $1 AND subject <> '' GROUP BY area, subject
		ORDER BY count(*) DESC, max(at) DESC, subject`, since)
	if err != nil {
		return fmt.Errorf("read rejection log: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var area string
		var sc SubjectCount
		if err := rows.Scan(&area, &sc.Subject, &sc.Count, &sc.Last); err != nil {
			return fmt.Errorf("read rejection log: %w", err)
		}
		if g := byArea[area]; g != nil && len(g.Subjects) < maxGapSubjects {
			g.Subjects = append(g.Subjects, sc)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read rejection log: %w", err)
	}
	return nil
}

// reasonVariables are the parts of a rejection reason that vary between occurrences of the
// same kind of gap without changing what is missing: quoted text, chunk IDs and the
// placeholder spans. Quantities and verbs stay, because "no eligible source states 30 day"
// is exactly the question the corpus cannot answer.
var reasonVariables = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"[^"]*"`), `"…"`},
	{regexp.MustCompile(`[\w./-]+@\d+(#[\w\p{L}.-]+)?`), "…"},
	{regexp.MustCompile(`^unresolved placeholder .*`), "unresolved placeholder …"},
}

// ReasonPattern reduces a rejection reason to the kind of gap it names, so that "quote
// "X" does not occur verbatim in a@1#b" and the same with other quotes count together.
func ReasonPattern(reason string) string {
	for _, v := range reasonVariables {
		reason = v.re.ReplaceAllString(reason, v.with)
	}
	return reason
}
