package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"go.temporal.io/sdk/client"
	"golang.org/x/time/rate"
)

// HTTP server timeouts: a client gets 15 s to send a request (a slow-body client cannot
// hold a connection open), 5 minutes for a draft to be built and written, 2 minutes idle.
const (
	readTimeout  = 15 * time.Second
	writeTimeout = 5 * time.Minute
	idleTimeout  = 2 * time.Minute
)

// NewHTTPServer wraps handler in an http.Server with read, write and idle timeouts.
func NewHTTPServer(addr string, handler http.Handler) *http.Server {
	return &http.Server{Addr: addr, Handler: handler, ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout: readTimeout, WriteTimeout: writeTimeout, IdleTimeout: idleTimeout}
}

// RateLimit is how many state-changing requests (starts, revisions, rebuilds, edits) one
// caller may make: Burst at once, then PerMinute. Both the client IP and, when the request
// carries one, its bearer token have their own budget, so neither a shared proxy nor a
// token spread over many addresses escapes the limit. Zero PerMinute turns it off.
type RateLimit struct {
	PerMinute float64
	Burst     int
}

// limited applies both budgets; a refusal is 429 with Retry-After in seconds.
func (s *Server) limited() []echo.MiddlewareFunc {
	if s.Config.RateLimit.PerMinute <= 0 {
		return nil
	}
	perSecond := rate.Limit(s.Config.RateLimit.PerMinute / 60)
	retryAfter := strconv.Itoa(int(math.Ceil(1 / float64(perSecond))))
	limiter := func(kind string, key func(echo.Context) (string, bool)) echo.MiddlewareFunc {
		return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
			Skipper: func(c echo.Context) bool { _, ok := key(c); return !ok },
			Store: middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
				Rate: perSecond, Burst: max(s.Config.RateLimit.Burst, 1), ExpiresIn: 10 * time.Minute}),
			IdentifierExtractor: func(c echo.Context) (string, error) { k, _ := key(c); return k, nil },
			DenyHandler: func(c echo.Context, _ string, _ error) error {
				s.metrics.rateLimited.WithLabelValues(kind).Inc()
				c.Response().Header().Set("Retry-After", retryAfter)
				return echo.NewHTTPError(http.StatusTooManyRequests, fmt.Sprintf("too many requests from this %s: retry after %s s", kind, retryAfter))
			},
		})
	}
	byIP := limiter("address", func(c echo.Context) (string, bool) { return c.RealIP(), true })
	byToken := limiter("token", func(c echo.Context) (string, bool) {
		tok, ok := strings.CutPrefix(c.Request().Header.Get(echo.HeaderAuthorization), "Bearer ")
		if !ok || tok == "" {
			return "", false
		}
		sum := sha256.Sum256([]byte(tok)) // the limiter's map never holds the token itself
		return hex.EncodeToString(sum[:]), true
	})
	return []echo.MiddlewareFunc{byIP, byToken}
}

// checkHost refuses a request whose Host header is not an allowed name (DNS rebinding: a
// page on evil.example resolving to 127.0.0.1 would otherwise reach the API). An empty
// allow-list admits any host.
func (s *Server) checkHost(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if len(s.Config.AllowedHosts) > 0 && !slices.Contains(s.Config.AllowedHosts, hostOnly(c.Request().Host)) {
			return echo.NewHTTPError(http.StatusMisdirectedRequest, fmt.Sprintf("host %q is not served here (SUPPORTDRAFT_ALLOWED_HOSTS)", c.Request().Host))
		}
		return next(c)
	}
}

// checkOrigin refuses a state-changing request sent by a browser from another site: an
// Origin header that is neither this host nor an allowed origin, or Sec-Fetch-Site
// cross-site. Requests without either header (the help desk's server, curl) pass.
func (s *Server) checkOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		origin := r.Header.Get(echo.HeaderOrigin)
		if origin == "null" {
			// Browsers send "null" for a form posted from a page with Referrer-Policy
			// no-referrer (our sign-in form) as well as from sandboxed frames: only
			// Sec-Fetch-Site can tell them apart, so it must say same-origin.
			if r.Header.Get("Sec-Fetch-Site") != "same-origin" {
				return echo.NewHTTPError(http.StatusForbidden, `origin "null" may not change drafts unless the browser says the request is same-origin (Sec-Fetch-Site)`)
			}
			return next(c)
		}
		if origin != "" {
			u, err := url.Parse(origin)
			if err != nil || (u.Host != r.Host && !slices.Contains(s.Config.AllowedOrigins, origin)) {
				return echo.NewHTTPError(http.StatusForbidden, fmt.Sprintf("origin %q may not change drafts (SUPPORTDRAFT_ALLOWED_ORIGINS)", origin))
			}
		} else if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
			return echo.NewHTTPError(http.StatusForbidden, "cross-site requests may not change drafts")
		}
		return next(c)
	}
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.Trim(h, "[]")
	}
	return strings.Trim(hostport, "[]")
}

// healthz says the process serves HTTP; nothing else.
func healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// readyz says whether this API can do its work: Postgres answers and Temporal's frontend
// is healthy, each within a second. 503 names what is down, never how.
func (s *Server) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), time.Second)
	defer cancel()
	status, code := map[string]string{"database": "ok", "temporal": "ok"}, http.StatusOK
	if err := s.Store.Ping(ctx); err != nil {
		s.Log.Warn("readyz: database unreachable", "error", err)
		status["database"], code = "unreachable", http.StatusServiceUnavailable
	}
	if _, err := s.Temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		s.Log.Warn("readyz: temporal unreachable", "error", err)
		status["temporal"], code = "unreachable", http.StatusServiceUnavailable
	}
	return c.JSON(code, status)
}
