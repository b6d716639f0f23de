package drafts

import (
	"fmt"
	"time"
)

// StaleReason is one sentence the agent sees when a draft is stale, with the instant of
// the change it describes.
type StaleReason struct {
	Kind    string     `json:"kind"` // revision | policy | plan | region
	Message string     `json:"message"`
	At      *time.Time `json:"at,omitempty"`
}

// SendTimeState is the state of the world at send time, as the check activity read it:
// the latest ticket revision, the account's plan and region, and the policy versions
// eligible now. Staleness compares a draft's binding against it.
type SendTimeState struct {
	Revision   int       `json:"revision"`
	RevisionAt time.Time `json:"revision_at"`
	Plan       string    `json:"plan"`
	Region     string    `json:"region"`
	// Versions maps each bound doc_id to the version eligible now (absent: none is).
	Versions map[string]CurrentVersion `json:"versions"`
}

// CurrentVersion is the version of a document eligible at send time.
type CurrentVersion struct {
	Version    int        `json:"version"`
	ApprovedAt *time.Time `json:"approved_at,omitempty"`
}

// Staleness compares what a draft was bound to with the world now. No reasons: current.
func Staleness(s *Summary, now SendTimeState) []StaleReason {
	var out []StaleReason
	if now.Revision > s.Revision {
		out = append(out, RevisionReason(s.Revision, now.Revision, now.RevisionAt))
	}
	for _, b := range s.Bound {
		cur, ok := now.Versions[b.DocID]
		switch {
		case !ok:
			out = append(out, StaleReason{Kind: "policy",
				Message: fmt.Sprintf("policy %s v%d is no longer in force for this account, and no version replaces it", b.DocID, b.Version)})
		case cur.Version != b.Version:
			msg := fmt.Sprintf("policy %s v%d is now in force (the draft quotes v%d)", b.DocID, cur.Version, b.Version)
			if cur.ApprovedAt != nil {
				msg = fmt.Sprintf("policy %s v%d approved at %s (the draft quotes v%d)", b.DocID, cur.Version, stamp(*cur.ApprovedAt), b.Version)
			}
			out = append(out, StaleReason{Kind: "policy", Message: msg, At: cur.ApprovedAt})
		}
	}
	if now.Plan != s.Plan {
		out = append(out, StaleReason{Kind: "plan", Message: fmt.Sprintf("plan changed from %s to %s", s.Plan, now.Plan)})
	}
	if now.Region != s.Region {
		out = append(out, StaleReason{Kind: "region", Message: fmt.Sprintf("region changed from %s to %s", s.Region, now.Region)})
	}
	return out
}

// RevisionReason says that the customer wrote again: revision at `at`, while the draft
// was built for builtFor. The send-check and the revision signal word it the same way.
func RevisionReason(builtFor, revision int, at time.Time) StaleReason {
	return StaleReason{Kind: "revision", At: &at,
		Message: fmt.Sprintf("customer replied at %s (revision %d; the draft was built for revision %d)", stamp(at), revision, builtFor)}
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }
