// Package rubric is the draft-quality rubric: the case study's five criteria (forbidden
// phrases, human-sounding, brand vocabulary, formatting, tone) read from a YAML file and
// scored on every draft. Code scores what code can, each criterion from 0 to 1 with the
// offending spans named; human-sounding, and a second reading of tone, need a judge model
// and are added by the caller when one is configured (Result.AddModel). A criterion
// nothing scored says so instead of carrying a number.
package rubric

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/goccy/go-yaml"
)

// The five criteria, in the order reports show them.
const (
	ForbiddenPhrases = "forbidden_phrases"
	HumanSounding    = "human_sounding"
	BrandVocabulary  = "brand_vocabulary"
	Formatting       = "formatting"
	Tone             = "tone"
)

// Criteria lists the five criteria in report order.
var Criteria = []string{ForbiddenPhrases, HumanSounding, BrandVocabulary, Formatting, Tone}

// Rubric is one rubric file.
type Rubric struct {
	Name             string       `yaml:"name"`
	Version          int          `yaml:"version"`
	ForbiddenPhrases []string     `yaml:"forbidden_phrases"`
	HumanSounding    Guidance     `yaml:"human_sounding"`
	BrandVocabulary  []Term       `yaml:"brand_vocabulary"`
	Formatting       FormatRules  `yaml:"formatting"`
	Tone             ToneMarkers  `yaml:"tone"`
	file             string       // where it was read from, for errors and reports
	phrases          []phrase     // ForbiddenPhrases, tokenized
	terms            []termPhrase // BrandVocabulary's banned forms, tokenized
	preferred        []phrase     // BrandVocabulary's preferred forms, tokenized
	avoid            []phrase     // Tone.Avoid, tokenized
	greetings        []phrase
	signOffs         []phrase
}

// Guidance is what the judge model is told a criterion means; code does not score it.
type Guidance struct {
	Guidance string `yaml:"guidance"`
}

// Term is one word of the company's vocabulary: the form to use and the forms not to.
type Term struct {
	Preferred string   `yaml:"preferred"`
	Banned    []string `yaml:"banned"`
}

// FormatRules are the layout rules a reply is held to; a zero value turns a rule off.
type FormatRules struct {
	// Greetings: the reply's first line starts with one of them.
	Greetings []string `yaml:"greetings"`
	// SignOffs: the reply's last paragraph starts with one of them.
	SignOffs []string `yaml:"sign_offs"`
	// MaxSentenceWords: no sentence longer than this many words.
	MaxSentenceWords int `yaml:"max_sentence_words"`
	// MaxParagraphSentences: no paragraph with more sentences than this.
	MaxParagraphSentences int `yaml:"max_paragraph_sentences"`
	// MaxExclamations: at most this many exclamation marks in the reply; nil turns the rule off.
	MaxExclamations *int `yaml:"max_exclamations"`
	// NoShouting: no word of five letters or more written in capitals.
	NoShouting bool `yaml:"no_shouting"`
	// NoMarkdown: no Markdown headings, bold or tables, which a help desk shows as symbols.
	NoMarkdown bool `yaml:"no_markdown"`
}

// ToneMarkers are the phrases that mark a tone the team does not use, and what the judge
// model is told the tone should be.
type ToneMarkers struct {
	Guidance string   `yaml:"guidance"`
	Avoid    []string `yaml:"avoid"`
}

//go:embed default.yaml
var defaultYAML []byte

// Default is the embedded rubric that fits the billing samples.
func Default() *Rubric {
	r, err := Parse("default.yaml (embedded)", defaultYAML)
	if err != nil {
		panic(err) // the embedded file is tested
	}
	return r
}

