package zendesk

import (
	"embed"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"strings"
)

// SDKURL is the Zendesk Apps framework client the sidebar loads; Zendesk serves it and
// keeps it current within 2.0.
const SDKURL = "https://static.zdassets.com/zendesk_app_framework_sdk/2.0/zaf_sdk.min.js"

//go:embed sidebar
var sidebarFS embed.FS

var sidebarPage = template.Must(template.ParseFS(sidebarFS, "sidebar/sidebar.html"))

// SidebarPage is what the framed sidebar page needs: the session's CSRF token, for the
// script's API calls.
type SidebarPage struct {
	CSRF string
}

// RenderSidebar writes the framed sidebar page.
func RenderSidebar(w io.Writer, p SidebarPage) error {
	return sidebarPage.Execute(w, struct {
		CSRF, SDK string
	}{p.CSRF, SDKURL})
}

// SidebarCSP is the sidebar page's Content-Security-Policy: everything from this server
// but the Apps framework client, and framed only by the given help-desk origins.
func SidebarCSP(frameAncestors []string) string {
	fa := "'none'"
	if len(frameAncestors) > 0 {
		fa = strings.Join(frameAncestors, " ")
	}
	return "default-src 'self'; script-src 'self' https://static.zdassets.com; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors " + fa
}

// Assets serves the sidebar's script and style sheet (the request path is the file name).
func Assets() http.Handler {
	sub, _ := fs.Sub(sidebarFS, "sidebar") // "sidebar" is a valid path: Sub cannot fail
	files := http.FileServer(http.FS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".html") {
			http.NotFound(w, r) // the page is rendered with its session, never served raw
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	})
}
