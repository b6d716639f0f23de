package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
)

// The sources a version can come from. They matter to trace and to QA, which need to know
// whether a stale sentence came from the wiki, the public help center or a fixed macro.
const (
	SourceWiki       = "wiki"
	SourceHelpCenter = "helpcenter"
	SourceMacro      = "macro"
)

// ParseError is one problem in one policy file, worded for the person who edits the file:
// it names the file (and line when known), the field, and what to do about it.
type ParseError struct {
	Path  string // the file, as given to Parse
	Line  int    // 1-based line in the file; 0 when the problem has no single line
	Field string // the front matter field; "" when the problem is not about one field
	Msg   string // what is wrong, e.g. `is required for an approved version`
	Fix   string // what to do, e.g. `add an RFC 3339 time such as 2026-03-01T00:00:00Z`
}

// Error renders the problem as `path[:line]: [field "f" ]msg: fix`.
func (e *ParseError) Error() string {
	where, field, fix := e.Path, "", ""
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", e.Path, e.Line)
	}
	if e.Field != "" {
		field = fmt.Sprintf("field %q ", e.Field)
	}
	if e.Fix != "" {
		fix = ": " + e.Fix
	}
	return where + ": " + field + e.Msg + fix
}

// frontMatter mirrors the YAML header field for field. Version is decoded as any so that
// 4.5 or "four" is refused instead of silently becoming 4 or 0; times are strings so that
// a bad date gets our message (with the accepted forms) rather than the library's.
type frontMatter struct {
	DocID         string   `yaml:"doc_id"`
	Version       any      `yaml:"version"`
	Status        string   `yaml:"status"`
	Source        string   `yaml:"source"`
	Title         string   `yaml:"title"`
	Area          string   `yaml:"area"`
	EffectiveFrom string   `yaml:"effective_from"`
	EffectiveTo   string   `yaml:"effective_to"`
	ApprovedAt    string   `yaml:"approved_at"`
	Plans         []string `yaml:"plans"`
	Regions       []string `yaml:"regions"`
	Locale        string   `yaml:"locale"`
	Owner         string   `yaml:"owner"`
	Fixed         any      `yaml:"fixed"` // any: "yes" or 1 is refused, not read as true
	Audience      string   `yaml:"audience"`
	// Sections marks single sections by anchor (the heading's slug), each with fixed and
	// audience; decoded loosely so that an unknown key gets our message.
	Sections map[string]map[string]any `yaml:"sections"`
}

// knownFields lists the front matter fields in the order docs/contracts.md documents them.
var knownFields = []string{"doc_id", "version", "status", "source", "title", "area",
	"effective_from", "effective_to", "approved_at", "plans", "regions", "locale", "owner",
	"fixed", "audience", "sections"}

const timeHint = "an RFC 3339 time such as 2026-03-01T00:00:00Z"

// fieldHints says, per field, what a good value looks like; "add "/"use " is put in front.
var fieldHints = map[string]string{
	"doc_id":         "a lowercase slug path such as billing/refunds-annual (letters, digits, '/', '_' and '-')",
	"version":        "a whole number of 1 or more, such as 4",
	"status":         "one of draft, approved or superseded",
	"source":         "one of wiki, helpcenter or macro",
	"title":          `a title such as "Refunds on annual plans"`,
	"area":           "a policy area such as refunds",
	"effective_from": timeHint,
	"effective_to":   timeHint,
	"approved_at":    timeHint,
	"plans":          `a list of plans such as [pro, business], or ["*"] for every plan`,
	"regions":        `a list of regions such as [eu, uk], or ["*"] for every region`,
	"locale":         "a language code such as en or de",
	"owner":          "a team name such as billing-ops",
	"fixed":          "true when the text is fixed wording, quoted only word for word (or false)",
	"audience":       "customers or agents (agents: context for the drafter and the agent, never quoted to a customer)",
	"sections":       "a map from a section's anchor (its heading's slug, such as notes-for-agents) to its own fixed and audience",
}

