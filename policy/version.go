// Package policy holds the policy corpus as the company writes it: one Markdown file per
// document version with YAML front matter, parsed, validated and cut into chunks that
// drafts cite as doc_id@version#anchor. It knows nothing about storage.
package policy

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Status is a version's place in its approval life cycle.
type Status string

// The statuses a version can have. Only approved and superseded versions are ever eligible,
// and superseded ones only inside their (closed) effective window.
const (
	StatusDraft      Status = "draft"
	StatusApproved   Status = "approved"
	StatusSuperseded Status = "superseded"
)

// Wildcard in plans or regions means "every plan" or "every region".
const Wildcard = "*"

// Version is one version of one policy document, exactly as its file states it.
type Version struct {
	DocID         string     `json:"doc_id"`
	Version       int        `json:"version"`
	Status        Status     `json:"status"`
	Source        string     `json:"source"` // wiki | helpcenter | macro
	Title         string     `json:"title"`
	Area          string     `json:"area"`
	EffectiveFrom *time.Time `json:"effective_from,omitempty"`
	EffectiveTo   *time.Time `json:"effective_to,omitempty"`
	ApprovedAt    *time.Time `json:"approved_at,omitempty"`
	Plans         []string   `json:"plans"`
	Regions       []string   `json:"regions"`
	Locale        string     `json:"locale"`
	Owner         string     `json:"owner"`
	Body          string     `json:"-"`
	Path          string     `json:"path"`         // file it was read from, for error messages
	ContentHash   string     `json:"content_hash"` // sha256 of the file's bytes; re-import of the same bytes is a no-op
	Chunks        []Chunk    `json:"chunks"`
}

// Chunk is one citable section of a version.
type Chunk struct {
	ID      string `json:"id"`      // doc_id@version#anchor
	Anchor  string `json:"anchor"`  // heading slug, unique within the version
	Heading string `json:"heading"` // heading text, "" for text before the first heading
	Ord     int    `json:"ord"`     // position in the document, from 0
	Text    string `json:"text"`    // the section's text, Markdown stripped to plain prose
	// Fixed: the section is fixed wording (legal text, a macro's reply), quoted only word
	// for word; set by the front matter's fixed, for the document or the section.
	Fixed bool `json:"fixed,omitempty"`
	// Audience is who the section is written for: AudienceCustomers, or AudienceAgents
	// (context for the drafter and the agent, never quoted to a customer).
	Audience string `json:"audience,omitempty"`
	// Subheadings are the headings of the section's subsections (####, deeper) that Text
	// holds as lines of their own: titles to a reader, never statements to quote.
	Subheadings []string `json:"subheadings,omitempty"`
}

// Audiences a section can be written for (the front matter's audience).
const (
	AudienceCustomers = "customers"
	AudienceAgents    = "agents"
)

// Ref returns "doc_id@version", the form cited in ticket labels and stale reasons.
func (v *Version) Ref() string { return fmt.Sprintf("%s@%d", v.DocID, v.Version) }

// DocOf returns the doc_id of a "doc_id@version" reference (Ref), or ref itself when it
// names no version.
func DocOf(ref string) string {
	if i := strings.LastIndexByte(ref, '@'); i >= 0 {
		return ref[:i]
	}
	return ref
}

// ChunkID builds the citation form doc_id@version#anchor.
func ChunkID(docID string, version int, anchor string) string {
	return fmt.Sprintf("%s@%d#%s", docID, version, anchor)
}

// Account is what eligibility needs to know about the customer: nothing more is ever sent
// to a model. It is a type apart from ticket.Account (which adds the ID and the person's
// name) so that a saved draft and every model prompt cannot carry either; ticket.Account's
// Eligibility method is the one way across.
type Account struct {
	Plan   string `json:"plan"`
	Region string `json:"region"`
	Locale string `json:"locale"`
}

// EligibleAt reports whether v may be quoted at instant t to an account on plan and region:
// not a draft, approved by t, t inside [effective_from, effective_to), and plan and region
// in scope. It is the Go twin of the SQL filter in the store, used by trace and by tests.
func (v *Version) EligibleAt(t time.Time, plan, region string) bool {
	if v.Status == StatusDraft || v.EffectiveFrom == nil {
		return false
	}
	approved := v.EffectiveFrom
	if v.ApprovedAt != nil {
		approved = v.ApprovedAt
	}
	if approved.After(t) || v.EffectiveFrom.After(t) {
		return false
	}
	if v.EffectiveTo != nil && !t.Before(*v.EffectiveTo) {
		return false
	}
	return inScope(v.Plans, plan) && inScope(v.Regions, region)
}

func inScope(scope []string, value string) bool {
	return slices.Contains(scope, Wildcard) || slices.Contains(scope, value)
}
