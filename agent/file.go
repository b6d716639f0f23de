package agent

import (
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/rubric"
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
	// LoadFile reads the file into Rules, so the agents table holds the rules themselves
	// and every worker applies the same ones.
	RulesFile string       `yaml:"rules_file,omitempty" json:"rules_file,omitempty"`
	Rules     []inbox.Rule `yaml:"rules,omitempty" json:"rules,omitempty"`
	// VocabularyFile adds commitment vocabulary to the built-in one (guard.LoadVocabulary).
	VocabularyFile string `yaml:"vocabulary_file,omitempty" json:"vocabulary_file,omitempty"`
	// Buckets are the triage buckets of the agent's mail (inbox.BucketSet); none: the
	// default agent's.
	Buckets inbox.BucketSet `yaml:"buckets,omitempty" json:"buckets,omitempty"`
	// ReviewDelay is how long a queued draft can be pulled back (a Go duration, "10m").
	ReviewDelay string `yaml:"review_delay,omitempty" json:"review_delay,omitempty"`
	// ReviewThreshold is the confidence below which a draft is marked low-confidence.
	ReviewThreshold float64 `yaml:"review_threshold,omitempty" json:"review_threshold,omitempty"`
	// Rubric is a draft-quality rubric file; LoadFile checks it (rubric.Parse) and keeps its
	// text in RubricYAML, so the agents table holds the rubric itself and every worker
	// scores with the same one.
	Rubric     string    `yaml:"rubric,omitempty" json:"rubric,omitempty"`
	RubricYAML string    `yaml:"-" json:"rubric_yaml,omitempty"`
	HelpDesk   *HelpDesk `yaml:"helpdesk,omitempty" json:"helpdesk,omitempty"`
	Slack      *Slack    `yaml:"slack,omitempty" json:"slack,omitempty"`
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

// LoadFile reads and checks the agent file at path. Files it names are relative to it;
// its rules file is read into the agent's rules. Errors name the file.
func LoadFile(path string) (Agent, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Agent{}, fmt.Errorf("agent file: %w", err)
	}
	a, err := Parse(data)
	if err != nil {
		return Agent{}, fmt.Errorf("agent file %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	for _, f := range []*string{&a.RulesFile, &a.VocabularyFile, &a.Rubric} {
		if *f != "" && !filepath.IsAbs(*f) {
			*f = filepath.Join(dir, *f)
		}
	}
	if a.Rubric != "" {
		data, err := os.ReadFile(a.Rubric)
		if err != nil {
			return Agent{}, fmt.Errorf("agent file %s: rubric: %w", path, err)
		}
		if _, err := rubric.Parse(a.Rubric, data); err != nil {
			return Agent{}, fmt.Errorf("agent file %s: rubric: %w", path, err)
		}
		a.RubricYAML = string(data)
	}
	if a.RulesFile != "" {
		rules, err := inbox.LoadRules(a.RulesFile)
		if err != nil {
			return Agent{}, fmt.Errorf("agent file %s: rules_file: %w", path, err)
		}
		a.Rules, a.RulesFile = rules.Rules, ""
	}
	return a, nil
}

// Window is the agent's review window, or 0 to keep the deployment's (Check has refused
// a ReviewDelay that does not parse).
func (s Settings) Window() time.Duration {
	d, err := time.ParseDuration(s.ReviewDelay)
	if err != nil {
		return 0
	}
	return d
}

// QualityRubric is the agent's own draft-quality rubric, or nil to keep the deployment's.
func (s Settings) QualityRubric() (*rubric.Rubric, error) {
	if s.RubricYAML == "" {
		return nil, nil
	}
	return rubric.Parse(s.Rubric, []byte(s.RubricYAML))
}

// IntakeRules are the agent's intake rules, checked; nil when it has none of its own.
func (s Settings) IntakeRules() (*inbox.Rules, error) {
	if len(s.Rules) == 0 {
		return nil, nil
	}
	return inbox.NewRules(s.Rules)
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
	if _, err := s.IntakeRules(); err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	if s.Buckets != nil {
		if err := s.Buckets.Check(); err != nil {
			return fmt.Errorf("buckets: %w", err)
		}
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