var (
	docIDPattern  = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*(/[a-z0-9][a-z0-9_-]*)*$`)
	scopePattern  = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	localePattern = regexp.MustCompile(`^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)
	keyPattern    = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)\s*:`)
	bareWildcard  = regexp.MustCompile(`:\s*\[?\s*\*`) // plans: [*] or regions: *
)

// Parse reads one policy file: YAML front matter between "---" lines, then a Markdown body.
// It reports every problem it finds in the file at once (joined), so an author fixes the
// file in one pass. path is only used to name the file in messages and in Version.Path.
func Parse(path string, data []byte) (*Version, error) {
	sum := sha256.Sum256(data)
	header, body, err := splitFrontMatter(path, data)
	if err != nil {
		return nil, err
	}
	keys := topLevelKeys(header)

	fm, err := decodeFrontMatter(header)
	if err != nil {
		return nil, yamlError(path, err, keys, header)
	}
	v, errs := validate(path, &fm, keys)
	if len(errs) > 0 {
		// Top to bottom like a compiler, then the fields that are missing altogether.
		slices.SortStableFunc(errs, func(a, b *ParseError) int { return lineOrder(a.Line) - lineOrder(b.Line) })
		return nil, errors.Join(asErrors(errs)...)
	}
	v.Path = path
	v.ContentHash = hex.EncodeToString(sum[:])
	v.Body = body
	v.Chunks = chunkBody(v.DocID, v.Version, body)
	if len(v.Chunks) == 0 {
		return nil, &ParseError{Path: path, Msg: "has no policy text after the front matter",
			Fix: "write the policy as Markdown below the closing \"---\" line"}
	}
	if errs := markChunks(path, &fm, keys, v.Chunks); len(errs) > 0 {
		return nil, errors.Join(asErrors(errs)...)
	}
	return v, nil
}

// sectionKeys are the keys a section under sections may set.
var sectionKeys = []string{"fixed", "audience"}

// markChunks sets each chunk's fixed and audience from the front matter: the document's
// values, then its section's under sections (a long section's parts share its marks).
// Unknown values, keys and anchors are refused, naming the field.
func markChunks(path string, fm *frontMatter, keys map[string]int, chunks []Chunk) []*ParseError {
	var errs []*ParseError
	fail := func(field, msg, fix string) {
		errs = append(errs, &ParseError{Path: path, Line: keys[strings.SplitN(field, ".", 2)[0]], Field: field, Msg: msg, Fix: fix})
	}
	docFixed := parseFixed("fixed", fm.Fixed, fail)
	docAudience := parseAudience("audience", fm.Audience, AudienceCustomers, fail)
	var anchors []string // one per section: a long section's later parts are not named
	for i, c := range chunks {
		if i == 0 || c.Heading != chunks[i-1].Heading {
			anchors = append(anchors, c.Anchor)
		}
	}
	for i := range chunks {
		chunks[i].Fixed, chunks[i].Audience = docFixed, docAudience
	}
	for _, anchor := range slices.Sorted(maps.Keys(fm.Sections)) {
		marks := fm.Sections[anchor]
		field := "sections." + anchor
		if !slices.Contains(anchors, anchor) {
			fail(field, "names no section of this file", "use one of the sections' anchors: "+strings.Join(anchors, ", "))
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(marks)) {
			if !slices.Contains(sectionKeys, k) {
				fail(field+"."+k, "is not a section mark", "remove it; a section sets only "+strings.Join(sectionKeys, " and "))
			}
		}
		for i, c := range chunks {
			if c.Anchor != anchor && !strings.HasPrefix(c.Anchor, anchor+"-part-") {
				continue
			}
			if raw, ok := marks["fixed"]; ok {
				chunks[i].Fixed = parseFixed(field+".fixed", raw, fail)
			}
			if raw, ok := marks["audience"]; ok {
				a, isString := raw.(string)
				if !isString {
					fail(field+".audience", fmt.Sprintf("has %v, which is not a word", raw), "use "+fieldHints["audience"])
					continue
				}
				chunks[i].Audience = parseAudience(field+".audience", a, docAudience, fail)
			}
		}
	}
	return uniqueErrors(errs)
}

// parseFixed accepts only a YAML boolean; no value is false.
func parseFixed(field string, raw any, fail func(field, msg, fix string)) bool {
	switch b := raw.(type) {
	case nil:
		return false
	case bool:
		return b
	}
	fail(field, fmt.Sprintf("has %v, which is not true or false", raw), "use "+fieldHints["fixed"])
	return false
}

// parseAudience accepts customers or agents; no value is def.
func parseAudience(field, raw, def string, fail func(field, msg, fix string)) string {
	switch a := strings.TrimSpace(raw); a {
	case "":
		return def
	case AudienceCustomers, AudienceAgents:
		return a
	default:
		fail(field, fmt.Sprintf("has %q", a), "use "+fieldHints["audience"])
		return def
	}
}

// uniqueErrors drops repeats: a section split into parts is checked once per part.
func uniqueErrors(errs []*ParseError) []*ParseError {
	var out []*ParseError
	seen := map[string]bool{}
	for _, e := range errs {
		if !seen[e.Error()] {
			seen[e.Error()] = true
			out = append(out, e)
		}
	}
	return out
}

// decodeFrontMatter decodes the header strictly. go-yaml v1.19.2 panics on a YAML tag in
// front of a scalar where a list is expected (`plans: !x pro`, goccy/go-yaml#735, fixed
// upstream after that release); one bad file must not crash an import, so the panic
// becomes an ordinary error.
func decodeFrontMatter(header []byte) (fm frontMatter, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the YAML library failed on it (%v)", r)
		}
	}()
	err = yaml.UnmarshalWithOptions(header, &fm, yaml.Strict())
	return fm, err
}

// headerLine is the file line the YAML header starts on, just after the opening "---";
// YAML line numbers are offset by it to point into the file.
const headerLine = 2

// splitFrontMatter cuts data into the YAML header and the Markdown body.
func splitFrontMatter(path string, data []byte) (header []byte, body string, err error) {
	text := strings.ReplaceAll(string(bytes.TrimPrefix(data, []byte("\ufeff"))), "\r\n", "\n")
	lines := strings.SplitAfter(text, "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return nil, "", &ParseError{Path: path, Line: 1, Msg: "does not start with YAML front matter",
			Fix: `put a "---" line first, then the fields (doc_id, version, status, title, area, ...), then another "---" line`}
	}
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "---" {
			return []byte(strings.Join(lines[1:i], "")), strings.Join(lines[i+1:], ""), nil
		}
	}
	return nil, "", &ParseError{Path: path, Line: 1, Msg: "has front matter that is never closed",
		Fix: `add a "---" line after the last field, before the Markdown body`}
}

// topLevelKeys maps each field written at the start of a header line to its file line.
// The YAML library reports only the first unknown field and gives value positions; this
// plain scan lets us name every unknown field and point at the line of any field.
func topLevelKeys(header []byte) map[string]int {
	keys := map[string]int{}
	for i, line := range strings.Split(string(header), "\n") {
		if m := keyPattern.FindStringSubmatch(line); m != nil {
			if _, dup := keys[m[1]]; !dup {
				keys[m[1]] = headerLine + i
			}
		}
	}
	return keys
}

// keyBefore returns the field whose line is the last one at or before line: the field a
// YAML value error at that line belongs to, block lists included.
func keyBefore(keys map[string]int, line int) string {
	best, bestLine := "", 0
	for k, l := range keys {
		if l <= line && l > bestLine {
			best, bestLine = k, l
		}
	}
	return best
}

// yamlError turns a go-yaml error into messages naming the file line and the field.
func yamlError(path string, err error, keys map[string]int, header []byte) error {
	var unknown *yaml.UnknownFieldError
	if errors.As(err, &unknown) {
		var errs []error
		for _, k := range sortedKeys(keys) {
			if !slices.Contains(knownFields, k) {
				errs = append(errs, &ParseError{Path: path, Line: keys[k], Msg: fmt.Sprintf("unknown field %q", k),
					Fix: "remove it or correct its name; the fields are " + strings.Join(knownFields, ", ")})
			}
		}
		if len(errs) > 0 {
			return errors.Join(errs...)
		}
	}
	var yerr yaml.Error
	if !errors.As(err, &yerr) || yerr.GetToken() == nil {
		return &ParseError{Path: path, Msg: fmt.Sprintf("has front matter that is not valid YAML: %v", err),
			Fix: `fix the YAML between the two "---" lines; YAML tags such as !x are not part of the format`}
	}
	line := headerLine + yerr.GetToken().Position.Line - 1
	var typeErr *yaml.TypeError
	var nodeErr *yaml.UnexpectedNodeTypeError
	if errors.As(err, &typeErr) || errors.As(err, &nodeErr) {
		if field := keyBefore(keys, line); fieldHints[field] != "" {
			return &ParseError{Path: path, Line: line, Field: field, Msg: "has a value of the wrong kind",
				Fix: "use " + fieldHints[field]}
		}
	}
	fix := `fix the YAML between the two "---" lines`
	lines, i := strings.Split(string(header), "\n"), line-headerLine
	if i >= 0 && i < len(lines) && bareWildcard.MatchString(lines[i]) {
		fix = `write the wildcard in quotes, as ["*"]: a bare * starts a YAML alias`
	}
	return &ParseError{Path: path, Line: line, Msg: fmt.Sprintf("has front matter that is not valid YAML (%s)", yerr.GetMessage()), Fix: fix}
}

// validate checks the decoded fields against the corpus contract and builds the Version.
// Every problem is collected, not just the first.
func validate(path string, fm *frontMatter, keys map[string]int) (*Version, []*ParseError) {
	var errs []*ParseError
	fail := func(field, msg, fix string) {
		errs = append(errs, &ParseError{Path: path, Line: keys[field], Field: field, Msg: msg, Fix: fix})
	}
	required := func(field, value string) string {
		value = strings.TrimSpace(value)
		if value == "" {
			fail(field, "is required", "add "+fieldHints[field])
		}
		return value
	}

	v := &Version{
		DocID:  required("doc_id", fm.DocID),
		Status: Status(required("status", fm.Status)),
		Title:  required("title", fm.Title),
		Area:   required("area", fm.Area),
		Source: strings.TrimSpace(fm.Source),
		Locale: strings.TrimSpace(fm.Locale),
		Owner:  strings.TrimSpace(fm.Owner),
	}
	if v.DocID != "" && !docIDPattern.MatchString(v.DocID) {
		fail("doc_id", fmt.Sprintf("has %q, which is not a slug path", v.DocID), "use "+fieldHints["doc_id"])
	}
	v.Version = parseVersionNumber(fm.Version, fail)
	if v.Status != "" && !slices.Contains([]Status{StatusDraft, StatusApproved, StatusSuperseded}, v.Status) {
		fail("status", fmt.Sprintf("has %q", v.Status), "use "+fieldHints["status"])
	}
	if v.Source == "" {
		v.Source = SourceWiki // the policy wiki is the corpus's home; other sources say so
	} else if !slices.Contains([]string{SourceWiki, SourceHelpCenter, SourceMacro}, v.Source) {
		fail("source", fmt.Sprintf("has %q", v.Source), "use "+fieldHints["source"])
	}
	if v.Locale == "" {
		v.Locale = "en"
	} else if !localePattern.MatchString(v.Locale) {
		fail("locale", fmt.Sprintf("has %q", v.Locale), "use "+fieldHints["locale"])
	}

	v.EffectiveFrom = parseTime("effective_from", fm.EffectiveFrom, fail)
	v.EffectiveTo = parseTime("effective_to", fm.EffectiveTo, fail)
	v.ApprovedAt = parseTime("approved_at", fm.ApprovedAt, fail)
	v.Plans = parseScope("plans", fm.Plans, fail)
	v.Regions = parseScope("regions", fm.Regions, fail)

	// Only drafts may leave their window and scope open: anything that can be quoted to a
	// customer must say from when and to whom it applies, or eligibility cannot be decided.
	if v.Status == StatusApproved || v.Status == StatusSuperseded {
		why := "is required for an approved version"
		if v.Status == StatusSuperseded {
			why = "is required for a superseded version"
		}
		if strings.TrimSpace(fm.EffectiveFrom) == "" {
			fail("effective_from", why, "add "+timeHint)
		}
		if len(fm.Plans) == 0 {
			fail("plans", why, "add "+fieldHints["plans"])
		}
		if len(fm.Regions) == 0 {
			fail("regions", why, "add "+fieldHints["regions"])
		}
		if v.ApprovedAt == nil && v.EffectiveFrom != nil {
			at := *v.EffectiveFrom
			v.ApprovedAt = &at
		}
	}
	if v.EffectiveFrom != nil && v.EffectiveTo != nil && !v.EffectiveTo.After(*v.EffectiveFrom) {
		fail("effective_to", fmt.Sprintf("(%s) must be after effective_from (%s)",
			v.EffectiveTo.Format(time.RFC3339), v.EffectiveFrom.Format(time.RFC3339)),
			"set an end after the start, or remove effective_to to leave the version open-ended")
	} else if v.ApprovedAt != nil && v.EffectiveTo != nil && !v.EffectiveTo.After(*v.ApprovedAt) {
		// Approved only after its window closed, the version could never be quoted.
		fail("approved_at", fmt.Sprintf("(%s) must be before effective_to (%s)",
			v.ApprovedAt.Format(time.RFC3339), v.EffectiveTo.Format(time.RFC3339)),
			"correct the approval time, or move effective_to after it")
	}
	return v, errs
}

// parseVersionNumber accepts only a whole number ≥ 1: YAML would happily give 4.5 or "4".
func parseVersionNumber(raw any, fail func(field, msg, fix string)) int {
	fix := "use " + fieldHints["version"]
	switch n := raw.(type) {
	case nil:
		fail("version", "is required", "add "+fieldHints["version"])
	case uint64:
		if n >= 1 && n <= 1<<31-1 {
			return int(n)
		}
		fail("version", fmt.Sprintf("has %d", n), fix)
	case int64:
		fail("version", fmt.Sprintf("has %d", n), fix)
	case string:
		fail("version", fmt.Sprintf("has %q, which is text, not a number", n), fix+", without quotes")
	default:
		fail("version", fmt.Sprintf("has %v, which is not a whole number", n), fix)
	}
	return 0
}

// parseTime accepts RFC 3339 or a bare date (midnight UTC), and stores UTC so that equal
// instants compare and print the same whatever offset the author wrote.
func parseTime(field, raw string, fail func(field, msg, fix string)) *time.Time {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, raw)
	if err != nil {
		t, err = time.Parse(time.DateOnly, raw)
	}
	if err != nil {
		fail(field, fmt.Sprintf("has %q, which is not a time", raw), "use "+timeHint+", or a date such as 2026-03-01")
		return nil
	}
	t = t.UTC()
	return &t
}

// parseScope checks plan or region names. Eligibility compares them exactly, so "EU" or
// "pro " would silently match no account; refusing them here is kinder.
func parseScope(field string, raw []string, fail func(field, msg, fix string)) []string {
	out := []string{} // never nil: the store's columns are NOT NULL arrays, empty for drafts
	for _, s := range raw {
		if s != Wildcard && !scopePattern.MatchString(s) {
			fail(field, fmt.Sprintf("has %q", s), "use lowercase names: "+fieldHints[field])
			continue
		}
		out = append(out, s)
	}
	return out
}

// lineOrder sorts problems without a line (a missing field) after all the others.
func lineOrder(line int) int {
	if line == 0 {
		return 1 << 30
	}
	return line
}

func asErrors(errs []*ParseError) []error {
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return out
}

func sortedKeys(m map[string]int) []string {
	return slices.SortedFunc(maps.Keys(m), func(a, b string) int { return m[a] - m[b] })
}

// CheckDocID refuses a document ID that is not a slug path, as the doc_id field of a file.
func CheckDocID(id string) error {
	if !docIDPattern.MatchString(id) {
		return fmt.Errorf("not a document ID: use %s", fieldHints["doc_id"])
	}
	return nil
}
