package inbox

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml"
)

// Bucket is one triage category of an agent: the cue words that point a message at it,
// and the words a policy section's area or title names it by.
type Bucket struct {
	Name string `yaml:"name" json:"name"`
	// PolicyWords name the bucket as a section's area or title would ("refund refunds"):
	// a message the triager found no cue in but the corpus answers (Ground) goes to the
	// bucket its closest section names.
	PolicyWords string `yaml:"policy_words" json:"policy_words"`
	Cues        Cues   `yaml:"cues" json:"cues"`
}

// BucketSet is an agent's triage vocabulary, in the order ties are broken. The entry named
// BucketNotBilling holds the cues of mail that is not the agent's topic (product, login,
// technical questions); a message triaged there is left to people, never drafted. The
// default agent's set is buckets/billing.yaml; another agent's comes from the `buckets:`
// section of its agent file. A nil set means the default agent's.
type BucketSet []Bucket

// Cues are a bucket's cue words with their weights, written as a YAML mapping in the
// order they are tried: {"refund": 3, "money back": 3, "*erstatt": 3, "bill ": 2}. A cue
// matches at the start of a word; one ending in a space matches whole words only; one
// starting with '*' matches inside a word too (German compounds); a negative weight takes
// back what a broader cue gave.
type Cues []cue

// UnmarshalYAML reads a mapping of cue text to an integer weight, keeping its order.
func (c *Cues) UnmarshalYAML(unmarshal func(any) error) error {
	var m yaml.MapSlice
	if err := unmarshal(&m); err != nil {
		return errors.New("cues: write a mapping of cue text to an integer weight, e.g. {\"refund\": 3}")
	}
	return c.fromMap(m)
}

// MarshalYAML writes the cues as the mapping UnmarshalYAML reads, in their order.
func (c Cues) MarshalYAML() (any, error) { return c.toMap(), nil }

// MarshalJSON writes the cues as pairs, [["refund", 3], …]: a JSON object would lose their
// order, which breaks ties. The agents table keeps an agent's buckets this way.
func (c Cues) MarshalJSON() ([]byte, error) {
	pairs := make([][2]any, len(c))
	for i, x := range c {
		pairs[i] = [2]any{x.text, x.weight}
	}
	return json.Marshal(pairs)
}

// UnmarshalJSON reads what MarshalJSON wrote, checked as UnmarshalYAML checks a file.
func (c *Cues) UnmarshalJSON(data []byte) error {
	var pairs [][2]any
	if err := json.Unmarshal(data, &pairs); err != nil {
		return fmt.Errorf("cues: %w", err)
	}
	m := make(yaml.MapSlice, len(pairs))
	for i, p := range pairs {
		w, ok := p[1].(float64)
		if !ok || w != float64(int(w)) {
			return fmt.Errorf("cue %v: the weight %v is not an integer", p[0], p[1])
		}
		m[i] = yaml.MapItem{Key: p[0], Value: int(w)}
	}
	*c = nil
	return c.fromMap(m)
}

func (c Cues) toMap() yaml.MapSlice {
	m := make(yaml.MapSlice, len(c))
	for i, x := range c {
		m[i] = yaml.MapItem{Key: x.text, Value: x.weight}
	}
	return m
}

// fromMap appends the cues of m, refusing a cue that is not lower-case text, is listed
// twice, or weighs 0 or more than 9 either way.
func (c *Cues) fromMap(m yaml.MapSlice) error {
	seen := map[string]bool{}
	for _, item := range m {
		text, ok := item.Key.(string)
		if !ok || strings.TrimSpace(text) == "" || strings.ToLower(text) != text {
			return fmt.Errorf("cue %v: write it as lower-case text", item.Key)
		}
		if seen[text] {
			return fmt.Errorf("cue %q is listed twice", text)
		}
		seen[text] = true
		var w int
		switch v := item.Value.(type) {
		case int64:
			w = int(v)
		case uint64:
			w = int(v)
		case int:
			w = v
		default:
			return fmt.Errorf("cue %q: the weight %v is not an integer", text, item.Value)
		}
		if w == 0 || w < -9 || w > 9 {
			return fmt.Errorf("cue %q: the weight %d is not between -9 and 9 (and not 0)", text, w)
		}
		*c = append(*c, cue{text: text, weight: w})
	}
	return nil
}

