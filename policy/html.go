package policy

import (
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
		md, err := htmlConverter().ConvertString(string(src[start:stop]))
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