// Load reads the rubric at path; an empty path is the embedded default. It is a function
// of a path alone, so a setting (SUPPORTDRAFT_RUBRIC) or an agent's own file can name one.
func Load(path string) (*Rubric, error) {
	if path == "" {
		return Default(), nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("rubric %s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse reads a rubric file's contents strictly: an unknown key, a value of the wrong
// type, an empty phrase or a rule that cannot hold is refused with the file and the field
// named, so a typo cannot silently turn a rule off.
func Parse(file string, data []byte) (*Rubric, error) {
	var r Rubric
	if err := yaml.UnmarshalWithOptions(data, &r, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("rubric %s: %s%s", file, yaml.FormatError(err, false, false), sourceLine(data, err))
	}
	r.file = file
	if err := r.compile(); err != nil {
		return nil, fmt.Errorf("rubric %s: %w", file, err)
	}
	return &r, nil
}

// sourceLine quotes the line a YAML error points at ("[3:23] cannot unmarshal …"): the
// decoder names the Go type, the line names the field as the file spells it.
func sourceLine(data []byte, err error) string {
	var line int
	if _, scanErr := fmt.Sscanf(err.Error(), "[%d:", &line); scanErr != nil || line < 1 {
		return ""
	}
	lines := strings.Split(string(data), "\n")
	if line > len(lines) {
		return ""
	}
	return fmt.Sprintf(" (line %d: %q)", line, strings.TrimSpace(lines[line-1]))
}

// File is where the rubric was read from.
func (r *Rubric) File() string { return r.file }

// ID names the rubric and its version, as a scored draft records it.
func (r *Rubric) ID() string { return fmt.Sprintf("%s@%d", r.Name, r.Version) }

func (r *Rubric) compile() error {
	if strings.TrimSpace(r.Name) == "" {
		return errors.New(`field "name": required`)
	}
	if r.Version < 0 {
		return fmt.Errorf(`field "version": %d is negative`, r.Version)
	}
	var err error
	if r.phrases, err = phrases("forbidden_phrases", r.ForbiddenPhrases); err != nil {
		return err
	}
	if r.avoid, err = phrases("tone.avoid", r.Tone.Avoid); err != nil {
		return err
	}
	if r.greetings, err = phrases("formatting.greetings", r.Formatting.Greetings); err != nil {
		return err
	}
	if r.signOffs, err = phrases("formatting.sign_offs", r.Formatting.SignOffs); err != nil {
		return err
	}
	for i, t := range r.BrandVocabulary {
		field := fmt.Sprintf("brand_vocabulary[%d]", i)
		pref, err := newPhrase(t.Preferred)
		if err != nil {
			return fmt.Errorf("field %q: preferred: %w", field+".preferred", err)
		}
		for _, b := range t.Banned {
			// A term whose banned forms differ from it only in case is counted as written.
			if ban, err := newPhrase(b); err == nil && sameWords(ban, pref) {
				pref.exact = true
			}
		}
		r.preferred = append(r.preferred, pref)
		if len(t.Banned) == 0 {
			return fmt.Errorf("field %q: list at least one form not to use instead of %q", field+".banned", t.Preferred)
		}
		for j, b := range t.Banned {
			bf := fmt.Sprintf("%s.banned[%d]", field, j)
			ban, err := newPhrase(b)
			if err != nil {
				return fmt.Errorf("field %q: %w", bf, err)
			}
			// A banned form that differs from the preferred one only in case ("SupportDraft"
			// for "Supportdraft") is matched as written; any other ignores case.
			ban.exact = sameWords(ban, pref)
			if ban.exact && b == t.Preferred {
				return fmt.Errorf("field %q: %q is also the preferred form", bf, b)
			}
			r.terms = append(r.terms, termPhrase{phrase: ban, preferred: strings.TrimSpace(t.Preferred)})
		}
	}
	f := r.Formatting
	for field, v := range map[string]int{"formatting.max_sentence_words": f.MaxSentenceWords, "formatting.max_paragraph_sentences": f.MaxParagraphSentences} {
		if v < 0 {
			return fmt.Errorf("field %q: %d is negative (0 turns the rule off)", field, v)
		}
	}
	if f.MaxExclamations != nil && *f.MaxExclamations < 0 {
		return fmt.Errorf(`field "formatting.max_exclamations": %d is negative (leave it out to turn the rule off)`, *f.MaxExclamations)
	}
	return nil
}

func phrases(field string, list []string) ([]phrase, error) {
	out := make([]phrase, 0, len(list))
	for i, s := range list {
		p, err := newPhrase(s)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", fmt.Sprintf("%s[%d]", field, i), err)
		}
		out = append(out, p)
	}
	return out, nil
}
