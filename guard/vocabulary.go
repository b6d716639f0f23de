package guard

import (
	_ "embed"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/supportdraft/supportdraft/text"
	"github.com/supportdraft/supportdraft/text/memo"
)

// defaultVocabulary is the commitment vocabulary every Vocabulary starts from. It is a
// data file rather than code so that support operations can read and extend it.
//
//go:embed vocabulary.txt
var defaultVocabulary string

// Kind is a class of commitment language.
type Kind string

// The kinds of commitment a draft may not make without a source. Each binds the company
// in a way a support agent cannot undo once the reply is sent.
const (
	KindNumber      Kind = "number"      // numbers, durations, money, percentages
	KindCommercial  Kind = "commercial"  // refund, credit, waive, cancel, extend, delete, suspend, …
	KindEligibility Kind = "eligibility" // "your plan includes", "you qualify for"
	KindFuture      Kind = "future"      // "will be fixed", "in the next release"
	KindLegal       Kind = "legal"       // "statutory right", "under EU law"
	KindTiming      Kind = "timing"      // "immediately", "at the end of the period"
)

// kindExcept marks vocabulary entries that are never flagged and hide the entries that
// start inside them, such as "credit card" in a billing reply.
const kindExcept Kind = "except"

// kindCourtesy marks what an agent says it will do about the ticket itself ("look into",
// "get back to you"): right after a future entry, it makes that entry no promise, so "I'll
// look into this" is not held to policy while "I'll waive the fee" is.
const kindCourtesy Kind = "courtesy"

// kindOrder is the order in which kinds are reported.
var kindOrder = []Kind{KindNumber, KindTiming, KindCommercial, KindEligibility, KindFuture, KindLegal}

// Flag is one piece of commitment language found in a sentence.
type Flag struct {
	Kind  Kind
	Match string // the text as written in the sentence
}

// Vocabulary is a set of commitment phrases and stems. It is read-only once built and
// safe for concurrent use.
type Vocabulary struct {
	byFirst  map[rune][]entry        // entries by the folded first rune, so a word start tries few
	courtesy []entry                 // kindCourtesy entries
	subjects map[rune][]subjectEntry // what a commitment can be about (subjects.txt), by first letter
	// read remembers each source as readSources read it, for up to 2 MB of source text
	// (a source's reading holds several times its text): reading sources was most of a
	// Check, and the same chunks back draft after draft. Shared; read-only once stored.
	read *memo.Cache[checkedSource]
}

// entry is one line of a vocabulary file.
type entry struct {
	kind      Kind
	phrase    string // folded (see fold) and single-spaced
	canonical string // the commercial verb it stands for
	whole     bool   // matches a whole word only: "will" but not "willing"
	// objects, when set, make the entry a verb that is commercial only with what it acts
	// on, or a day that is a timing only of what happens to a refund, charge or plan ("your
	// refund will reach your card today", not "thanks for writing today"): one of these
	// stems must start a word near it in its clause (objectNear).
	objects []string
}

// vocabMatch is one entry found in a text, at text[start:end].
type vocabMatch struct {
	entry
	start, end int
}

// DefaultVocabulary returns the embedded vocabulary.
func DefaultVocabulary() (*Vocabulary, error) {
	v := &Vocabulary{byFirst: make(map[rune][]entry), read: memo.New[checkedSource](2 << 20)}
	if err := v.add(defaultVocabulary, "embedded vocabulary.txt"); err != nil {
		return nil, err
	}
	subjects, err := parseSubjects(defaultSubjects, "embedded subjects.txt")
	if err != nil {
		return nil, err
	}
	v.subjects = map[rune][]subjectEntry{}
	for _, e := range subjects {
		first := firstRune(e.words[0])
		v.subjects[first] = append(v.subjects[first], e)
	}
	return v, nil
}