//go:embed buckets/billing.yaml
var billingBuckets []byte

var defaultBuckets = func() BucketSet {
	s, err := ParseBuckets(billingBuckets)
	if err != nil {
		panic("inbox/buckets/billing.yaml: " + err.Error())
	}
	return s
}()

// DefaultBuckets is the default agent's (billing's) set.
func DefaultBuckets() BucketSet { return defaultBuckets }

// ParseBuckets parses a document holding only `buckets: [{name, policy_words, cues}]`,
// refusing unknown keys, and checks the set.
func ParseBuckets(data []byte) (BucketSet, error) {
	var doc struct {
		Buckets BucketSet `yaml:"buckets"`
	}
	if err := yaml.UnmarshalWithOptions(data, &doc, yaml.Strict()); err != nil {
		return nil, errors.New(yaml.FormatError(err, false, false))
	}
	if err := doc.Buckets.Check(); err != nil {
		return nil, err
	}
	return doc.Buckets, nil
}

var bucketName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// Check refuses a set triage could not use: no bucket to draft, a name that is not
// lower-case letters, digits and underscores, a name used twice, or a bucket with no cue
// that points at it.
func (s BucketSet) Check() error {
	drafted := 0
	for _, b := range s {
		if b.Name != BucketNotBilling {
			drafted++
		}
	}
	if drafted == 0 {
		return fmt.Errorf("no bucket besides %s: a set needs at least one bucket to draft", BucketNotBilling)
	}
	seen := map[string]bool{}
	for i, b := range s {
		if !bucketName.MatchString(b.Name) {
			return fmt.Errorf("bucket %d: name %q: use 1-40 lower-case letters, digits and underscores", i+1, b.Name)
		}
		if seen[b.Name] {
			return fmt.Errorf("bucket %q is listed twice", b.Name)
		}
		seen[b.Name] = true
		positive := false
		for _, c := range b.Cues {
			positive = positive || c.weight > 0
		}
		if !positive {
			return fmt.Errorf("bucket %q has no cue with a positive weight", b.Name)
		}
		if b.Name != BucketNotBilling && strings.TrimSpace(b.PolicyWords) == "" {
			return fmt.Errorf("bucket %q: policy_words is required (the words a policy's area or title names it by)", b.Name)
		}
	}
	return nil
}

// orDefault is s, or the default agent's set when s is nil.
func (s BucketSet) orDefault() BucketSet {
	if s == nil {
		return defaultBuckets
	}
	return s
}

// topics are the buckets that get a draft: every one but BucketNotBilling.
func (s BucketSet) topics() []Bucket {
	var out []Bucket
	for _, b := range s.orDefault() {
		if b.Name != BucketNotBilling {
			out = append(out, b)
		}
	}
	return out
}

// offTopic are the cues of mail that is not the agent's topic.
func (s BucketSet) offTopic() []cue {
	for _, b := range s.orDefault() {
		if b.Name == BucketNotBilling {
			return b.Cues
		}
	}
	return nil
}

// Names lists every bucket triage may answer, BucketNotBilling last: for schemas, prompts
// and validation.
func (s BucketSet) Names() []string {
	var out []string
	for _, b := range s.topics() {
		out = append(out, b.Name)
	}
	return append(out, BucketNotBilling)
}

// Valid reports whether name is one of Names.
func (s BucketSet) Valid(name string) bool {
	for _, n := range s.Names() {
		if n == name {
			return true
		}
	}
	return false
}
