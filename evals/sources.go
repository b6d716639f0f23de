package evals

import (
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// EligibleFunc says whether a chunk may be quoted at an instant to a (plan, region)
// account. The eval passes internal/reference's Corpus.Eligible: the Go twin of the SQL
// filter, read from the metadata as imported (so an effective_to the import set on a
// superseded version counts), but written independently of the query the drafts used.
type EligibleFunc func(chunkID string, at time.Time, account policy.Account) bool

// Sources is the eval's own view of the corpus: every chunk's version and text, and an
// eligibility rule. Metrics judge drafts against it, never against the draft's own checks.
type Sources struct {
	chunks   map[string]sourceChunk
	anyChunk map[string]string // doc_id@version → one of its chunk IDs (all share the metadata)
	eligible EligibleFunc
}

type sourceChunk struct {
	ref        string          // doc_id@version
	quantities map[string]bool // text.Quantities keys of the text
}

// NewSources indexes the parsed corpus. eligible nil judges by the files' own metadata
// (policy.Version.EligibleAt), which is what unit tests use.
func NewSources(versions []*policy.Version, eligible EligibleFunc) *Sources {
	s := &Sources{chunks: map[string]sourceChunk{}, anyChunk: map[string]string{}, eligible: eligible}
	byChunk := map[string]*policy.Version{}
	for _, v := range versions {
		for _, c := range v.Chunks {
			s.chunks[c.ID] = sourceChunk{ref: v.Ref(), quantities: quantityKeys(c.Text)}
			byChunk[c.ID] = v
			if _, ok := s.anyChunk[v.Ref()]; !ok {
				s.anyChunk[v.Ref()] = c.ID
			}
		}
	}
	if s.eligible == nil {
		s.eligible = func(id string, at time.Time, a policy.Account) bool {
			v, ok := byChunk[id]
			return ok && v.EligibleAt(at, a.Plan, a.Region)
		}
	}
	return s
}

// ChunkEligible reports whether a known chunk was eligible at `at` for account.
func (s *Sources) ChunkEligible(chunkID string, at time.Time, account policy.Account) bool {
	_, known := s.chunks[chunkID]
	return known && s.eligible(chunkID, at, account)
}

// VersionEligible reports whether doc_id@version was eligible at `at` for account. An
// unknown version is not eligible: a draft cannot rely on what the corpus does not hold.
func (s *Sources) VersionEligible(ref string, at time.Time, account policy.Account) bool {
	id, ok := s.anyChunk[ref]
	return ok && s.eligible(id, at, account)
}

// VersionOf returns the doc_id@version of a chunk ID, read from the ID itself when the
// chunk is unknown ("doc@3#anchor" → "doc@3").
func (s *Sources) VersionOf(chunkID string) string {
	if c, ok := s.chunks[chunkID]; ok {
		return c.ref
	}
	ref, _, _ := strings.Cut(chunkID, "#")
	return ref
}

// Carries reports whether the chunk's text states every quantity in keys.
func (s *Sources) Carries(chunkID string, keys []string) bool {
	c, ok := s.chunks[chunkID]
	if !ok {
		return false
	}
	for _, k := range keys {
		if !c.quantities[k] {
			return false
		}
	}
	return true
}

func quantityKeys(s string) map[string]bool {
	out := map[string]bool{}
	for _, q := range text.Quantities(s) {
		out[q.Key()] = true
	}
	return out
}

// sentenceKeys are the distinct quantity keys of a sentence, in order.
func sentenceKeys(sentence string) []string {
	var out []string
	seen := map[string]bool{}
	for _, q := range text.Quantities(sentence) {
		if k := q.Key(); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}