// LoadVocabulary returns the embedded vocabulary extended with the entries of the file
// at path, which has the same format. Extending rather than replacing means a local file
// can add a team's own promises without ever dropping the defaults.
func LoadVocabulary(path string) (*Vocabulary, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load vocabulary: %w", err)
	}
	v, err := DefaultVocabulary()
	if err != nil {
		return nil, err
	}
	if err := v.add(string(data), path); err != nil {
		return nil, err
	}
	return v, nil
}

// add parses vocabulary lines from data, read from the file called name, into v.
func (v *Vocabulary) add(data, name string) error {
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimRight(line, "\r")
		if trimmed := strings.TrimSpace(line); trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) < 2 || len(fields) > 3 {
			return fmt.Errorf("vocabulary %s line %d: want kind<TAB>phrase[<TAB>canonical], got %q", name, n+1, line)
		}
		kind := Kind(strings.TrimSpace(fields[0]))
		if kind != kindExcept && kind != kindCourtesy && !slices.Contains(kindOrder, kind) {
			return fmt.Errorf("vocabulary %s line %d: unknown kind %q; use number, timing, commercial, eligibility, future, legal, except or courtesy", name, n+1, kind)
		}
		verb, objects, acts := strings.Cut(fields[1], "…")
		phrase, whole := strings.CutSuffix(text.Fold(strings.TrimSpace(verb)), "$")
		var objectStems []string
		if acts {
			for _, o := range strings.Split(objects, "|") {
				if o = text.Fold(strings.TrimSpace(o)); o != "" {
					objectStems = append(objectStems, o)
				}
			}
			if kind != KindCommercial && kind != KindTiming {
				return fmt.Errorf("vocabulary %s line %d: %q: only a commercial or timing entry may name what it acts on (VERB … OBJECT|OBJECT)", name, n+1, fields[1])
			}
			if len(objectStems) == 0 {
				return fmt.Errorf("vocabulary %s line %d: %q: name at least one object after …", name, n+1, fields[1])
			}
		}
		first, _ := utf8.DecodeRuneInString(phrase)
		if !isWordRune(first) {
			return fmt.Errorf("vocabulary %s line %d: phrase %q must start with a letter or digit", name, n+1, fields[1])
		}
		if kind == kindCourtesy {
			v.courtesy = append(v.courtesy, entry{kind: kind, phrase: phrase, whole: whole})
			continue
		}
		canonical := phrase
		if len(fields) == 3 && strings.TrimSpace(fields[2]) != "" {
			canonical = strings.ToLower(strings.TrimSpace(fields[2]))
		}
		v.byFirst[first] = append(v.byFirst[first], entry{kind: kind, phrase: phrase, canonical: canonical, whole: whole, objects: objectStems})
	}
	return nil
}

// Flags returns the commitment language in sentence: first every quantity (as number
// flags), then the vocabulary matches in order of appearance.
func (v *Vocabulary) Flags(sentence string) []Flag {
	return v.analyse(sentence).flags
}

// Verbs returns the canonical commercial verbs in text, sorted and without repeats. A
// sentence that says "waive" needs a source that says "waive" too; a source about
// refunds does not back a waiver.
func (v *Vocabulary) Verbs(text string) []string {
	return v.analyse(text).verbs
}

// analysis is what the guard needs to know about one sentence or source text.
type analysis struct {
	flags []Flag
	keys  []string    // Key of every quantity, without repeats, in order of appearance
	quals []qualifier // how each of keys is bound and what period it is a rate per (bounds.go)
	// restated are how the text states a quantity again after its first time, by key: a
	// source may state one number twice, bounded differently ("a limit of 50 tokens … if
	// you have more than 50 sites"), and either statement can back a sentence.
	restated map[string][]qualifier
	// timings are when things happen in words, canonical ("immediately", "at the end of
	// the period"): the source a sentence rests on must say the same somewhere.
	timings []string
	verbs   []string // canonical commercial verbs, sorted, without repeats
	// affirmed and negated split verbs by polarity: "we refund" affirms refund, "we do not
	// refund" negates it. A text that says both has the verb in both.
	affirmed, negated []string
	// conditions are the verbs said only as the condition of something else ("after you
	// cancel", "wenn Sie kündigen"): when it happens, not what the company commits to.
	conditions []string
}

