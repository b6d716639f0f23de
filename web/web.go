// Package web serves the browser pages under /app/: a home page, the agent's sidebar for
// one ticket, the reviewers' dashboard and the admin view. Pages are rendered on the
// server with html/template from the store; the one small script (assets/app.js, ours,
// embedded) calls the JSON API for the live parts (the guard as the agent types, Send
// check and its override, Rebuild, review decisions, the kill switch) and polls the
// sidebar's state (state.go) so a new draft, a stale draft, a decision or the kill switch
// shows without a reload. Nothing on a page loads from another origin: the
// Content-Security-Policy says so.
package web

import (
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/rubric"
	"github.com/supportdraft/supportdraft/store"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

// Pages renders the /app/ pages from the store.
type Pages struct {
	Store      *store.Store
	Log        *slog.Logger
	TemporalUI string // base URL of the Temporal Web UI with namespace, for history links; "" for none
	// HelpdeskOrigins may frame the sidebar: Insert hands the reply to them, and to no
	// other page, by postMessage.
	HelpdeskOrigins []string
}

// templates parses every page once, on first use; the templates are embedded, so a parse
// error is a defect the tests meet first.
var templates = sync.OnceValues(func() (map[string]*template.Template, error) {
	pages := map[string]*template.Template{}
	for _, name := range []string{"home", "sidebar", "review", "admin", "login", "error"} {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/quality.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("parse template %s: %w", name, err)
		}
		pages[name] = t
	}
	return pages, nil
})

var funcs = template.FuncMap{
	"pct":  func(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) },
	"f2":   func(x float64) string { return fmt.Sprintf("%.2f", x) },
	"when": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
	// iso is the instant for a <time datetime>, which app.js shows in the viewer's zone.
	"iso":   func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"lower": strings.ToLower,
	"join":  func(values []string) string { return strings.Join(values, " or ") },
	// section names a chunk's section in words: "billing/refunds@4#refund-window" is
	// "refund window".
	"section": func(chunkID string) string {
		_, slug, _ := strings.Cut(chunkID, "#")
		return strings.ReplaceAll(slug, "-", " ")
	},
	"plain": plainReason,
	// outcome names a review queue state for people.
	"outcome": func(state string) string {
		switch state {
		case "handed_off":
			return "handed to the help desk"
		case "handoff_failed":
			return "approved, hand-off failed"
		case "recorded":
			return "approved (recorded)"
		case "pulled":
			return "pulled back"
		}
		return state
	},
	"list": func(xs ...string) []string { return xs },
	// criterion names a draft-quality rubric criterion for people.
	"criterion": rubric.Label,
	// draftStatus names a draft's status for people.
	"draftStatus": func(status string) string {
		switch status {
		case "stale":
			return "out of date"
		case "abstained":
			return "no policy answer"
		case "discarded":
			return "thrown away"
		}
		return status
	},
}

// Register adds the pages' routes to e. Every route is in the route table
// (auth/routes.go); the guard has run before any handler here.
func (p *Pages) Register(e *echo.Echo) {
	e.GET("/app/assets/*", echo.WrapHandler(http.StripPrefix("/app/assets/", assetServer())))
	e.GET("/app/login", p.login)
	e.GET("/app/", p.home)
	e.GET("/app/tickets/:ticket", p.sidebar)
	e.GET("/app/tickets/:ticket/state", p.state)
	e.GET("/app/review", p.review)
	e.GET("/app/admin", p.admin)
}

// assetServer serves the embedded assets, cached by browsers for one day.
func assetServer() http.Handler {
	assets, _ := fs.Sub(assetFS, "assets") // "assets" is a valid path: Sub cannot fail
	files := http.FileServer(http.FS(assets))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=86400")
		files.ServeHTTP(w, r)
	})
}

// page is what every template gets besides its own data.
type page struct {
	Title string
	Who   auth.Principal
	// Agent is the one agent the page acts for, which its script names on every call; ""
	// when it acts for several (a page then names each draft's agent itself).
	Agent string
	Data  any
}

// render writes a page with headers that keep it self-contained: no other origin may
// serve it anything, and only the help desk may frame it (frame-ancestors is left to the
// deployment, which knows the help desk's origin).
func (p *Pages) render(c echo.Context, code int, name, title string, data any) error {
	who, _ := auth.From(c)
	h := c.Response().Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'")
	// same-origin, not no-referrer: under no-referrer a form's POST carries "Origin: null",
	// which the sign-in's origin check refuses; other sites still get no referrer.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	pages, err := templates()
	if err != nil {
		return err
	}
	var b strings.Builder
	var one string
	if ids := agent.IDs(c.Request().Context()); len(ids) == 1 {
		one = ids[0]
	}
	if err := pages[name].Execute(&b, page{Title: title, Who: who, Agent: one, Data: data}); err != nil {
		return fmt.Errorf("render %s: %w", name, err)
	}
	return c.HTML(code, b.String())
}

// Error renders an error as a page for browsers; the API's error handler calls it for
// /app/ paths so a person sees a sentence and a way on, never JSON or a stack trace. The
// API's own message, which may name routes and fields, goes under a details toggle.
func (p *Pages) Error(c echo.Context, code int, msg string) error {
	next := c.Request().URL.RequestURI()
	if !strings.HasPrefix(next, "/app/") || strings.HasPrefix(next, "/app/session") {
		next = "/app/"
	}
	return p.render(c, code, "error", plainStatus(code), struct {
		Code    int
		Message string
		SignIn  bool
		Next    string
	}{code, msg, code == http.StatusUnauthorized, next})
}

// plainStatus says what an HTTP status means for the person who met it.
func plainStatus(code int) string {
	switch code {
	case http.StatusUnauthorized:
		return "Please sign in"
	case http.StatusForbidden:
		return "This page is not open to your role"
	case http.StatusNotFound:
		return "Nothing here"
	case http.StatusServiceUnavailable:
		return "Drafting is paused"
	}
	if code >= 500 {
		return "Something went wrong on our side"
	}
	return "That did not work"
}

func (p *Pages) login(c echo.Context) error {
	next := c.QueryParam("next")
	return p.render(c, http.StatusOK, "login", "Sign in", struct{ Next string }{next})
}

// home is /app/: where each role's pages are, and a way to open a ticket's sidebar.
func (p *Pages) home(c echo.Context) error {
	return p.render(c, http.StatusOK, "home", "Home", nil)
}
