package zendesk

import (
	"embed"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
)

// SDKURL is the Zendesk Apps framework client the sidebar loads; Zendesk serves it and
// keeps it current within 2.0.
const SDKURL = "https://static.zdassets.com/zendesk_app_framework_sdk/2.0/zaf_sdk.min.js"

//go:embed sidebar
var sidebarFS embed.FS

var sidebarPage = template.Must(template.ParseFS(sidebarFS, "sidebar/sidebar.html"))

// SidebarPage is what the framed sidebar page needs: the session's CSRF token, for the
// script's API calls, and where the Apps framework client comes from ("" is SDKURL).
type SidebarPage struct {
	CSRF string
	SDK  string
}

// RenderSidebar writes the framed sidebar page.
func RenderSidebar(w io.Writer, p SidebarPage) error {
	if p.SDK == "" {
		p.SDK = SDKURL
	}
	return sidebarPage.Execute(w, p)
}

// SidebarCSP is the sidebar page's Content-Security-Policy: everything from this server
// but the Apps framework client (from sdk's origin; "" is SDKURL), and framed only by the
// given help-desk origins.
func SidebarCSP(sdk string, frameAncestors []string) string {
	if sdk == "" {
		sdk = SDKURL
	}
	scripts := "'self'"
	if u, err := url.Parse(sdk); err == nil && u.Host != "" {
		scripts += " " + u.Scheme + "://" + u.Host
	}
	fa := "'none'"
	if len(frameAncestors) > 0 {
		fa = strings.Join(frameAncestors, " ")
	}
	return "default-src 'self'; script-src " + scripts + "; style-src 'self'; img-src 'self' data:; " +
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
