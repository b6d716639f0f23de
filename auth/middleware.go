package auth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/store"
)

// TokenStore is the part of the store the authorizer reads: tokens by hash and ID, one-time
// sign-in codes, and the signatures of webhooks already delivered.
type TokenStore interface {
	ActiveTokenByHash(ctx context.Context, hash []byte) (store.Token, error)
	ActiveToken(ctx context.Context, id int64) (store.Token, error)
	CreateSignInCode(ctx context.Context, tokenID int64, hash []byte, ttl time.Duration) error
	UseSignInCode(ctx context.Context, hash []byte) (store.Token, error)
	RecordDelivery(ctx context.Context, signature string, keep time.Duration) (bool, error)
}

// Principal is who is calling, set on the echo context for handlers and pages.
type Principal struct {
	TokenID int64
	Name    string
	Role    Role
	// Agents are the agents the caller may act for; the request's context acts for all of
	// them, or for the one the request names (see Agent).
	Agents []string
	// CSRF is the session's anti-forgery token for pages to embed; empty for bearer calls.
	CSRF string
}

const principalKey = "auth.principal"

// From returns the caller of a request that passed the authorizer.
func From(c echo.Context) (Principal, bool) {
	p, ok := c.Get(principalKey).(Principal)
	return p, ok
}

// Authorizer authenticates and authorises every request against the route table.
type Authorizer struct {
	Tokens          TokenStore
	Sessions        Sessions
	WebhookSecret   []byte // empty: signed webhooks are refused (503) until one is configured
	Now             func() time.Time
	Log             *slog.Logger
	refused         *prometheus.CounterVec
	webhooks        *prometheus.CounterVec
	known           knownTokens      // the tokens last confirmed, for when the store is down
	recent          recentDeliveries // the deliveries this process accepted, for when the store is down
	replayFallbacks prometheus.Counter
}

// replayCheckTimeout bounds the store's replay check: past it, memory decides.
const replayCheckTimeout = 2 * time.Second

// NewAuthorizer builds a guard; now is the clock (time.Now outside tests).
func NewAuthorizer(tokens TokenStore, sessionKey, webhookSecret []byte, log *slog.Logger) *Authorizer {
	return &Authorizer{Tokens: tokens, Sessions: Sessions{Key: sessionKey}, WebhookSecret: webhookSecret, Now: time.Now, Log: log,
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "supportdraft_auth_refused_total", Help: "Requests refused by the auth middleware, by HTTP status (401 no or bad credentials, 403 wrong role or CSRF).",
		}, []string{"status"}),
		webhooks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "supportdraft_webhook_signatures_total", Help: "Help-desk webhook signatures checked, by result (ok, missing, bad, stale, replayed).",
		}, []string{"result"}),
		replayFallbacks: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "supportdraft_webhook_replay_fallbacks_total", Help: "Webhook replay checks the store could not answer, decided by this process's memory of recent deliveries.",
		}),
	}
}

// Collectors are the authorizer's counters, for the API's Prometheus registry.
func (g *Authorizer) Collectors() []prometheus.Collector {
	return []prometheus.Collector{g.refused, g.webhooks, g.replayFallbacks}
}

// Middleware checks every request: public routes pass; others need a bearer token or a
// session cookie (with a CSRF token on unsafe methods) whose role the route admits; the
// help-desk role must also sign its bodies. It runs after routing, so c.Path() is the
// route pattern the table is keyed by.
func (g *Authorizer) Middleware() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			access, known := Lookup(c.Request().Method, c.Path())
			if known && access.Public {
				return next(c)
			}
			p, err := g.authenticate(c)
			if err != nil {
				g.refused.WithLabelValues("401").Inc()
				c.Response().Header().Set("WWW-Authenticate", `Bearer realm="supportdraft"`)
				return err
			}
			switch {
			case c.Path() == "" || c.Path() == "/*":
				return echo.ErrNotFound // no such route: say so only to a known caller
			case !known:
				g.refused.WithLabelValues("403").Inc()
				return echo.NewHTTPError(http.StatusForbidden, fmt.Sprintf("%s %s has no entry in the route table (auth/routes.go): refused for every role", c.Request().Method, c.Path()))
			case !access.Allows(p.Role):
				g.refused.WithLabelValues("403").Inc()
				return echo.NewHTTPError(http.StatusForbidden, fmt.Sprintf("role %s may not %s %s", p.Role, c.Request().Method, c.Path()))
			}
			if p.Role == Helpdesk {
				if err := g.verifyWebhook(c); err != nil {
					return err
				}
			}
			acting, err := actingAgents(c, p)
			if err != nil {
				return err
			}
			c.Set(principalKey, p)
			c.SetRequest(c.Request().WithContext(agent.With(c.Request().Context(), acting...)))
			return next(c)
		}
	}
}

func unauthorized(msg string) error { return echo.NewHTTPError(http.StatusUnauthorized, msg) }

