package evals

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/inbox"
)

// SamplesDir holds the sample agents, one directory per agent ID, each with its agent
// file (agent.yaml), corpus/, tickets.jsonl, messages.jsonl and rules.yaml.
const SamplesDir = "evals/agents"

// Sample is a sample agent: what its agent file says, and where its sets are.
type Sample struct {
	Dir             string
	ID              string
	Name            string
	Addresses       []string
	Rules           string // the rules file's path
	ReviewDelay     time.Duration
	ReviewThreshold float64
	Buckets         inbox.BucketSet
}

// Corpus, Tickets and Messages are the sample's sets.
func (s *Sample) Corpus() string   { return filepath.Join(s.Dir, "corpus") }
func (s *Sample) Tickets() string  { return filepath.Join(s.Dir, "tickets.jsonl") }
func (s *Sample) Messages() string { return filepath.Join(s.Dir, "messages.jsonl") }

// sampleFile is the agent file as written; unknown keys are refused.
type sampleFile struct {
	ID              string          `yaml:"id"`
	Name            string          `yaml:"name"`
	Addresses       []string        `yaml:"addresses"`
	Rules           string          `yaml:"rules"`
	ReviewDelay     string          `yaml:"review_delay"`
	ReviewThreshold float64         `yaml:"review_threshold"`
	Buckets         inbox.BucketSet `yaml:"buckets"`
}

// ErrNoSample is the error FindSample wraps for an agent with no sample.
var ErrNoSample = errors.New("no sample")

// FindSample loads the sample agent id from SamplesDir under root (the repository's
// root, where the commands run). An agent with no sample there is an error wrapping
// ErrNoSample.
func FindSample(root, id string) (*Sample, error) {
	if err := agent.CheckID(id); err != nil {
		return nil, err
	}
	dir := filepath.Join(root, SamplesDir, id)
	if _, err := os.Stat(filepath.Join(dir, "agent.yaml")); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("agent %q has %w under %s: name its files with flags", id, ErrNoSample, filepath.Join(root, SamplesDir))
	}
	return LoadSample(dir)
}

// LoadSample reads dir/agent.yaml strictly: errors name the file and the field.
func LoadSample(dir string) (*Sample, error) {
	file := filepath.Join(dir, "agent.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var f sampleFile
	if err := yaml.UnmarshalWithOptions(data, &f, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("%s: %s", file, yaml.FormatError(err, false, false))
	}
	if err := agent.CheckID(f.ID); err != nil {
		return nil, fmt.Errorf("%s: field id: %w", file, err)
	}
	if filepath.Base(dir) != f.ID {
		return nil, fmt.Errorf("%s: field id is %q but the directory is %q", file, f.ID, filepath.Base(dir))
	}
	if f.Name == "" || len(f.Addresses) == 0 {
		return nil, fmt.Errorf("%s: fields name and addresses are required", file)
	}
	if _, err := inbox.NewSupport(f.Addresses); err != nil {
		return nil, fmt.Errorf("%s: field addresses: %w", file, err)
	}
	s := &Sample{Dir: dir, ID: f.ID, Name: f.Name, Addresses: f.Addresses, ReviewThreshold: f.ReviewThreshold, Buckets: f.Buckets}
	if f.ReviewDelay != "" {
		if s.ReviewDelay, err = time.ParseDuration(f.ReviewDelay); err != nil || s.ReviewDelay < 0 {
			return nil, fmt.Errorf("%s: field review_delay %q: write a duration such as 10m", file, f.ReviewDelay)
		}
	}
	if f.ReviewThreshold < 0 || f.ReviewThreshold > 1 {
		return nil, fmt.Errorf("%s: field review_threshold %g: use a confidence between 0 and 1", file, f.ReviewThreshold)
	}
	if f.Buckets != nil {
		if err := f.Buckets.Check(); err != nil {
			return nil, fmt.Errorf("%s: field buckets: %w", file, err)
		}
	}
	if f.Rules != "" {
		s.Rules = filepath.Join(dir, f.Rules)
		if _, err := inbox.LoadRules(s.Rules); err != nil {
			return nil, fmt.Errorf("%s: field rules: %w", file, err)
		}
	}
	return s, nil
}
