package auth

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

// Exchange trades a token for a session cookie and redirects to the page asked for
// (GET /app/session?token=…&next=/app/tickets/T-1 from a sign-in link, or POST from the
// sign-in form). The redirect takes the token out of the address bar; next must be a page
// of this app, so the link cannot be used to send anyone elsewhere. Help-desk tokens get
// no session: they only deliver signed webhooks.
func (g *Guard) Exchange(c echo.Context) error {
	tok := c.FormValue("token")
	next := c.FormValue("next")
	if tok == "" {
		return echo.NewHTTPError(http.StatusBadRequest, `field "token" is required: paste a token from "supportdraft token create"`)
	}
	if !safeNext(next) {
		next = "/app/login"
	}
	t, err := g.Tokens.ActiveTokenByHash(c.Request().Context(), HashToken(tok))
	if err != nil {
		g.refused.WithLabelValues("401").Inc()
		return g.tokenError(err, "token")
	}
	if Role(t.Role) == Helpdesk {
		g.refused.WithLabelValues("403").Inc()
		return echo.NewHTTPError(http.StatusForbidden, "help-desk tokens only deliver signed webhooks; sign in to pages with an agent, reviewer or admin token")
	}
	sess := g.Sessions.New(t.ID, t.Name, Role(t.Role), g.Now())
	secure := c.Scheme() == "https"
	ck := &http.Cookie{Name: SessionCookie, Value: g.Sessions.Encode(sess), Path: "/", HttpOnly: true, Secure: secure,
		MaxAge: int(SessionTTL.Seconds()), SameSite: http.SameSiteLaxMode}
	if secure {
		// Over HTTPS the sidebar may sit in the help desk's iframe, a cross-site context:
		// only SameSite=None cookies reach it there. The CSRF token still guards every form.
		ck.SameSite = http.SameSiteNoneMode
	}
	c.SetCookie(ck)
	c.Response().Header().Set("Referrer-Policy", "no-referrer")
	return c.Redirect(http.StatusSeeOther, next)
}

// safeNext accepts only paths of this app: no scheme, no host, no "//" tricks.
func safeNext(next string) bool {
	u, err := url.Parse(next)
	return err == nil && u.Scheme == "" && u.Host == "" && strings.HasPrefix(next, "/app/") && !strings.Contains(next, "//") && !strings.Contains(next, `\`)
}
