package provenance

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/policy"
)

// Account is who and when eligibility is judged for. An empty Plan, Region or Locale
// means "any": trace then judges only what it was told, and says so. It is not
// policy.Account because trace is asked about partial accounts at an instant: At is part
// of the question, and its empty fields are left off the wire.
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

// whyNot lists why v may not be quoted for a, or nothing when it may: "draft",
// "superseded on 2026-03-01 by version 4", "for plans pro,business only", "locale de".
func whyNot(v *policy.Version, w policy.Window, a Account) []string {
	var why []string
	switch {
	case v.Status == policy.StatusDraft:
		why = append(why, "draft (never approved)")
	case w.From == nil:
		why = append(why, "no effective_from")
	case w.From.After(a.At):
		if v.ApprovedAt != nil && v.ApprovedAt.After(a.At) {
			why = append(why, "not approved until "+day(*v.ApprovedAt))
		} else {
			why = append(why, "not in effect until "+day(*w.From))
		}
	case w.To != nil && !a.At.Before(*w.To):
		switch {
		case w.SupersededBy != nil:
			why = append(why, fmt.Sprintf("superseded on %s by version %d", day(*w.To), w.SupersededBy.Version))
		case v.Status == policy.StatusSuperseded:
			why = append(why, "superseded on "+day(*w.To))
		default:
			why = append(why, "expired on "+day(*w.To))
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

func day(t time.Time) string { return t.UTC().Format("2006-01-02") }

// retired reports whether the account could read v once (approved, in its scope) and v
// has been superseded or has expired by a.At.
func retired(v *policy.Version, w policy.Window, a Account) bool {
	if v.Status == policy.StatusDraft || w.From == nil || w.To == nil || a.At.Before(*w.To) {
		return false
	}
	return (a.Plan == "" || inScope(v.Plans, a.Plan)) && (a.Region == "" || inScope(v.Regions, a.Region)) &&
		(a.Locale == "" || strings.EqualFold(v.Locale, a.Locale))
}
