package trace

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/policy"
)

// Account is who and when eligibility is judged for. An empty Plan, Region or Locale
// means "any": trace then judges only what it was told, and says so.
type Account struct {
	Plan   string    `json:"plan,omitempty"`
	Region string    `json:"region,omitempty"`
	Locale string    `json:"locale,omitempty"`
	At     time.Time `json:"at"`
}

// String describes the account as trace judged it: "plan pro, region eu, any locale".
func (a Account) String() string {
	part := func(name, value string) string {
		if value == "" {
			return "any " + name
		}
		return name + " " + value
	}
	return part("plan", a.Plan) + ", " + part("region", a.Region) + ", " + part("locale", a.Locale)
}

// window is the span in which a non-draft version may be quoted, as the store records it
// after import: from max(effective_from, approved_at) to effective_to, closed early by the
// start of a later version of the same document.
type window struct {
	from, to     *time.Time
	supersededBy *policy.Version
}

// windows computes every version's window the way store.Import does when it approves a
// version: each later non-draft version closes the earlier ones still open when it starts.
// A corpus read from files has not been through the store, so an approved v3 file may
// still say nothing about v4; trace and lint must see the corpus as the drafter does.
func windows(versions []*policy.Version) map[*policy.Version]window {
	out := make(map[*policy.Version]window, len(versions))
	byDoc := map[string][]*policy.Version{}
	for _, v := range versions {
		if v.Status == policy.StatusDraft || v.EffectiveFrom == nil {
			out[v] = window{}
			continue
		}
		from := *v.EffectiveFrom
		if v.ApprovedAt != nil && v.ApprovedAt.After(from) {
			from = *v.ApprovedAt
		}
		out[v] = window{from: &from, to: v.EffectiveTo}
		byDoc[v.DocID] = append(byDoc[v.DocID], v)
	}
	for _, vs := range byDoc {
		slices.SortFunc(vs, func(a, b *policy.Version) int { return a.Version - b.Version })
		for i, later := range vs {
			start := *out[later].from
			for _, earlier := range vs[:i] {
				w := out[earlier]
				switch {
				case w.from.Before(start) && (w.to == nil || w.to.After(start)):
					w.to, w.supersededBy = &start, later
				case w.to != nil && w.to.Equal(start) && w.supersededBy == nil:
					w.supersededBy = later // the file already closed it where the next one starts
				}
				out[earlier] = w
			}
		}
	}
	return out
}

// openAfter reports whether w holds any instant after since.
func (w window) openAfter(since time.Time) bool {
	return w.from != nil && (w.to == nil || w.to.After(since))
}

// whyNot lists why v may not be quoted for a, or nothing when it may: "draft",
// "superseded on 2026-03-01 by version 4", "for plans pro,business only", "locale de".
func whyNot(v *policy.Version, w window, a Account) []string {
	var why []string
	switch {
	case v.Status == policy.StatusDraft:
		why = append(why, "draft (never approved)")
	case w.from == nil:
		why = append(why, "no effective_from")
	case w.from.After(a.At):
		if v.ApprovedAt != nil && v.ApprovedAt.After(a.At) {
			why = append(why, "not approved until "+day(*v.ApprovedAt))
		} else {
			why = append(why, "not in effect until "+day(*w.from))
		}
	case w.to != nil && !a.At.Before(*w.to):
		switch {
		case w.supersededBy != nil:
			why = append(why, fmt.Sprintf("superseded on %s by version %d", day(*w.to), w.supersededBy.Version))
		case v.Status == policy.StatusSuperseded:
			why = append(why, "superseded on "+day(*w.to))
		default:
			why = append(why, "expired on "+day(*w.to))
		}
	}
	if a.Plan != "" && !inScope(v.Plans, a.Plan) {
		why = append(why, "for plans "+scope(v.Plans)+" only")
	}
	if a.Region != "" && !inScope(v.Regions, a.Region) {
		why = append(why, "for regions "+scope(v.Regions)+" only")
	}
	if a.Locale != "" && !strings.EqualFold(v.Locale, a.Locale) {
		why = append(why, "locale "+v.Locale)
	}
	return why
}

// inScope reports whether value is in a plans or regions list; a draft may have none.
func inScope(list []string, value string) bool {
	return slices.Contains(list, policy.Wildcard) || slices.Contains(list, value)
}

// scope renders a plans or regions list; a draft without one says so.
func scope(list []string) string {
	if len(list) == 0 {
		return "(none)"
	}
	return strings.Join(list, ",")
}

// intersect returns the plans or regions two versions share, ["*"] when both cover every
// one, and nothing when they share none.
func intersect(a, b []string) []string {
	switch {
	case slices.Contains(a, policy.Wildcard) && slices.Contains(b, policy.Wildcard):
		return []string{policy.Wildcard}
	case slices.Contains(a, policy.Wildcard):
		return slices.Clone(b)
	case slices.Contains(b, policy.Wildcard):
		return slices.Clone(a)
	}
	var out []string
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func day(t time.Time) string { return t.UTC().Format("2006-01-02") }