// analyse reads s in its normalised form (text.Normalize), so a commitment disguised
// with invisible characters or look-alike letters is flagged like the plain one.
func (v *Vocabulary) analyse(s string) analysis {
	s = text.Normalize(s)
	var a analysis
	from := 0
	dates := pastDates(s)
	for _, q := range text.Quantities(s) {
		start := from + max(strings.Index(s[from:], q.Text), 0)
		from = start + len(q.Text)
		if within(dates, start) {
			continue
		}
		a.flags = append(a.flags, Flag{Kind: KindNumber, Match: q.Text})
		k := q.Key()
		if !slices.Contains(a.keys, k) {
			a.keys = append(a.keys, k)
			a.quals = append(a.quals, qualify(s, start, from, q.IsDuration()))
			continue
		}
		if a.restated == nil {
			a.restated = map[string][]qualifier{}
		}
		a.restated[k] = append(a.restated[k], qualify(s, start, from, q.IsDuration()))
	}
	var words []scoped // read once, at the first commercial verb or timing
	var stated, conditional []string
	for _, m := range v.matches(s) {
		a.flags = append(a.flags, Flag{Kind: m.kind, Match: s[m.start:m.end]})
		if m.kind != KindCommercial && m.kind != KindTiming {
			continue
		}
		// A timing denied ("your data is not deleted immediately") says when a thing does
		// not happen: it backs no sentence that says it does. ("Stops immediately" denies
		// nothing of the timing: only a clause negator before it does.)
		denied := m.kind == KindTiming && deniedInClause(s, m.start)
		if words == nil && (m.kind == KindCommercial || denied) {
			words = scopedWords(s)
		}
		if m.kind == KindTiming {
			if !denied || !negatedAt(words, m.start) {
				a.timings = appendNew(a.timings, m.canonical)
			}
			continue
		}
		a.verbs = appendNew(a.verbs, m.canonical)
		if negatedAt(words, m.start) {
			a.negated = appendNew(a.negated, m.canonical)
		} else {
			a.affirmed = appendNew(a.affirmed, m.canonical)
		}
		if inCondition(s, m.start) {
			conditional = appendNew(conditional, m.canonical)
		} else {
			stated = appendNew(stated, m.canonical)
		}
	}
	// A condition is excused from its unit only beside something else that binds the
	// sentence to one: "data is lost when you cancel" has nothing else to bind.
	for _, verb := range conditional {
		if !slices.Contains(stated, verb) && len(a.keys)+len(stated) > 0 {
			a.conditions = append(a.conditions, verb)
		}
	}
	slices.Sort(a.verbs)
	return a
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// matches returns the longest entry that matches at each word start of body, widened to
// the end of the word it ends in, leaving out except entries and whatever starts inside one,
// future entries a courtesy phrase follows, and verbs none of whose objects stands near.
func (v *Vocabulary) matches(body string) []vocabMatch {
	var out []vocabMatch
	hiddenUntil := 0
	prev := ' '
	for i := 0; i < len(body); {
		r, size := utf8.DecodeRuneInString(body[i:])
		if isWordRune(r) && !isWordRune(prev) {
			var best vocabMatch
			for _, e := range v.byFirst[text.FoldRune(r)] {
				n, ok := hasPrefixFold(body[i:], e.phrase)
				switch {
				case !ok || e.whole && wordRest(body[i+n:]) > 0:
				case e.objects != nil && !objectNear(body, i, i+n, e.objects):
				case e.kind == kindExcept:
					hiddenUntil = max(hiddenUntil, i+n)
				case n > best.end-best.start:
					best = vocabMatch{entry: e, start: i, end: i + n}
				}
			}
			// A match inside a longer one of the same kind is that one's word: "includes" of
			// "your plan includes" is one flag, not two.
			inside := len(out) > 0 && out[len(out)-1].kind == best.kind && i < out[len(out)-1].end
			if best.end > 0 && i >= hiddenUntil && !inside && !(best.kind == KindFuture && v.courtesyAt(body[best.end:])) {
				best.end += wordRest(body[best.end:])
				out = append(out, best)
			}
		}
		prev = r
		i += size
	}
	return out
}

// objectReach is how many words from a verb its object may stand: "stopped all future
// charges", and in the passive "the late fee has been removed".
const objectReach = 5

// objectNear reports whether one of objects starts a word within objectReach words before
// or after the verb at body[start:end], with no clause break between, so "removed the late
// fee" is a waiver while "removed the old card, and the fee" is not.
func objectNear(body string, start, end int, objects []string) bool {
	from := strings.LastIndexAny(body[:start], clauseBreaks) + 1
	to := len(body)
	end += wordRest(body[end:])
	if i := strings.IndexAny(body[end:], clauseBreaks); i >= 0 {
		to = end + i
	}
	before, after := wordStarts(body[from:start]), wordStarts(body[end:to])
	near := before[max(len(before)-objectReach, 0):]
	for i := range near {
		near[i] += from
	}
	for _, at := range after[:min(len(after), objectReach)] {
		near = append(near, end+at)
	}
	for _, at := range near {
		for _, object := range objects {
			if _, ok := hasPrefixFold(body[at:to], object); ok {
				return true
			}
		}
	}
	return false
}

// wordStarts returns where each word of s starts.
func wordStarts(s string) []int {
	var starts []int
	prev := ' '
	for i, r := range s {
		if isWordRune(r) && !isWordRune(prev) {
			starts = append(starts, i)
		}
		prev = r
	}
	return starts
}

// courtesyAt reports whether the next word of s starts a courtesy phrase.
func (v *Vocabulary) courtesyAt(s string) bool {
	s = strings.TrimLeftFunc(s[wordRest(s):], unicode.IsSpace)
	for _, e := range v.courtesy {
		if n, ok := hasPrefixFold(s, e.phrase); ok && !(e.whole && wordRest(s[n:]) > 0) {
			return true
		}
	}
	return false
}

// hasPrefixFold reports whether s starts with phrase, which is already folded, comparing
// s folded rune by rune and letting a space in phrase stand for any run of white space in
// s. It returns how many bytes of s matched. ASCII takes a byte-wise path because this
// runs at every word start of every sentence and source.
func hasPrefixFold(s, phrase string) (int, bool) {
	n := 0
	for k := 0; k < len(phrase); {
		switch p := phrase[k]; {
		case p == ' ':
			rest := strings.TrimLeftFunc(s[n:], unicode.IsSpace)
			if len(rest) == len(s[n:]) {
				return 0, false
			}
			n, k = len(s)-len(rest), k+1
		case n == len(s):
			return 0, false
		case p < utf8.RuneSelf && s[n] < utf8.RuneSelf:
			if text.FoldRune(rune(s[n])) != rune(p) {
				return 0, false
			}
			n, k = n+1, k+1
		default:
			want, wantSize := utf8.DecodeRuneInString(phrase[k:])
			r, size := utf8.DecodeRuneInString(s[n:])
			if text.FoldRune(r) != want {
				return 0, false
			}
			n, k = n+size, k+wantSize
		}
	}
	return n, true
}

// wordRest returns the length of the word characters that start s, so that a stem's match
// reports the whole word ("refundable", not "refund").
func wordRest(s string) int {
	if i := strings.IndexFunc(s, func(r rune) bool { return !isWordRune(r) }); i >= 0 {
		return i
	}
	return len(s)
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		lower := r | 0x20
		return 'a' <= lower && lower <= 'z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
