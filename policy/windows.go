package policy

import (
	"slices"
	"time"
)

// Window is the span in which a non-draft version may be quoted, as the store records it
// after import: from max(effective_from, approved_at) to effective_to, closed early by the
// start of a later version of the same document.
type Window struct {
	From, To     *time.Time
	SupersededBy *Version
}

// Windows computes every version's window the way store.Import does when it approves a
// version: each later non-draft version closes the earlier ones still open when it starts.
// A corpus read from files has not been through the store, so an approved v3 file may
// still say nothing about v4; trace and policy lint must see the corpus as the drafter does.
func Windows(versions []*Version) map[*Version]Window {
	out := make(map[*Version]Window, len(versions))
	byDoc := map[string][]*Version{}
	for _, v := range versions {
		if v.Status == StatusDraft || v.EffectiveFrom == nil {
			out[v] = Window{}
			continue
		}
		from := *v.EffectiveFrom
		if v.ApprovedAt != nil && v.ApprovedAt.After(from) {
			from = *v.ApprovedAt
		}
		out[v] = Window{From: &from, To: v.EffectiveTo}
		byDoc[v.DocID] = append(byDoc[v.DocID], v)
	}
	for _, vs := range byDoc {
		slices.SortFunc(vs, func(a, b *Version) int { return a.Version - b.Version })
		for i, later := range vs {
			start := *out[later].From
			for _, earlier := range vs[:i] {
				w := out[earlier]
				switch {
				case w.From.Before(start) && (w.To == nil || w.To.After(start)):
					w.To, w.SupersededBy = &start, later
				case w.To != nil && w.To.Equal(start) && w.SupersededBy == nil:
					w.SupersededBy = later // the file already closed it where the next one starts
				}
				out[earlier] = w
			}
		}
	}
	return out
}

// IntersectScope returns the plans or regions two versions share, ["*"] when both cover every
// one, and nothing when they share none.
func IntersectScope(a, b []string) []string {
	switch {
	case slices.Contains(a, Wildcard) && slices.Contains(b, Wildcard):
		return []string{Wildcard}
	case slices.Contains(a, Wildcard):
		return slices.Clone(b)
	case slices.Contains(b, Wildcard):
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
