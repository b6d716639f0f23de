// Package contradictions is policy lint: it finds approved versions of different
// documents that an account can be served at the same instant and that state different
// values for the same term (a refund window of 14 days against one of 30). It is pure:
// the command line reads the corpus.
package contradictions

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/statements"
)

// minSimilarity is how much two sentences must share (Jaccard over content stems and
// their headings) before lint compares their values. Below it, "refunded within 90 days"
// about VAT and "refunded within 14 days" about annual plans are different terms.
const minSimilarity = 0.3

// Finding is a contradiction lint found: two versions that an account can both be served
// at the same instant state different values for the same term.
type Finding struct {
	Term    string     `json:"term"` // the commercial verb and the unit, e.g. "refund (days)"
	A       Side       `json:"a"`
	B       Side       `json:"b"`
	From    time.Time  `json:"from"`         // when both are first eligible together
	To      *time.Time `json:"to,omitempty"` // when that ends; nil: open-ended
	Plans   []string   `json:"plans"`        // the plans both cover
	Regions []string   `json:"regions"`      // the regions both cover
	Locale  string     `json:"locale"`
}

// Side is one of the two versions of a finding.
type Side struct {
	Ref     string   `json:"ref"`
	ChunkID string   `json:"chunk_id"`
	Path    string   `json:"path"`
	Quote   string   `json:"quote"`
	Values  []string `json:"values"`
}

// String renders the finding as the warning policy lint prints.
func (f Finding) String() string {
	until := "with no end"
	if f.To != nil {
		until = "until " + day(*f.To)
	}
	return fmt.Sprintf(`%s and %s disagree on %s: %s vs %s
  %s: %q
  %s: %q
  both eligible from %s %s, for plans %s, regions %s, locale %s
  fix it at the document, not in the prompt: correct or retire one of the two so that one policy states the term`,
		f.A.Path, f.B.Path, f.Term, strings.Join(f.A.Values, ", "), strings.Join(f.B.Values, ", "),
		f.A.ChunkID, f.A.Quote, f.B.ChunkID, f.B.Quote,
		day(f.From), until, strings.Join(f.Plans, ","), strings.Join(f.Regions, ","), f.Locale)
}

// Find returns the contradictions in a corpus: pairs of versions of different documents,
// in the same policy area and locale, eligible at a common instant after since for a
// common plan and region, where a sentence of one and the most similar sentence of the
// other use the same commercial verb with amounts of the same unit and share no value
// (a refund window of 14 days against one of 30). Drafts are left out: they are not policy
// yet. Overlaps that ended before since are history nobody can fix, so they are skipped.
//
// A retrieval system that relies on ranking to pick the right one of two contradicting
// documents will eventually rank the other first; lint makes the contradiction visible so
// that it is fixed where it lives.
func Find(versions []*policy.Version, since time.Time, vocab *guard.Vocabulary) []Finding {
	wins := policy.Windows(versions)
	byVersion := map[*policy.Version][]*statements.Statement{}
	for _, s := range statements.Read(versions, vocab) {
		if len(s.Verbs) > 0 && slices.ContainsFunc(s.Amounts, valueAmount) {
			byVersion[s.Version] = append(byVersion[s.Version], s)
		}
	}
	var out []Finding
	for i, a := range versions {
		for _, b := range versions[i+1:] {
			f, ok := overlap(a, b, wins[a], wins[b], since)
			if !ok {
				continue
			}
			out = append(out, conflicts(f, byVersion[a], byVersion[b])...)
		}
	}
	return out
}

// valueAmount reports whether an amount can carry a term's value. A bare count ("2 steps",
// "day 29") means too many things to be compared across documents.
func valueAmount(a statements.Amount) bool { return a.Unit != "count" }

