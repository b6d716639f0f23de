package guard

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// placeholderPattern is one way a template marks a slot, with a test that rejects the
// look-alikes the regular expression cannot tell apart without context.
type placeholderPattern struct {
	trigger string // every match contains it; most sentences do not, and skip the regexp
	re      *regexp.Regexp
	reject  func(span, after string) bool // after is the text that follows span
}

// placeholderPatterns are the template syntaxes that help desks, macro tools and models
// leave behind when a variable is not filled in.
var placeholderPatterns = []placeholderPattern{
	{trigger: "{{", re: regexp.MustCompile(`\{\{[^{}\n]*\}\}`)},                       // {{name}}
	{trigger: "${", re: regexp.MustCompile(`\$\{[^{}\n]*\}`)},                         // ${name}
	{trigger: "{", re: regexp.MustCompile(`\{[^{}\n]+\}`)},                            // {name}
	{trigger: "__", re: regexp.MustCompile(`__[A-Z][A-Z0-9_]*__`)},                    // __NAME__
	{trigger: "%", re: regexp.MustCompile(`%(?:\d+\$)?[sdv]`), reject: letterFollows}, // %s, %1$d
	{trigger: "%(", re: regexp.MustCompile(`%\([A-Za-z_][A-Za-z0-9_]*\)[sdr]`)},       // %(name)s
	{trigger: "#", re: regexp.MustCompile(`#[A-Z][A-Z0-9_]*#`)},                       // #TICKET_ID#
	// ___ : a blank left to fill in by hand.
	{trigger: "___", re: regexp.MustCompile(`___+`)},
	{trigger: "[", re: regexp.MustCompile(`\[(?:[A-Z][A-Z0-9 _-]*|[a-z0-9]+(?:_[a-z0-9]+)+|[A-Za-z ]+)\]`), reject: notBracketPlaceholder},
	{trigger: "<", re: regexp.MustCompile(`<[A-Za-z_][A-Za-z0-9_ -]{0,40}>`), reject: isHTMLTag},
	// %FIRST_NAME%, %first_name%: the mail-merge style of many help desks.
	{trigger: "%", re: regexp.MustCompile(`%(?:[A-Z][A-Z0-9_]*|[a-z0-9]+(?:_[a-z0-9]+)+)%`)},
	// XXX, XXXX: a writer's "fill this in", unless it masks digits ("XXXX-XXXX-1234").
	{trigger: "XXX", re: regexp.MustCompile(`\bXXX+\b`), reject: masksDigits},
	// A bracketed note the system or a writer left for the agent, "[Label: text]": the
	// guard's gap note ("[Not covered by current policy: …]") is one. It speaks to the
	// agent, never to the customer.
	{trigger: "[", re: regexp.MustCompile(`\[[A-Z][^\[\]\n:]{0,60}:[^\[\]\n]*\]`), reject: linkFollows},
}

// placeholderWords are the words that make a bracketed phrase in ordinary case a slot:
// "[Customer Name]", "[insert date]".
var placeholderWords = []string{
	"name", "customer", "agent", "date", "company", "email", "amount", "link", "url",
	"product", "plan", "signature", "insert", "address", "phone", "number", "placeholder",
}

// htmlTags are the bare tags an HTML reply may contain; "<name>" is a slot, "<br>" is not.
var htmlTags = map[string]bool{
	"a": true, "b": true, "i": true, "u": true, "p": true, "br": true, "hr": true,
	"em": true, "strong": true, "ul": true, "ol": true, "li": true, "div": true,
	"span": true, "blockquote": true, "code": true, "pre": true, "small": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "table": true, "tr": true, "td": true,
	"th": true, "tbody": true, "thead": true,
}

// Placeholders returns every unresolved template slot in text, exactly as written and in
// order of appearance: {{x}}, {x}, ${x}, [NAME], [first_name], [Customer Name], <name>,
// %s, %d, %v, %(name)s, %FIRST_NAME%, #NAME#, XXX, __X__, a blank ___, and bracketed notes to the agent such as the gap
// note "[Not covered by current policy: …]". Markdown links ("[text](url)"), numeric citations ("[1]"),
// e-mail addresses and URLs in angle brackets, and HTML tags are not slots.
func Placeholders(text string) []string {
	type span struct{ start, end int }
	var spans []span
	for _, p := range placeholderPatterns {
		if !strings.Contains(text, p.trigger) {
			continue
		}
		for _, loc := range p.re.FindAllStringIndex(text, -1) {
			if p.reject == nil || !p.reject(text[loc[0]:loc[1]], text[loc[1]:]) {
				spans = append(spans, span{loc[0], loc[1]})
			}
		}
	}
	// Longest first at each start, so "${x}" wins over the "{x}" inside it.
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var out []string
	covered := 0
	for _, s := range spans {
		if s.start >= covered {
			out = append(out, text[s.start:s.end])
			covered = s.end
		}
	}
	return out
}

// letterFollows rejects "%s" that is the start of a word, as in "100%sure".
func letterFollows(_, after string) bool {
	r, _ := utf8.DecodeRuneInString(after)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// notBracketPlaceholder rejects Markdown links, empty boxes and bracketed phrases in
// ordinary case that name no slot ("[sic]", "[Update]").
func notBracketPlaceholder(span, after string) bool {
	if strings.HasPrefix(after, "(") {
		return true
	}
	inner := span[1 : len(span)-1]
	if strings.TrimSpace(inner) == "" {
		return true // "[ ]", an unticked Markdown box
	}
	if inner == strings.ToUpper(inner) || strings.Contains(inner, "_") {
		return false
	}
	for _, w := range strings.Fields(strings.ToLower(inner)) {
		if slices.Contains(placeholderWords, w) {
			return false
		}
	}
	return true
}

// linkFollows rejects a bracketed span that is the text of a Markdown link.
func linkFollows(_, after string) bool { return strings.HasPrefix(after, "(") }

// masksDigits rejects XXX that is part of a masked number ("XXXX-XXXX-1234", "XXXX 1234"):
// a card or account shown the way the customer will recognise it.
func masksDigits(_, after string) bool {
	after = strings.TrimLeft(after, "- ")
	r, _ := utf8.DecodeRuneInString(after)
	return unicode.IsDigit(r) || r == 'X'
}

// isHTMLTag rejects bare HTML tags such as "<br>" and "<p>".
func isHTMLTag(span, _ string) bool {
	return htmlTags[strings.ToLower(span[1:len(span)-1])]
}