// authenticate reads the bearer token, or else the session cookie. A session's token
// must still be active, and an unsafe request made with it must carry its CSRF token.
func (g *Authorizer) authenticate(c echo.Context) (Principal, error) {
	ctx := c.Request().Context()
	if h := c.Request().Header.Get(echo.HeaderAuthorization); h != "" {
		scheme, tok, _ := strings.Cut(strings.TrimSpace(h), " ")
		tok = strings.TrimSpace(tok)
		if !strings.EqualFold(scheme, "Bearer") || tok == "" { // RFC 7235: the scheme is case-insensitive
			return Principal{}, unauthorized(`Authorization must be "Bearer <token>"`)
		}
		hash := HashToken(tok)
		t, remembered, err := g.known.lookup("hash:"+string(hash), g.Now(), func() (store.Token, error) { return g.Tokens.ActiveTokenByHash(ctx, hash) })
		if err != nil {
			return Principal{}, g.tokenError(err, "token")
		}
		g.noteRemembered(remembered, t)
		return Principal{TokenID: t.ID, Name: t.Name, Role: Role(t.Role), Agents: t.Agents}, nil
	}
	ck, err := c.Cookie(SessionCookie)
	if err != nil {
		return Principal{}, unauthorized("sign in: send Authorization: Bearer <token>, or open the sidebar through its sign-in link")
	}
	sess, err := g.Sessions.Decode(ck.Value, g.Now())
	if err != nil {
		return Principal{}, unauthorized(err.Error())
	}
	t, remembered, err := g.known.lookup(fmt.Sprintf("id:%d", sess.TokenID), g.Now(), func() (store.Token, error) { return g.Tokens.ActiveToken(ctx, sess.TokenID) })
	if err != nil {
		return Principal{}, g.tokenError(err, "the token this session was opened with")
	}
	g.noteRemembered(remembered, t)
	p := Principal{TokenID: t.ID, Name: t.Name, Role: Role(t.Role), Agents: sessionAgents(sess, t), CSRF: g.Sessions.CSRF(sess)}
	if len(p.Agents) == 0 {
		return Principal{}, unauthorized("the token this session was opened with no longer acts for the session's agents: sign in again")
	}
	if m := c.Request().Method; m != http.MethodGet && m != http.MethodHead {
		sent := c.Request().Header.Get("X-CSRF-Token")
		if sent == "" {
			sent = c.FormValue("csrf")
		}
		if sent != p.CSRF {
			g.refused.WithLabelValues("403").Inc()
			return Principal{}, echo.NewHTTPError(http.StatusForbidden, "missing or wrong CSRF token: reload the page and try again")
		}
	}
	return p, nil
}

// noteRemembered logs a token accepted from memory because the store could not answer.
func (g *Authorizer) noteRemembered(remembered bool, t store.Token) {
	if remembered {
		g.Log.Warn("token store unavailable: accepting a token it confirmed recently", "token", t.ID, "role", t.Role)
	}
}

// tokenError turns a failed lookup into 401 (unknown or revoked) or a logged 500.
func (g *Authorizer) tokenError(err error, what string) error {
	if errors.Is(err, store.ErrNotFound) {
		return unauthorized(what + " is unknown or revoked")
	}
	g.Log.Error("token lookup failed", "error", err)
	return echo.NewHTTPError(http.StatusServiceUnavailable, "cannot check credentials right now: try again")
}

// verifyWebhook checks a help-desk request's signature (timestamp, method, path and body)
// and refuses one whose signed content was accepted before. The replay check asks the
// store, which every replica shares, and this process's memory; when the store cannot
// answer within a few seconds memory alone decides, so an outage neither lets a replay
// through here nor turns the send hook's "unchecked" answer into a 503.
func (g *Authorizer) verifyWebhook(c echo.Context) error {
	if len(g.WebhookSecret) == 0 {
		return echo.NewHTTPError(http.StatusServiceUnavailable, "signed webhooks are not configured on this server: set SUPPORTDRAFT_WEBHOOK_SECRET")
	}
	req := c.Request()
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	signed, err := Verify(g.WebhookSecret, req.Method, req.URL.RequestURI(), body, req.Header.Get(SignatureHeader), g.Now())
	if err == nil && !g.fresh(req.Context(), signed) {
		err = ErrSignatureReplay
	}
	result := map[error]string{nil: "ok", ErrSignatureMissing: "missing", ErrSignatureStale: "stale", ErrSignatureReplay: "replayed"}[err]
	if result == "" {
		result = "bad"
	}
	g.webhooks.WithLabelValues(result).Inc()
	if err != nil {
		g.refused.WithLabelValues("401").Inc()
		return unauthorized(err.Error())
	}
	return nil
}

// fresh records a verified delivery and reports whether it is new: new to this process
// and, when the store answers, to every replica.
func (g *Authorizer) fresh(ctx context.Context, signed Signed) bool {
	newHere := g.recent.add(signed, g.Now())
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), replayCheckTimeout)
	defer cancel()
	newEverywhere, err := g.Tokens.RecordDelivery(ctx, signed.String(), replayWindow)
	if err != nil {
		g.Log.Warn("webhook replay check: the store cannot answer, this process's memory decides", "error", err)
		g.replayFallbacks.Inc()
		return newHere
	}
	return newHere && newEverywhere
}
