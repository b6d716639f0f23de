package inbox

import (
	"errors"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/supportdraft/supportdraft/text"
)

// Rule actions.
const (
	ActionBlock  = "block"  // never drafted
	ActionReview = "review" // drafted, forced to review
	ActionAllow  = "allow"  // drafted as usual, and exempt from the automated-mail check
)

// Rule is one line of the rules file: a rule matches when any of its sender globs or any
// of its phrases does.
type Rule struct {
	Action string `yaml:"action" json:"action"`
	// From are globs on the sender address (path.Match syntax, case-insensitive), e.g.
	// "*@adtechpartners.example" or "billing-*@*.vendor.example".
	From []string `yaml:"from" json:"from,omitempty"`
	// Phrases are case-insensitive phrases looked for in the subject or the body.
	Phrases []string `yaml:"phrases" json:"phrases,omitempty"`
	line    int
}

// Rules is the ordered rule list; the first matching rule wins, and no match means allow.
type Rules struct {
	Rules []Rule `yaml:"rules"`
}

// LoadRules reads and checks a rules file. An empty path means no rules. Errors name the
// file and line, so a malformed file is refused at start rather than half applied.
func LoadRules(file string) (*Rules, error) {
	if file == "" {
		return &Rules{}, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("rules file: %w", err)
	}
	r, err := ParseRules(data)
	if err != nil {
		return nil, fmt.Errorf("rules file %s: %w", file, err)
	}
	return r, nil
}

// ParseRules parses `rules: [{action, from, phrases}]`, refusing unknown keys, unknown
// actions, rules that could never match and globs that do not compile.
func ParseRules(data []byte) (*Rules, error) {
	var r Rules
	if err := yaml.UnmarshalWithOptions(data, &r, yaml.Strict()); err != nil {
		return nil, errors.New(yaml.FormatError(err, false, false))
	}
	lines, err := ruleLines(data)
	if err != nil {
		return nil, err
	}
	for i := range r.Rules {
		if i < len(lines) {
			r.Rules[i].line = lines[i]
		}
	}
	return &r, r.prepare()
}

// NewRules checks and normalises rules held as data (an agent's settings) as ParseRules
// does a file's; an error names the rule by its position.
func NewRules(rules []Rule) (*Rules, error) {
	r := &Rules{Rules: make([]Rule, len(rules))}
	for i, rule := range rules {
		r.Rules[i] = Rule{Action: rule.Action, From: append([]string(nil), rule.From...), Phrases: append([]string(nil), rule.Phrases...)}
	}
	return r, r.prepare()
}

// prepare checks each rule and folds its globs and phrases to the case and form the
// matcher compares.
func (r *Rules) prepare() error {
	for i := range r.Rules {
		rule := &r.Rules[i]
		if err := rule.check(); err != nil {
			if rule.line > 0 {
				return fmt.Errorf("line %d: rule %d: %w", rule.line, i+1, err)
			}
			return fmt.Errorf("rule %d: %w", i+1, err)
		}
		for j, g := range rule.From {
			rule.From[j] = strings.ToLower(strings.TrimSpace(g))
		}
		for j, p := range rule.Phrases {
			rule.Phrases[j] = strings.ToLower(text.CollapseSpace(text.Normalize(p)))
		}
	}
	return nil
}

// ruleLines is the line where each rule of the file starts, for error messages.
func ruleLines(data []byte) ([]int, error) {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, errors.New(yaml.FormatError(err, false, false))
	}
	p, err := yaml.PathString("$.rules")
	if err != nil {
		return nil, err
	}
	node, err := p.FilterFile(f)
	if err != nil {
		return nil, nil // no rules key: an empty list, nothing to point at
	}
	seq, ok := node.(*ast.SequenceNode)
	if !ok {
		return nil, fmt.Errorf("line %d: \"rules\" must be a list", node.GetToken().Position.Line)
	}
	lines := make([]int, len(seq.Values))
	for i, v := range seq.Values {
		lines[i] = v.GetToken().Position.Line
	}
	return lines, nil
}

func (r *Rule) check() error {
	switch r.Action {
	case ActionBlock, ActionReview, ActionAllow:
	case "":
		return errors.New(`"action" is required: block, review or allow`)
	default:
		return fmt.Errorf(`"action" is %q: use block, review or allow`, r.Action)
	}
	if len(r.From) == 0 && len(r.Phrases) == 0 {
		return errors.New(`needs "from" globs or "phrases", or it can never match`)
	}
	for _, g := range r.From {
		if strings.TrimSpace(g) == "" {
			return errors.New(`"from" has an empty glob`)
		}
		if _, err := path.Match(strings.ToLower(g), ""); err != nil {
			return fmt.Errorf(`"from" glob %q: %w`, g, err)
		}
	}
	for _, p := range r.Phrases {
		if strings.TrimSpace(p) == "" {
			return errors.New(`"phrases" has an empty phrase`)
		}
	}
	return nil
}

// Match returns the first rule that matches m, or nil. The reason names what matched,
// never the message text around it. Sender, subject and body are read in their
// normalised form (text.Normalize), so a phrase hidden by a zero-width character, a soft
// hyphen or a look-alike letter still matches.
func (rs *Rules) Match(m *Message) (*Rule, string) {
	if rs == nil {
		return nil, ""
	}
	sender := strings.ToLower(strings.TrimSpace(text.Normalize(m.From.Email)))
	mail := strings.ToLower(text.CollapseSpace(text.Normalize(m.Subject + "\n" + m.Body)))
	for i := range rs.Rules {
		r := &rs.Rules[i]
		for _, g := range r.From {
			if ok, _ := path.Match(g, sender); ok {
				return r, fmt.Sprintf("%s rule %d (line %d): sender matches %q", r.Action, i+1, r.line, g)
			}
		}
		for _, p := range r.Phrases {
			if strings.Contains(mail, p) {
				return r, fmt.Sprintf("%s rule %d (line %d): phrase %q", r.Action, i+1, r.line, p)
			}
		}
	}
	return nil, ""
}
