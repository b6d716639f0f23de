package guard

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/supportdraft/supportdraft/text"
)

// defaultSubjects is the subject vocabulary: what a commitment can be about.
//
//go:embed subjects.txt
var defaultSubjects string

// classPlanName is the class of the plan and product names read from the sources,
// classProperName that of their other proper names (properNames), and classRegion that of
// the region terms of subjects.txt.
const (
	classPlanName   = "name"
	classProperName = "proper"
	classRegion     = "region"
)

// subjectEntry is one line of subjects.txt.
type subjectEntry struct {
	words     []string // lower case; the last one matches as a stem
	class     string
	canonical string
	// exact entries were written with a capital letter and match only a word written
	// exactly so: "US" is a country where "us" is a pronoun.
	exact bool
}

// parseSubjects reads subjects.txt lines.
func parseSubjects(data, name string) ([]subjectEntry, error) {
	var out []subjectEntry
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimRight(line, "\r")
		if trimmed := strings.TrimSpace(line); trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 || strings.TrimSpace(fields[1]) == "" {
			return nil, fmt.Errorf("subjects %s line %d: want class<TAB>stem<TAB>canonical, got %q", name, n+1, line)
		}
		e := subjectEntry{words: wordsOf(strings.ToLower(fields[1])), class: strings.TrimSpace(fields[0]),
			canonical: strings.TrimSpace(fields[2])}
		if fields[1] != strings.ToLower(fields[1]) {
			e.words, e.exact = wordsOf(fields[1]), true
		}
		out = append(out, e)
	}
	return out, nil
}

// word is one word of a text, as written.
type word struct {
	text, lower string
}

