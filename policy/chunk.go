package policy

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	gmtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/supportdraft/supportdraft/text"
)

// maxChunkRunes bounds a chunk's text: small enough that retrieval ranks a section by what
// it is about and a prompt can hold several, large enough that most sections stay whole.
const maxChunkRunes = 1200

// introAnchor names the text before the first heading.
const introAnchor = "intro"

// markdown parses policy bodies. Tables are a GFM extension, and strikethrough is enabled
// so that struck (withdrawn) wording is recognised and left out of chunk text. The parser
// initialises itself once and is safe to share.
var markdown = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough)).Parser()

// section is the text under one #, ## or ### heading, as plain-text blocks.
type section struct {
	heading     string // plain heading text; "" for the intro
	blocks      []block
	subheadings []string // the text of its blocks that title a subsection
}

// block is one paragraph, list, table or code block of plain text. Atomic blocks (lists,
// tables, code) are never split: half a table or a list cut mid-way reads as another rule.
type block struct {
	text   string
	atomic bool
	title  bool // it titles a subsection: a heading deeper than ###, or a bold line (boldTitle)
}

// chunkBody cuts a Markdown body into citable chunks, one per #/##/### section (deeper
// headings stay in their parent), with the text before the first heading as "intro".
// HTML in the body is read as the Markdown it stands for (withHTMLAsMarkdown).
// A section with no text besides its heading has nothing to cite and yields no chunk,
// but its slug is still taken so later anchors match the ones GitHub shows. A section too
// long for one chunk is cut between sentences as text.Split reads them, the same reading
// the drafter, the judge and the guard use.
func chunkBody(docID string, version int, body string) []Chunk {
	src := []byte(withoutAdmonitionMarkers(body))
	doc := markdown.Parse(gmtext.NewReader(src))
	if md, ok := withHTMLAsMarkdown(doc, src); ok {
		src = []byte(md)
		doc = markdown.Parse(gmtext.NewReader(src))
	}

	sections := []section{{}}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level <= 3 {
			sections = append(sections, section{heading: inlineText(h, src)})
			continue
		}
		last := &sections[len(sections)-1]
		for _, b := range blocksOf(n, src) {
			if b.title {
				last.subheadings = append(last.subheadings, b.text)
			}
			last.blocks = append(last.blocks, b)
		}
	}

	var chunks []Chunk
	taken := map[string]bool{}
	for i, s := range sections {
		parts := splitSection(s)
		base := introAnchor
		if i > 0 {
			base = Slug(s.heading)
			if base == "" {
				base = "section" // a heading of only punctuation or emoji
			}
		} else if len(parts) == 0 {
			continue // no text before the first heading
		}
		first := uniqueAnchor(taken, base)
		for j, part := range parts {
			anchor := first
			if j > 0 { // named after the section's own anchor, so "faq-1" continues as "faq-1-part-2"
				anchor = uniqueAnchor(taken, fmt.Sprintf("%s-part-%d", first, j+1))
			}
			chunks = append(chunks, Chunk{
				ID:          ChunkID(docID, version, anchor),
				Anchor:      anchor,
				Heading:     s.heading,
				Ord:         len(chunks),
				Text:        part,
				Subheadings: linesOf(part, s.subheadings),
			})
		}
	}
	return chunks
}

// linesOf returns those of lines that stand as a whole line of text: the subheadings a
// part of a long section holds.
func linesOf(text string, lines []string) []string {
	held := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		held[l] = true
	}
	var out []string
	for _, l := range lines {
		if held[l] && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// uniqueAnchor returns base, or base-1, base-2, ... if taken, as GitHub numbers repeated
// headings, and marks the result taken.
func uniqueAnchor(taken map[string]bool, base string) string {
	anchor := base
	for n := 1; taken[anchor]; n++ {
		anchor = fmt.Sprintf("%s-%d", base, n)
	}
	taken[anchor] = true
	return anchor
}

// Slug returns the GitHub-style anchor of a heading's plain text: lowercased, letters
// (umlauts and other non-ASCII letters included), digits, '-' and '_' kept, each space
// turned into '-', everything else dropped. "Refunds & credits" gives "refunds--credits",
// as on GitHub; "Rückerstattung" gives "rückerstattung".
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(r), unicode.IsNumber(r), unicode.IsMark(r), r == '-', r == '_':
			b.WriteRune(r)
		case unicode.IsSpace(r):
			b.WriteByte('-')
		}
	}
	return b.String()
}

