// Markup other than CommonMark that help centres write in their pages: HTML, and the
// callouts of documentation sites. Each is read as the Markdown it stands for.

package policy

import (
	"regexp"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"github.com/yuin/goldmark/ast"
)

// withHTMLAsMarkdown returns the body with each of its top-level HTML blocks written as
// the Markdown it stands for, and whether there was any. Help centres export articles as
// HTML, and Markdown pages embed it (a table, a note in a <div>): Markdown keeps an HTML
// block as raw text, so read as Markdown alone an exported article had no policy text
// and a page lost every sentence inside its HTML. Headings become sections, lists and
// tables stay lists and tables, a link keeps its target, struck text stays struck (and is
// left out of chunks like Markdown's), and comments, scripts and styles go.
func withHTMLAsMarkdown(doc ast.Node, src []byte) (string, bool) {
	var b strings.Builder
	var conv *converter.Converter // built at the first HTML block: most bodies have none
	done, found := 0, false
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.HTMLBlock)
		if !ok || h.Lines().Len() == 0 {
			continue
		}
		start, stop := h.Lines().At(0).Start, h.Lines().At(h.Lines().Len()-1).Stop
		if h.HasClosure() {
			stop = h.ClosureLine.Stop
		}
		if conv == nil {
			conv = htmlConverter()
		}
		md, err := conv.ConvertString(string(src[start:stop]))
		if err != nil {
			continue // left as raw HTML, which the chunker skips
		}
		b.Write(src[done:start])
		b.WriteString("\n\n" + md + "\n\n")
		done, found = stop, true
	}
	b.Write(src[done:])
	return b.String(), found
}

// htmlConverter reads HTML as CommonMark with GitHub's tables and strikethrough, the
// Markdown the chunker parses.
func htmlConverter() *converter.Converter {
	return converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin(), strikethrough.NewStrikethroughPlugin()))
}

// An admonition's markers: Docusaurus, VitePress and Starlight open a callout with a line
// ":::note", ":::tip[Save money]" or "::: warning Before you cancel" and close it with
// ":::"; GitHub opens one with "> [!NOTE]". Markdown reads the markers as text.
var (
	admonitionOpen  = regexp.MustCompile(`^\s*:{3,}\s*[A-Za-z][\w-]*\s*(?:\[(.*)\]|(.*))$`)
	admonitionClose = regexp.MustCompile(`^\s*:{3,}\s*$`)
	alertMarker     = regexp.MustCompile(`^(\s*>\s*)\[!(?i:note|tip|important|warning|caution)\]\s*$`)
	codeFence       = regexp.MustCompile("^\\s*(```|~~~)")
)

// withoutAdmonitionMarkers drops the markers of callouts, outside code blocks, so that a
// reply quoting a callout quotes its words ("Refunds take 5 days to arrive.") and not
// ":::note Refunds take 5 days to arrive. :::". A callout's own title stays, as a
// paragraph of its own.
func withoutAdmonitionMarkers(body string) string {
	lines := strings.Split(body, "\n")
	inCode := false
	for i, line := range lines {
		switch {
		case codeFence.MatchString(line):
			inCode = !inCode
		case inCode:
		case admonitionClose.MatchString(line):
			lines[i] = ""
		default:
			if m := admonitionOpen.FindStringSubmatch(line); m != nil {
				lines[i] = "\n" + strings.TrimSpace(m[1]+m[2]) + "\n"
			} else if m := alertMarker.FindStringSubmatch(line); m != nil {
				lines[i] = m[1]
			}
		}
	}
	return strings.Join(lines, "\n")
}
