package trace

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
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

// Lint returns the contradictions in a corpus: pairs of versions of different documents,
// in the same policy area and locale, eligible at a common instant after since for a
// common plan and region, where a sentence of one and the most similar sentence of the
// other use the same commercial verb with amounts of the same unit and share no value
// (a refund window of 14 days against one of 30). Drafts are left out: they are not policy
// yet. Overlaps that ended before since are history nobody can fix, so they are skipped.
//
// A retrieval system that relies on ranking to pick the right one of two contradicting
// documents will eventually rank the other first; lint makes the contradiction visible so
// that it is fixed where it lives.
func Lint(versions []*policy.Version, since time.Time, vocab *guard.Vocabulary) []Finding {
	wins := windows(versions)
	byVersion := map[*policy.Version][]*statement{}
	for _, s := range statements(versions, vocab) {
		if len(s.verbs) > 0 && slices.ContainsFunc(s.amounts, valueAmount) {
			byVersion[s.version] = append(byVersion[s.version], s)
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
func valueAmount(a amount) bool { return a.unit != "count" }

// overlap returns the finding frame for a and b (window, plans, regions, locale) when an
// account can be served both at one instant after since.
func overlap(a, b *policy.Version, wa, wb window, since time.Time) (Finding, bool) {
	if a.DocID == b.DocID || wa.from == nil || wb.from == nil || a.Area != b.Area || !strings.EqualFold(a.Locale, b.Locale) {
		return Finding{}, false
	}
	from := *wa.from
	if wb.from.After(from) {
		from = *wb.from
	}
	to := wa.to
	if to == nil || (wb.to != nil && wb.to.Before(*to)) {
		to = wb.to
	}
	if to != nil && (!to.After(from) || !to.After(since)) {
		return Finding{}, false
	}
	plans, regions := intersect(a.Plans, b.Plans), intersect(a.Regions, b.Regions)
	if len(plans) == 0 || len(regions) == 0 {
		return Finding{}, false
	}
	return Finding{From: from, To: to, Plans: plans, Regions: regions, Locale: a.Locale}, true
}

// conflicts compares the statements of two overlapping versions both ways and returns a
// finding per pair of sentences that contradict, each pair once.
func conflicts(frame Finding, as, bs []*statement) []Finding {
	var out []Finding
	seen := map[[2]string]bool{}
	add := func(x, y *statement, verb, unit string, flip bool) {
		if flip {
			x, y = y, x
		}
		key := [2]string{x.chunk.ID + x.text, y.chunk.ID + y.text}
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
		from, to []*statement
		flip     bool
	}{{as, bs, false}, {bs, as, true}} {
		for _, x := range dir.from {
			for _, verb := range x.verbs {
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
func mostSimilar(x *statement, candidates []*statement, verb, unit string) *statement {
	var best *statement
	bestScore := minSimilarity
	xw := withHeading(x)
	for _, y := range candidates {
		if !slices.Contains(y.verbs, verb) || !slices.ContainsFunc(y.amounts, func(a amount) bool { return a.unit == unit }) {
			continue
		}
		if score := jaccard(xw, withHeading(y)); score >= bestScore {
			best, bestScore = y, score
		}
	}
	return best
}

// shareValue reports whether x and y state at least one common amount in unit.
func shareValue(x, y *statement, unit string) bool {
	for _, a := range x.amounts {
		if a.unit == unit && slices.ContainsFunc(y.amounts, a.same) {
			return true
		}
	}
	return false
}

// units returns the comparable units of s's amounts, each once.
func units(s *statement) []string {
	var out []string
	for _, a := range s.amounts {
		if valueAmount(a) && !slices.Contains(out, a.unit) {
			out = append(out, a.unit)
		}
	}
	return out
}

func side(s *statement, unit string) Side {
	var values []string
	for _, a := range s.amounts {
		if a.unit == unit && !slices.Contains(values, a.describe()) {
			values = append(values, a.describe())
		}
	}
	return Side{Ref: s.version.Ref(), ChunkID: s.chunk.ID, Path: s.version.Path, Quote: s.text, Values: values}
}

func withHeading(s *statement) map[string]bool {
	out := make(map[string]bool, len(s.words)+len(s.heading))
	for w := range s.words {
		out[w] = true
	}
	for w := range s.heading {
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
