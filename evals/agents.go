package evals

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/supportdraft/supportdraft/agent"
)

// SamplesDir holds the sample agents, one directory per agent ID, each with its agent
// file (agent.yaml), corpus/, tickets.jsonl, messages.jsonl and rules.yaml.
const SamplesDir = "evals/agents"

// Sample is a sample agent: its agent file, and where its sets are.
type Sample struct {
	Dir string
	agent.Agent
}

// Corpus, Tickets and Messages are the sample's sets.
func (s *Sample) Corpus() string   { return filepath.Join(s.Dir, "corpus") }
func (s *Sample) Tickets() string  { return filepath.Join(s.Dir, "tickets.jsonl") }
func (s *Sample) Messages() string { return filepath.Join(s.Dir, "messages.jsonl") }

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

// LoadSample reads dir/agent.yaml as `supportdraft agent create --file` does (strictly;
// errors name the file and the field); a sample also needs its addresses, and its ID is
// its directory's name.
func LoadSample(dir string) (*Sample, error) {
	file := filepath.Join(dir, "agent.yaml")
	a, err := agent.LoadFile(file)
	if err != nil {
		return nil, err
	}
	if filepath.Base(dir) != a.ID {
		return nil, fmt.Errorf("%s: field id is %q but the directory is %q", file, a.ID, filepath.Base(dir))
	}
	if len(a.Addresses) == 0 {
		return nil, fmt.Errorf("%s: field addresses: a sample agent needs the addresses its messages are sent to", file)
	}
	return &Sample{Dir: dir, Agent: a}, nil
}
