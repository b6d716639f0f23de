package agent

import (
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
)

// Agent is one agent of a deployment as the agents table and its YAML file hold it: the
// ID its rows carry, its name, the support addresses whose mail it answers, and its
// settings. Its corpus is not here: `policy import DIR --agent ID` loads it.
type Agent struct {
	ID        string   `yaml:"id" json:"id"`
	Name      string   `yaml:"name" json:"name"`
	Addresses []string `yaml:"addresses,omitempty" json:"addresses"`
	Settings  `yaml:",inline"`
	CreatedAt time.Time `yaml:"-" json:"created_at"`
}

// Settings is what an agent changes of the deployment's defaults. A zero field keeps the
// default (the SUPPORTDRAFT_… settings of docs/deploy.md). Files are named as written,
// relative to where the service runs, and read when it loads the agent.
type Settings struct {
	// RulesFile is an intake rules file (inbox.LoadRules); Rules the same rules inline.
	RulesFile string `yaml:"rules_file,omitempty" json:"rules_file,omitempty"`
	Rules     []Rule `yaml:"rules,omitempty" json:"rules,omitempty"`
	// VocabularyFile adds commitment vocabulary to the built-in one (guard.LoadVocabulary).
	VocabularyFile string `yaml:"vocabulary_file,omitempty" json:"vocabulary_file,omitempty"`
	// Buckets are the triage buckets of the agent's mail, with the phrases that point to each.
	Buckets []Bucket `yaml:"buckets,omitempty" json:"buckets,omitempty"`
	// ReviewDelay is how long a queued draft can be pulled back (a Go duration, "10m").
	ReviewDelay string `yaml:"review_delay,omitempty" json:"review_delay,omitempty"`
	// ReviewThreshold is the confidence below which a draft is marked low-confidence.
	ReviewThreshold float64   `yaml:"review_threshold,omitempty" json:"review_threshold,omitempty"`
	Rubric          string    `yaml:"rubric,omitempty" json:"rubric,omitempty"`
	HelpDesk        *HelpDesk `yaml:"helpdesk,omitempty" json:"helpdesk,omitempty"`
	Slack           *Slack    `yaml:"slack,omitempty" json:"slack,omitempty"`
}

// Rule is one intake rule, in the rules file's format.
type Rule struct {
	Action  string   `yaml:"action" json:"action"`
	From    []string `yaml:"from,omitempty" json:"from,omitempty"`
	Phrases []string `yaml:"phrases,omitempty" json:"phrases,omitempty"`
}

// Bucket is one triage bucket: its name and the phrases that point to it.
type Bucket struct {
	Name    string   `yaml:"name" json:"name"`
	Phrases []string `yaml:"phrases" json:"phrases"`
}

// HelpDesk is where the agent's approved drafts are handed off. The secret is never
// stored: SecretEnv names the environment variable that holds it.
type HelpDesk struct {
	URL       string `yaml:"url" json:"url"`
	SecretEnv string `yaml:"secret_env" json:"secret_env"`
}

// Slack is the channel the agent's queued drafts are posted to.
type Slack struct {
	Channel string `yaml:"channel" json:"channel"`
}

// LoadFile reads and checks the agent file at path. Errors name the file.
func LoadFile(path string) (Agent, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Agent{}, fmt.Errorf("agent file: %w", err)
	}
	a, err := Parse(data)
	if err != nil {
		return Agent{}, fmt.Errorf("agent file %s: %w", path, err)
	}
	return a, nil
}

// Parse reads an agent file strictly: an unknown or misspelt field is refused, not
// ignored, and every field is checked (Check).
func Parse(data []byte) (Agent, error) {
	var a Agent
	if err := yaml.UnmarshalWithOptions(data, &a, yaml.Strict(), yaml.DisallowUnknownField()); err != nil {
		return Agent{}, errors.New(yaml.FormatError(err, false, true))
	}
	if err := a.Check(); err != nil {
		return Agent{}, err
	}
	return a, nil
}

// Marshal is a's file: what `agent show` prints and Parse reads back.
func (a Agent) Marshal() ([]byte, error) { return yaml.Marshal(a) }

// Check says which field of a is wrong, or nil.
func (a Agent) Check() error {
	if err := CheckID(a.ID); err != nil {
		return fmt.Errorf("id: %w", err)
	}
	if strings.TrimSpace(a.Name) == "" {
		return errors.New("name: give the agent a name")
	}
	for i, addr := range a.Addresses {
		if p, err := mail.ParseAddress(addr); err != nil || p.Address != addr {
			return fmt.Errorf("addresses[%d]: %q is not a bare e-mail address (name@domain)", i, addr)
		}
	}
	return a.Settings.check()
}

func (s Settings) check() error {
	if s.RulesFile != "" && len(s.Rules) > 0 {
		return errors.New("rules_file and rules: give the rules one way, not both")
	}
	for i, r := range s.Rules {
		if r.Action == "" {
			return fmt.Errorf("rules[%d].action: missing", i)
		}
	}
	seen := map[string]bool{}
	for i, b := range s.Buckets {
		switch {
		case b.Name == "":
			return fmt.Errorf("buckets[%d].name: missing", i)
		case seen[b.Name]:
			return fmt.Errorf("buckets[%d].name: %q is listed twice", i, b.Name)
		case len(b.Phrases) == 0:
			return fmt.Errorf("buckets[%d].phrases: bucket %q needs at least one phrase", i, b.Name)
		}
		seen[b.Name] = true
	}
	if s.ReviewDelay != "" {
		if d, err := time.ParseDuration(s.ReviewDelay); err != nil || d < 0 {
			return fmt.Errorf("review_delay: %q is not a duration such as 10m or 1h", s.ReviewDelay)
		}
	}
	if s.ReviewThreshold < 0 || s.ReviewThreshold > 1 {
		return fmt.Errorf("review_threshold: %g is not between 0 and 1", s.ReviewThreshold)
	}
	if h := s.HelpDesk; h != nil {
		if u, err := url.Parse(h.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("helpdesk.url: %q is not an http(s) URL", h.URL)
		}
		if h.SecretEnv == "" {
			return errors.New("helpdesk.secret_env: name the environment variable that holds the signing secret")
		}
	}
	if s.Slack != nil && s.Slack.Channel == "" {
		return errors.New("slack.channel: missing")
	}
	return nil
}
