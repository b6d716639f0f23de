package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/store"
)

// SignInCodeTTL is how long a sign-in link works: long enough to click it, short enough
// that one found later in a history or a log is dead.
const SignInCodeTTL = 10 * time.Minute

// signInCodePrefix marks one-time sign-in codes, as tokenPrefix marks tokens.
const signInCodePrefix = "sdc_"

// ErrUnsafeNext refuses a sign-in link to a page outside this app.
var ErrUnsafeNext = errors.New("next must be a page of this app, starting with /app/")

// SignInLink mints a one-time code for a token and returns the sign-in link's path and
// query (/app/session?code=…&next=…), for the caller to put after its own base URL. The
// code works once, for SignInCodeTTL, and only while the token is not revoked; only its
// SHA-256 is stored.
func SignInLink(ctx context.Context, codes TokenStore, tokenID int64, next string) (string, error) {
	if !safeNext(next) {
		return "", fmt.Errorf("next %q: %w", next, ErrUnsafeNext)
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go ≥ 1.24)
	code := signInCodePrefix + base64.RawURLEncoding.EncodeToString(b)
	if err := codes.CreateSignInCode(ctx, tokenID, HashToken(code), SignInCodeTTL); err != nil {
		return "", err
	}
	return "/app/session?code=" + url.QueryEscape(code) + "&next=" + url.QueryEscape(next), nil
}

// Exchange trades a credential for a session cookie and redirects to the page asked for.
// A sign-in link (GET /app/session?code=…&next=/app/tickets/T-1) carries a one-time code,
// so a copied link cannot be replayed; the sign-in form (POST, Origin-checked) carries a
// token typed by the user. An API token in a GET address is refused: addresses end up in
// histories and logs. The redirect takes the code out of the address bar; next must be a
// page of this app, so the link cannot be used to send anyone elsewhere. Help-desk tokens
// get no session: they only deliver signed webhooks.
func (g *Authorizer) Exchange(c echo.Context) error {
	next := c.FormValue("next")
	if !safeNext(next) {
		next = "/app/login"
	}
	t, err := g.exchangeToken(c)
	if err != nil {
		return err
	}
	if Role(t.Role) == Helpdesk {
		g.refused.WithLabelValues("403").Inc()
		return echo.NewHTTPError(http.StatusForbidden, "help-desk tokens only deliver signed webhooks; sign in to pages with an agent, reviewer or admin token")
	}
	sess := g.Sessions.New(t.ID, t.Name, Role(t.Role), t.Agents, g.Now())
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

// exchangeToken finds the token a sign-in presents: a one-time code from a link (GET), or
// the token itself from the sign-in form (POST).
func (g *Authorizer) exchangeToken(c echo.Context) (store.Token, error) {
	ctx := c.Request().Context()
	if c.Request().Method == http.MethodGet {
		code := c.QueryParam("code")
		if code == "" {
			return store.Token{}, echo.NewHTTPError(http.StatusBadRequest, `this sign-in link has no code: ask for a new link ("supportdraft token link"), or sign in at /app/login`)
		}
		t, err := g.Tokens.UseSignInCode(ctx, HashToken(code))
		if errors.Is(err, store.ErrNotFound) {
			g.refused.WithLabelValues("401").Inc()
			return store.Token{}, unauthorized("this sign-in link has already been used, has expired (links work once, for 10 minutes) or its token was revoked: ask for a new link, or sign in at /app/login")
		}
		if err != nil {
			return store.Token{}, g.tokenError(err, "sign-in code")
		}
		return t, nil
	}
	tok := c.FormValue("token")
	if tok == "" {
		return store.Token{}, echo.NewHTTPError(http.StatusBadRequest, `field "token" is required: paste a token from "supportdraft token create"`)
	}
	t, err := g.Tokens.ActiveTokenByHash(ctx, HashToken(tok))
	if err != nil {
		g.refused.WithLabelValues("401").Inc()
		return store.Token{}, g.tokenError(err, "token")
	}
	return t, nil
}

// safeNext accepts only paths of this app: no scheme, no host, no "//" tricks.
func safeNext(next string) bool {
	u, err := url.Parse(next)
	return err == nil && u.Scheme == "" && u.Host == "" && strings.HasPrefix(next, "/app/") && !strings.Contains(next, "//") && !strings.Contains(next, `\`)
}