// overlap returns the finding frame for a and b (window, plans, regions, locale) when an
// account can be served both at one instant after since.
func overlap(a, b *policy.Version, wa, wb policy.Window, since time.Time) (Finding, bool) {
	if a.DocID == b.DocID || wa.From == nil || wb.From == nil || a.Area != b.Area || !strings.EqualFold(a.Locale, b.Locale) {
		return Finding{}, false
	}
	from := *wa.From
	if wb.From.After(from) {
		from = *wb.From
	}
	to := wa.To
	if to == nil || (wb.To != nil && wb.To.Before(*to)) {
		to = wb.To
	}
	if to != nil && (!to.After(from) || !to.After(since)) {
		return Finding{}, false
	}
	plans, regions := policy.IntersectScope(a.Plans, b.Plans), policy.IntersectScope(a.Regions, b.Regions)
	if len(plans) == 0 || len(regions) == 0 {
		return Finding{}, false
	}
	return Finding{From: from, To: to, Plans: plans, Regions: regions, Locale: a.Locale}, true
}

// conflicts compares the statements of two overlapping versions both ways and returns a
// finding per pair of sentences that contradict, each pair once.
func conflicts(frame Finding, as, bs []*statements.Statement) []Finding {
	var out []Finding
	seen := map[[2]string]bool{}
	add := func(x, y *statements.Statement, verb, unit string, flip bool) {
		if flip {
			x, y = y, x
		}
		key := [2]string{x.Chunk.ID + x.Text, y.Chunk.ID + y.Text}
		if seen[key] {
			return
		}
		seen[key] = true
		f := frame
		f.Term = fmt.Sprintf("%s (%s)", verb, unitName(unit))
		f.A, f.B = side(x, unit), side(y, unit)
		out = append(out, f)
	}
	for _, dir := range []struct {
		from, to []*statements.Statement
		flip     bool
	}{{as, bs, false}, {bs, as, true}} {
		for _, x := range dir.from {
			for _, verb := range x.Verbs {
				for _, unit := range units(x) {
					y := mostSimilar(x, dir.to, verb, unit)
					if y != nil && !shareValue(x, y, unit) {
						add(x, y, verb, unit, dir.flip)
					}
				}
			}
		}
	}
	return out
}

// mostSimilar returns the statement of candidates that uses verb with an amount in unit
// and is most similar to x, if it is similar enough to be about the same term.
func mostSimilar(x *statements.Statement, candidates []*statements.Statement, verb, unit string) *statements.Statement {
	var best *statements.Statement
	bestScore := minSimilarity
	xw := withHeading(x)
	for _, y := range candidates {
		if !slices.Contains(y.Verbs, verb) || !slices.ContainsFunc(y.Amounts, func(a statements.Amount) bool { return a.Unit == unit }) {
			continue
		}
		if score := statements.Jaccard(xw, withHeading(y)); score >= bestScore {
			best, bestScore = y, score
		}
	}
	return best
}

// shareValue reports whether x and y state at least one common amount in unit.
func shareValue(x, y *statements.Statement, unit string) bool {
	for _, a := range x.Amounts {
		if a.Unit == unit && slices.ContainsFunc(y.Amounts, a.Same) {
			return true
		}
	}
	return false
}

// units returns the comparable units of s's amounts, each once.
func units(s *statements.Statement) []string {
	var out []string
	for _, a := range s.Amounts {
		if valueAmount(a) && !slices.Contains(out, a.Unit) {
			out = append(out, a.Unit)
		}
	}
	return out
}

func side(s *statements.Statement, unit string) Side {
	var values []string
	for _, a := range s.Amounts {
		if a.Unit == unit && !slices.Contains(values, a.Describe()) {
			values = append(values, a.Describe())
		}
	}
	return Side{Ref: s.Version.Ref(), ChunkID: s.Chunk.ID, Path: s.Version.Path, Quote: s.Text, Values: values}
}

func withHeading(s *statements.Statement) map[string]bool {
	out := make(map[string]bool, len(s.Words)+len(s.Heading))
	for w := range s.Words {
		out[w] = true
	}
	for w := range s.Heading {
		out[w] = true
	}
	return out
}

// unitName names a unit for a finding's term: "days", "business days", "%", "EUR".
func unitName(unit string) string {
	switch {
	case unit == "business_day":
		return "business days"
	case unit == "percent":
		return "%"
	case strings.HasPrefix(unit, "money:"):
		return strings.TrimPrefix(unit, "money:")
	}
	return unit + "s"
}

func day(t time.Time) string { return t.UTC().Format("2006-01-02") }
