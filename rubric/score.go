package rubric

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/supportdraft/supportdraft/text"
)

// Result is a reply's score on each of the five criteria, with the rubric that gave it.
type Result struct {
	Rubric string  `json:"rubric"` // the rubric's ID, name@version
	Scores []Score `json:"scores"`
}

// Score is one criterion's reading of a reply. Score is nil when nothing scored the
// criterion, and NotScored then says why: a missing number is never shown as a good one.
type Score struct {
	Criterion string    `json:"criterion"`
	Score     *float64  `json:"score"`
	By        string    `json:"by,omitempty"` // code, model, or code+model
	Findings  []Finding `json:"findings,omitempty"`
	NotScored string    `json:"not_scored,omitempty"`
}

// Finding is one thing a criterion holds against a reply: the rule and, when code found
// it, the span of the reply that breaks it (reply[Start:End] == Span).
type Finding struct {
	Rule  string `json:"rule"`
	Span  string `json:"span,omitempty"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// Scorers of a criterion.
const (
	ByCode      = "code"
	ByModel     = "model"
	ByCodeModel = "code+model"
)

// Get returns the criterion's score, or nil when the result has none (a draft saved
// before the rubric existed).
func (r *Result) Get(criterion string) *Score {
	if r == nil {
		return nil
	}
	for i := range r.Scores {
		if r.Scores[i].Criterion == criterion {
			return &r.Scores[i]
		}
	}
	return nil
}

// AddModel joins a judge model's reading of a criterion (human-sounding, tone) to the
// result. Where code scored the criterion too, the lower of the two stands, since either
// reading is a reason for the reviewer to look; the model's reason becomes a finding.
func (r *Result) AddModel(criterion string, score float64, reason string) {
	s := r.Get(criterion)
	if s == nil {
		return
	}
	if score != score || score < 0 { // NaN counts as nothing
		score = 0
	}
	score = min(score, 1)
	switch {
	case s.Score == nil:
		s.Score, s.By = &score, ByModel
	default:
		low := min(*s.Score, score)
		s.Score, s.By = &low, ByCodeModel
	}
	s.NotScored = ""
	if reason = strings.TrimSpace(reason); reason != "" {
		s.Findings = append(s.Findings, Finding{Rule: "judge model: " + reason})
	}
}

// Score reads reply against the rubric in code: forbidden phrases, brand vocabulary,
// formatting and tone markers. Human-sounding is left unscored, for a judge model.
func (r *Rubric) Score(reply string) Result {
	words := text.WordSpans(reply)
	sentences := text.Split(reply)
	return Result{Rubric: r.ID(), Scores: []Score{
		r.forbidden(reply, words),
		{Criterion: HumanSounding, NotScored: "code cannot tell whether a reply sounds human; a judge model scores it (SUPPORTDRAFT_PROVIDER=openai)"},
		r.vocabulary(reply, words),
		r.formatting(reply, sentences),
		r.tone(reply, sentences),
	}}
}

// scored is a criterion code scored, its findings in the order they stand in the reply.
func scored(criterion string, v float64, findings []Finding) Score {
	slices.SortStableFunc(findings, func(a, b Finding) int { return a.Start - b.Start })
	return Score{Criterion: criterion, Score: &v, By: ByCode, Findings: findings}
}

// forbidden scores 0 when any forbidden phrase is in the reply: one is enough to stop it.
func (r *Rubric) forbidden(reply string, words []text.WordSpan) Score {
	if len(r.phrases) == 0 {
		return Score{Criterion: ForbiddenPhrases, NotScored: "the rubric lists no forbidden phrases"}
	}
	var found []Finding
	for _, p := range r.phrases {
		for _, m := range p.find(reply, words) {
			found = append(found, Finding{Rule: fmt.Sprintf("forbidden phrase %q", p.text), Span: reply[m[0]:m[1]], Start: m[0], End: m[1]})
		}
	}
	if len(found) > 0 {
		return scored(ForbiddenPhrases, 0, found)
	}
	return scored(ForbiddenPhrases, 1, nil)
}

// vocabulary scores the share of the vocabulary's uses in the reply that are the
// preferred form; a reply that uses none of its words scores 1.
func (r *Rubric) vocabulary(reply string, words []text.WordSpan) Score {
	if len(r.terms) == 0 {
		return Score{Criterion: BrandVocabulary, NotScored: "the rubric lists no brand vocabulary"}
	}
	var found []Finding
	preferred := 0
	for _, p := range r.preferred {
		preferred += len(p.find(reply, words))
	}
	for _, t := range r.terms {
		for _, m := range t.find(reply, words) {
			found = append(found, Finding{Rule: fmt.Sprintf("say %q, not %q", t.preferred, t.text), Span: reply[m[0]:m[1]], Start: m[0], End: m[1]})
		}
	}
	if preferred+len(found) == 0 {
		return scored(BrandVocabulary, 1, nil)
	}
	return scored(BrandVocabulary, float64(preferred)/float64(preferred+len(found)), found)
}

// tone scores the share of sentences that carry no marker of a tone to avoid.
func (r *Rubric) tone(reply string, sentences []text.Sentence) Score {
	if len(r.avoid) == 0 {
		return Score{Criterion: Tone, NotScored: "the rubric lists no tone markers"}
	}
	var found []Finding
	marked := 0
	for _, s := range sentences {
		hit := false
		words := text.WordSpans(s.Text)
		for _, p := range r.avoid {
			for _, m := range p.find(s.Text, words) {
				hit = true
				found = append(found, Finding{Rule: fmt.Sprintf("tone marker %q", p.text), Span: s.Text[m[0]:m[1]], Start: s.Start + m[0], End: s.Start + m[1]})
			}
		}
		if hit {
			marked++
		}
	}
	if len(sentences) == 0 {
		return scored(Tone, 1, nil)
	}
	return scored(Tone, 1-float64(marked)/float64(len(sentences)), found)
}

// formatting scores the share of the rubric's layout rules the reply keeps.
func (r *Rubric) formatting(reply string, sentences []text.Sentence) Score {
	f := r.Formatting
	var found []Finding
	rules, broken := 0, 0
	check := func(on bool, rule func() []Finding) {
		if !on {
			return
		}
		rules++
		if fs := rule(); len(fs) > 0 {
			broken++
			found = append(found, fs...)
		}
	}
	paras := paragraphs(reply)
	check(len(r.greetings) > 0, func() []Finding { return edgeRule(reply, paras, r.greetings, true) })
	check(len(r.signOffs) > 0, func() []Finding { return edgeRule(reply, paras, r.signOffs, false) })
	check(f.MaxSentenceWords > 0, func() []Finding { return longSentences(sentences, f.MaxSentenceWords) })
	check(f.MaxParagraphSentences > 0, func() []Finding { return longParagraphs(reply, paras, f.MaxParagraphSentences) })
	check(f.MaxExclamations != nil, func() []Finding { return exclamations(reply, *f.MaxExclamations) })
	check(f.NoShouting, func() []Finding { return shouting(reply) })
	check(f.NoMarkdown, func() []Finding { return markdown(reply) })
	if rules == 0 {
		return Score{Criterion: Formatting, NotScored: "the rubric sets no formatting rules"}
	}
	return scored(Formatting, 1-float64(broken)/float64(rules), found)
}

// paragraphs returns the byte ranges of the reply's blocks between blank lines.
func paragraphs(reply string) [][2]int {
	var out [][2]int
	start := -1
	for pos := 0; pos <= len(reply); {
		end := len(reply)
		if n := strings.IndexByte(reply[pos:], '\n'); n >= 0 {
			end = pos + n
		}
		blank := strings.TrimSpace(reply[pos:end]) == ""
		switch {
		case blank && start >= 0:
			out = append(out, [2]int{start, pos - 1})
			start = -1
		case !blank && start < 0:
			start = pos
		}
		pos = end + 1
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(reply)})
	}
	for i, p := range out {
		s := reply[p[0]:p[1]]
		out[i] = [2]int{p[0] + len(s) - len(strings.TrimLeftFunc(s, unicode.IsSpace)), p[0] + len(strings.TrimRightFunc(s, unicode.IsSpace))}
	}
	return out
}

// edgeRule checks that the first line (greeting) or the last paragraph (sign-off) starts
// with one of the rubric's phrases.
func edgeRule(reply string, paras [][2]int, allowed []phrase, first bool) []Finding {
	rule := "no greeting: the reply should open with one of " + list(allowed)
	if !first {
		rule = "no sign-off: the last paragraph should start with one of " + list(allowed)
	}
	if len(paras) == 0 || (!first && len(paras) < 2) {
		return []Finding{{Rule: rule}}
	}
	span := paras[len(paras)-1]
	if first {
		span = paras[0]
		if n := strings.IndexByte(reply[span[0]:span[1]], '\n'); n >= 0 {
			span[1] = span[0] + n
		}
	}
	part := reply[span[0]:span[1]]
	words := text.WordSpans(part)
	for _, p := range allowed {
		if m := p.find(part, words); len(m) > 0 && m[0][0] == words[0].Start {
			return nil
		}
	}
	return []Finding{{Rule: rule, Span: part, Start: span[0], End: span[1]}}
}

func longSentences(sentences []text.Sentence, max int) []Finding {
	var out []Finding
	for _, s := range sentences {
		if n := len(text.WordSpans(s.Text)); n > max {
			out = append(out, Finding{Rule: fmt.Sprintf("sentence of %d words (at most %d)", n, max), Span: s.Text, Start: s.Start, End: s.End})
		}
	}
	return out
}

func longParagraphs(reply string, paras [][2]int, max int) []Finding {
	var out []Finding
	for _, p := range paras {
		if n := len(text.Split(reply[p[0]:p[1]])); n > max {
			out = append(out, Finding{Rule: fmt.Sprintf("paragraph of %d sentences (at most %d)", n, max), Span: reply[p[0]:p[1]], Start: p[0], End: p[1]})
		}
	}
	return out
}

func exclamations(reply string, max int) []Finding {
	var out []Finding
	for i, r := range reply {
		if r == '!' {
			out = append(out, Finding{Rule: fmt.Sprintf("exclamation mark (at most %d)", max), Span: "!", Start: i, End: i + 1})
		}
	}
	if len(out) <= max {
		return nil
	}
	return out[max:]
}

// shoutWord is the shortest word in capitals read as shouting; shorter ones are acronyms
// (VAT, SEPA).
const shoutWord = 5

func shouting(reply string) []Finding {
	var out []Finding
	for _, w := range text.WordSpans(reply) {
		s := reply[w.Start:w.End]
		if len([]rune(s)) >= shoutWord && strings.ToUpper(s) == s && strings.ToLower(s) != s && !strings.ContainsAny(s, "0123456789") {
			out = append(out, Finding{Rule: "word in capitals", Span: s, Start: w.Start, End: w.End})
		}
	}
	return out
}

func markdown(reply string) []Finding {
	var out []Finding
	pos := 0
	for _, line := range strings.SplitAfter(reply, "\n") {
		t := strings.TrimSpace(line)
		lead := pos + strings.Index(line, t)
		switch {
		case strings.HasPrefix(t, "#"), strings.HasPrefix(t, "|") && strings.HasSuffix(t, "|"):
			out = append(out, Finding{Rule: "Markdown heading or table", Span: t, Start: lead, End: lead + len(t)})
		case strings.Contains(t, "**") || strings.Contains(t, "__"):
			i := strings.Index(line, "**")
			if i < 0 {
				i = strings.Index(line, "__")
			}
			out = append(out, Finding{Rule: "Markdown bold", Span: line[i : i+2], Start: pos + i, End: pos + i + 2})
		}
		pos += len(line)
	}
	return out
}

func list(ps []phrase) string {
	var names []string
	for _, p := range ps {
		names = append(names, fmt.Sprintf("%q", p.text))
	}
	return strings.Join(names, ", ")
}

// Scored reports whether anything scored the criterion.
func (s Score) Scored() bool { return s.Score != nil }

// Value is the score, 0 when nothing scored it (check Scored first).
func (s Score) Value() float64 {
	if s.Score == nil {
		return 0
	}
	return *s.Score
}

// Label names a criterion for people.
func Label(criterion string) string {
	switch criterion {
	case ForbiddenPhrases:
		return "Forbidden phrases"
	case HumanSounding:
		return "Sounds human"
	case BrandVocabulary:
		return "Brand vocabulary"
	case Formatting:
		return "Formatting"
	case Tone:
		return "Tone"
	}
	return criterion
}
