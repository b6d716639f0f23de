package dataset

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/policy"
)

// Corpus is a parsed policy corpus with lookups by document.
type Corpus struct {
	Versions []*policy.Version
	byDoc    map[string][]*policy.Version
	byRef    map[string]*policy.Version
}

// LoadCorpus parses dir with policy.ParseDir.
func LoadCorpus(dir string) (*Corpus, error) {
	versions, err := policy.ParseDir(dir)
	if err != nil {
		return nil, err
	}
	return NewCorpus(versions), nil
}

// NewCorpus indexes parsed versions.
func NewCorpus(versions []*policy.Version) *Corpus {
	c := &Corpus{Versions: versions, byDoc: map[string][]*policy.Version{}, byRef: map[string]*policy.Version{}}
	for _, v := range versions {
		c.byDoc[v.DocID] = append(c.byDoc[v.DocID], v)
		c.byRef[v.Ref()] = v
	}
	return c
}

// Ref returns the version cited as "doc_id@version", or nil.
func (c *Corpus) Ref(ref string) *policy.Version { return c.byRef[ref] }

// Doc returns every version of a document, lowest first.
func (c *Corpus) Doc(docID string) []*policy.Version { return c.byDoc[docID] }

// DocIDs returns every document ID, sorted.
func (c *Corpus) DocIDs() []string { return slices.Sorted(maps.Keys(c.byDoc)) }

// Eligible returns the versions of docID eligible at t for plan and region. A sound
// corpus yields at most one.
func (c *Corpus) Eligible(docID string, t time.Time, plan, region string) []*policy.Version {
	var out []*policy.Version
	for _, v := range c.byDoc[docID] {
		if v.EligibleAt(t, plan, region) {
			out = append(out, v)
		}
	}
	return out
}

// EligibleAll returns every version of any document eligible at t for plan and region.
func (c *Corpus) EligibleAll(t time.Time, plan, region string) []*policy.Version {
	var out []*policy.Version
	for _, v := range c.Versions {
		if v.EligibleAt(t, plan, region) {
			out = append(out, v)
		}
	}
	return out
}

// version returns the one eligible version number of docID, 0 if none, and an error when
// the corpus makes two versions eligible at once.
func (c *Corpus) version(docID string, t time.Time, plan, region string) (int, error) {
	vs := c.Eligible(docID, t, plan, region)
	switch len(vs) {
	case 0:
		return 0, nil
	case 1:
		return vs[0].Version, nil
	}
	return 0, fmt.Errorf("%s: %d versions eligible at %s for %s/%s", docID, len(vs), t.Format(time.RFC3339), plan, region)
}

// Text is what a version lets a reply quote: the plain text of its chunks, headings
// included, in document order.
func Text(v *policy.Version) string {
	parts := make([]string, len(v.Chunks))
	for i, ch := range v.Chunks {
		parts[i] = ch.Text
	}
	return strings.Join(parts, "\n\n")
}

// Boundaries returns every instant at which some version's eligibility may change
// (effective_from, effective_to, approved_at), sorted and without duplicates.
func (c *Corpus) Boundaries() []time.Time {
	var out []time.Time
	for _, v := range c.Versions {
		for _, t := range []*time.Time{v.EffectiveFrom, v.EffectiveTo, v.ApprovedAt} {
			if t != nil {
				out = append(out, *t)
			}
		}
	}
	slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	return slices.CompactFunc(out, func(a, b time.Time) bool { return a.Equal(b) })
}