// wordsOf splits s into words of letters and digits (hyphens and apostrophes split too,
// so "Team-Jahresplan" is "Team" and "Jahresplan").
func wordsOf(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func wordTokens(s string) []word {
	words := wordsOf(s)
	out := make([]word, len(words))
	for i, w := range words {
		out[i] = word{text: w, lower: strings.ToLower(w)}
	}
	return out
}

// inflections are the endings a stem shorter than five letters may take and still name
// the same thing: "seat" is "seats", but "fee" is not "feel".
var inflections = []string{"", "s", "es", "e", "en", "er", "n", "ies"}

// stemMatches reports whether word is stem, inflected, or (for stems of five letters or
// more) a compound that starts with it.
func stemMatches(word, stem string) bool {
	if !strings.HasPrefix(word, stem) {
		return false
	}
	return len([]rune(stem)) >= 5 || slices.Contains(inflections, word[len(stem):])
}

// planWords follow a plan or product name: "the Pro plan", "Enterprise contracts".
var planWords = []string{"plan", "plans", "tier", "tiers", "contract", "contracts", "subscription",
	"subscriptions", "edition", "tarif", "tarife", "vertrag", "abo"}

// mentionsPlanWord reports, cheaply, whether s may hold a plan word: most sentences do
// not, and need no search for plan names.
func mentionsPlanWord(s string) bool {
	lower := strings.ToLower(s)
	return strings.Contains(lower, "plan") || strings.Contains(lower, "pläne") ||
		slices.ContainsFunc(planWords, func(w string) bool { return strings.Contains(lower, w) })
}

func isPlanWord(w string) bool {
	return slices.Contains(planWords, w) || strings.HasSuffix(w, "plan") || strings.HasSuffix(w, "pläne")
}

// planNames reads the plan and product names of the sources: a capitalised word, not a
// stopword or a subject of subjects.txt, at most three words before a plan word ("Solo or
// Team plan"). Plan names differ from one company to the next, so they come from the
// policy, not from a list.
func (v *Vocabulary) planNames(texts []string) map[string]string {
	names := map[string]string{}
	for _, t := range texts {
		toks := wordTokens(t)
		for i, t := range toks {
			if !isCapitalised(t.text) || text.IsStopword(t.lower) || v.subjectAt(toks, i) != nil {
				continue
			}
			// Within three words of the plan word, or further when "and" or "or" joins it to
			// the names before the plan word ("the Everyday and Unlimited Plus plans").
			joined := i+1 < len(toks) && joins[toks[i+1].lower]
			for j := i + 1; j < len(toks); j++ {
				if isPlanWord(toks[j].lower) {
					names[t.lower] = classPlanName
					break
				}
				if j >= i+3 && !(joined && (isCapitalised(toks[j].text) && !text.IsStopword(toks[j].lower) || joins[toks[j].lower])) {
					break
				}
			}
		}
	}
	return names
}

// joins join plan names in a run: "Solo, Team and Business plans".
var joins = map[string]bool{"and": true, "or": true, "und": true, "oder": true}

// properNames adds to names (planNames) the other proper names of the sources: a word
// written capitalised after a sentence's first word and never in lower case anywhere in
// them, neither a stopword nor a subject term ("Germany", "Visa", "PayPal"). A number
// stated of one of them is not stated of another: "Customers in Austria pay 19% VAT" is
// not backed by "Customers in Germany pay 19% VAT". German text capitalises every noun, so
// only the other sources name them.
func (v *Vocabulary) properNames(texts []string, names map[string]string) map[string]string {
	lower, capitalised := map[string]bool{}, map[string]bool{}
	for _, t := range texts {
		german := text.LooksGerman(t)
		for _, line := range strings.Split(t, "\n") {
			for _, s := range text.Split(line) {
				toks := wordTokens(s.Text)
				for i, w := range toks {
					switch {
					case !isCapitalised(w.text):
						lower[w.lower] = true
					case i > 0 && !german && !text.IsStopword(w.lower) && v.subjectAt(toks, i) == nil && len([]rune(w.lower)) > 1 &&
						!isNumeric(toks[i-1].lower) && toks[i-1].lower != "per": // "50 GB", "per GB": a unit, not a name
						capitalised[w.lower] = true
					}
				}
			}
		}
	}
	for w := range capitalised {
		if _, plan := names[w]; !plan && !lower[w] {
			names[w] = classProperName
		}
	}
	return names
}

func isCapitalised(w string) bool {
	for _, r := range w {
		return unicode.IsUpper(r)
	}
	return false
}

// subjectAt returns the subject entry that matches at toks[i], or nil.
func (v *Vocabulary) subjectAt(toks []word, i int) *subjectEntry {
	entries := v.subjects[firstRune(toks[i].lower)]
	for k := range entries {
		e := &entries[k]
		if i+len(e.words) > len(toks) {
			continue
		}
		ok := true
		for j, w := range e.words {
			if !e.wordMatches(toks[i+j], w, j == len(e.words)-1) {
				ok = false
				break
			}
		}
		if ok {
			return e
		}
	}
	return nil
}

// firstRune is the first letter of w, lower case: subject entries are looked up by it.
func firstRune(w string) rune {
	for _, r := range w {
		return unicode.ToLower(r)
	}
	return 0
}

// wordMatches reports whether t is the entry's word w: as written for an exact entry, as
// a stem for its last word, else the same word in lower case.
func (e *subjectEntry) wordMatches(t word, w string, last bool) bool {
	switch {
	case e.exact:
		return t.text == w
	case last:
		return stemMatches(t.lower, w)
	}
	return t.lower == w
}

// subjects maps the canonical subject terms of text to their class. A plan name counts
// only where it is capitalised, so "10 business days" is not about the Business plan, and
// a term after "per" is what a price is counted in, not what it is about: "€28 per seat"
// is about the plan (bounds.go reads the "per").
func (v *Vocabulary) subjectsOf(s string, names map[string]string) map[string]string {
	out := map[string]string{}
	toks := wordTokens(s)
	for i, t := range toks {
		if i > 0 && toks[i-1].lower == "per" {
			continue
		}
		if e := v.subjectAt(toks, i); e != nil {
			out[e.canonical] = e.class
			continue
		}
		if class := names[t.lower]; class != "" && isCapitalised(t.text) {
			out[t.lower] = class
		}
	}
	for _, n := range numberedNames(s, names) {
		out[n] = names[strings.Fields(n)[0]]
	}
	return out
}

// contentWords are the content stems of s (package text: no stopwords, no numbers, German
// read as English) of three letters or more: what a paraphrase must share with its source.
func contentWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, st := range text.ContentStems(s) {
		if len([]rune(st)) >= 3 {
			out[st] = true
		}
	}
	return out
}