// blocksOf renders one block node (other than a section heading) as plain-text blocks.
func blocksOf(n ast.Node, src []byte) []block {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
		if onlyImages(n, src) {
			return nil // a screenshot's alt text describes a picture the reply cannot show
		}
		if title, rest := boldLine(n); title != nil {
			t := inlineText(title, src)
			return []block{{text: t, title: boldTitle(t)}, {text: inlineTextFrom(rest, src)}}
		}
		t := inlineText(n, src)
		if t == "" {
			return nil
		}
		_, heading := n.(*ast.Heading)
		return []block{{text: t, title: heading || allBold(n) && !endsSection(n) && boldTitle(t)}}
	case *ast.List:
		return textBlock(strings.Join(listLines(n, src, 0), "\n"))
	case *east.Table:
		return textBlock(tableText(n, src))
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		lines := n.Lines()
		var b strings.Builder
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b.Write(seg.Value(src))
		}
		return textBlock(strings.TrimRight(b.String(), "\n"))
	case *ast.HTMLBlock, *ast.ThematicBreak:
		return nil // HTML inside a list or quote (top-level HTML was converted) and rules
	}
	var out []block // block quotes and anything else: their children, in order
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, blocksOf(c, src)...)
	}
	return out
}

// boldTitle reports whether a bold line's text titles what follows it rather than states
// something: help centres often write a title in bold instead of as a heading
// ("**Wrong or expired card details**" above the paragraph on it, or on the line before
// it), and it does not end as a sentence does. The line is a paragraph all in bold with
// more of its section after it, or a paragraph's first line (boldLine). A bold line that
// ends its section names nothing: it is the section's last word, often a rule stressed
// ("**Refunds are final after 30 days**").
func boldTitle(t string) bool {
	return t != "" && !strings.ContainsAny(t[len(t)-1:], ".!?:")
}

// allBold reports whether a paragraph is all in strong emphasis.
func allBold(n ast.Node) bool {
	p, ok := n.(*ast.Paragraph)
	return ok && p.ChildCount() == 1 && isStrong(p.FirstChild())
}

// boldLine splits a paragraph whose first line is all in strong emphasis into that line
// and the node its next line starts with: read as one, "**You can exclude your IP too**
// This is the easiest way…" runs a title into a sentence.
func boldLine(n ast.Node) (title, rest ast.Node) {
	p, ok := n.(*ast.Paragraph)
	if !ok || !isStrong(p.FirstChild()) {
		return nil, nil
	}
	br, ok := p.FirstChild().NextSibling().(*ast.Text)
	if !ok || br.Segment.Len() != 0 || !(br.SoftLineBreak() || br.HardLineBreak()) || br.NextSibling() == nil {
		return nil, nil
	}
	return p.FirstChild(), br.NextSibling()
}

// endsSection reports whether no block of its section follows a top-level block.
func endsSection(n ast.Node) bool {
	next := n.NextSibling()
	h, isHeading := next.(*ast.Heading)
	return next == nil || isHeading && h.Level <= 3
}

func isStrong(n ast.Node) bool {
	e, ok := n.(*ast.Emphasis)
	return ok && e.Level == 2
}

// onlyImages reports whether a paragraph holds images (linked or not) and nothing else.
func onlyImages(n ast.Node, src []byte) bool {
	images := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Image:
			images++
		case *ast.Link:
			if !onlyImages(c, src) {
				return false
			}
			images++
		case *ast.Text:
			if strings.TrimSpace(string(c.Value(src))) != "" {
				return false
			}
		default:
			return false
		}
	}
	return images > 0
}

// textBlock wraps an atomic block, unless it is only markup (an empty list or table).
func textBlock(t string) []block {
	if !strings.ContainsFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) {
		return nil
	}
	return []block{{text: t, atomic: true}}
}

// listLines renders a list one item per line, "- " first, nested lists indented by two
// spaces per level; an item's paragraphs are joined into its one line.
func listLines(list *ast.List, src []byte, depth int) []string {
	var lines []string
	for item := list.FirstChild(); item != nil; item = item.NextSibling() {
		var parts, nested []string
		for c := item.FirstChild(); c != nil; c = c.NextSibling() {
			if sub, ok := c.(*ast.List); ok {
				nested = append(nested, listLines(sub, src, depth+1)...)
				continue
			}
			for _, b := range blocksOf(c, src) {
				parts = append(parts, text.CollapseSpace(b.text))
			}
		}
		lines = append(lines, strings.Repeat("  ", depth)+"- "+strings.Join(parts, " "))
		lines = append(lines, nested...)
	}
	return lines
}

// tableText renders a table one body row per line, each cell after its column's header
// ("Region: EU; Plan: Pro; Window: 14 days"): a row quoted alone, ranked alone or read by a
// model then still says what each value is, where "EU | Pro | 14 days" means nothing
// without a header line that is often in another part of the reply or not in it at all.
// A cell under an empty header, or a header over an empty cell, is written alone or left
// out; the header row itself states nothing and is not written.
func tableText(table *east.Table, src []byte) string {
	var header []string
	var rows []string
	for row := table.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, inlineText(cell, src))
		}
		if _, ok := row.(*east.TableHeader); ok {
			header = cells
			continue
		}
		var parts []string
		for i, c := range cells {
			switch {
			case c == "":
			case i >= len(header) || header[i] == "":
				parts = append(parts, c)
			default:
				parts = append(parts, header[i]+": "+c)
			}
		}
		if len(parts) > 0 {
			rows = append(rows, strings.Join(parts, "; "))
		}
	}
	return strings.Join(rows, "\n")
}

// inlineText is the plain prose of a node's inline children, whitespace collapsed.
func inlineText(n ast.Node, src []byte) string {
	return inlineTextFrom(n.FirstChild(), src)
}

// inlineTextFrom is inlineText of the inline nodes from first to the last of its siblings.
func inlineTextFrom(first ast.Node, src []byte) string {
	var b strings.Builder
	writeInlineFrom(&b, first, src)
	return text.CollapseSpace(b.String())
}

// writeInline drops Markdown syntax but keeps what a reader sees: emphasis and link text,
// code span contents, image alt text. A link to a web page or a mail address keeps its
// target after its text ("the refund form (https://example.com/refund)"): a reply that
// quotes "use the refund form" must tell the customer where it is. Links within the help
// center (relative paths, anchors) lead nowhere outside it and keep only their text.
// Struck text is left out: it is wording the author withdrew, and quoting it to a
// customer would state a rule that no longer holds.
func writeInline(b *strings.Builder, n ast.Node, src []byte) {
	writeInlineFrom(b, n.FirstChild(), src)
}

func writeInlineFrom(b *strings.Builder, first ast.Node, src []byte) {
	for c := first; c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(plain(c.Value(src)))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if seg, ok := t.(*ast.Text); ok {
					b.Write(seg.Value(src)) // code is verbatim: no unescaping
				}
			}
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.Link:
			start := b.Len()
			writeInline(b, c, src)
			if target := linkTarget(string(c.Destination)); target != "" && !strings.Contains(b.String()[start:], target) {
				b.WriteString(" (" + target + ")")
			}
		case *ast.RawHTML:
			if isLineBreak(c, src) {
				b.WriteByte(' ') // "Pro<br>Business" in a table cell is two words
			}
		case *east.Strikethrough:
		default:
			writeInline(b, c, src)
		}
	}
}

// isLineBreak reports whether inline HTML is a <br> tag.
func isLineBreak(h *ast.RawHTML, src []byte) bool {
	if h.Segments.Len() == 0 {
		return false
	}
	seg := h.Segments.At(0)
	tag := strings.ToLower(string(seg.Value(src)))
	return len(tag) > 3 && strings.HasPrefix(tag, "<br") && !unicode.IsLetter(rune(tag[3]))
}

// linkTarget is what a reader outside the help center can follow of a link's
// destination: a web address as written, or a mail address without "mailto:"; "" for a
// relative path or an anchor.
func linkTarget(dest string) string {
	lower := strings.ToLower(dest)
	switch {
	case strings.HasPrefix(lower, "https://"), strings.HasPrefix(lower, "http://"):
		return dest
	case strings.HasPrefix(lower, "mailto:"):
		addr, _, _ := strings.Cut(dest[len("mailto:"):], "?")
		return addr
	}
	return ""
}

// plain resolves backslash escapes and character references, as an HTML renderer would.
func plain(raw []byte) []byte {
	return util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(raw)))
}

// unit is a piece of a section that may start a new part: a whole block, or one sentence
// of a long paragraph. cont marks a sentence continuing the previous unit's paragraph.
type unit struct {
	text string
	cont bool
}

// splitSection renders a section as one text, or as several parts of at most
// maxChunkRunes when it is longer. Parts break between blocks or between sentences of a
// paragraph, never inside a list, table or code block. Every part starts with the heading
// line so it reads on its own when retrieved alone.
func splitSection(s section) []string {
	headingRunes := utf8.RuneCountInString(s.heading)
	var units []unit
	for _, b := range s.blocks {
		if b.atomic || headingRunes+1+utf8.RuneCountInString(b.text) <= maxChunkRunes {
			units = append(units, unit{text: b.text})
			continue
		}
		for i, sentence := range text.Split(b.text) {
			units = append(units, unit{text: sentence.Text, cont: i > 0})
		}
	}

	var parts [][]unit
	for _, u := range units {
		last := len(parts) - 1
		if last < 0 || utf8.RuneCountInString(renderPart(s.heading, append(slices.Clip(parts[last]), u))) > maxChunkRunes {
			parts = append(parts, []unit{u})
			continue
		}
		parts[last] = append(parts[last], u)
	}
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = renderPart(s.heading, p)
	}
	return texts
}

// renderPart writes the heading line, then each unit on its own line, except that a
// sentence continuing its paragraph follows the previous one after a space.
func renderPart(heading string, units []unit) string {
	var b strings.Builder
	b.WriteString(heading)
	for i, u := range units {
		if b.Len() > 0 {
			if u.cont && i > 0 {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\n')
			}
		}
		b.WriteString(u.text)
	}
	return b.String()
}
