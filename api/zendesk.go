package api

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/helpdesk"
	"github.com/supportdraft/supportdraft/integrations/zendesk"
	"github.com/supportdraft/supportdraft/store"
)

// Zendesk is the Zendesk integration as the API serves it. Either half may be off: App nil
// (no sidebar app), Events nil (no events webhook).
type Zendesk struct {
	// App verifies the JWT of a signed sidebar load; AppToken is the agent token (from
	// "supportdraft token create") whose sessions the app opens, so revoking it closes
	// every Zendesk sidebar.
	App      *zendesk.AppVerifier
	AppToken string
	// SDKURL is where the sidebar loads the Apps framework client from ("": Zendesk's
	// CDN, zendesk.SDKURL); a browser test serves a stand-in.
	SDKURL string

	// WebhookSecret is the events webhook's signing secret; Client reads the ticket an
	// event names back from the Tickets API; Fields name the plan and region fields.
	WebhookSecret []byte
	Client        *zendesk.Client
	Fields        zendesk.Fields
}

// frameAncestors adds the configured frame-ancestors to every page's
// Content-Security-Policy, so only the help desk may frame the /app/ pages; without
// configured origins the pages' own policy stands.
func (s *Server) frameAncestors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if len(s.Config.FrameAncestors) > 0 {
			h := c.Response().Header()
			c.Response().Before(func() {
				if csp := h.Get("Content-Security-Policy"); csp != "" && !strings.Contains(csp, "frame-ancestors") {
					h.Set("Content-Security-Policy", csp+"; frame-ancestors "+strings.Join(s.Config.FrameAncestors, " "))
				}
			})
		}
		return next(c)
	}
}

// zendeskMetrics counts what the Zendesk routes refuse and accept.
type zendeskMetrics struct {
	webhooks  *prometheus.CounterVec
	appTokens *prometheus.CounterVec
}

func newZendeskMetrics() zendeskMetrics {
	return zendeskMetrics{
		webhooks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "supportdraft_zendesk_webhooks_total", Help: "Zendesk webhook deliveries by signature result (ok, missing, bad, stale, replayed).",
		}, []string{"result"}),
		appTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "supportdraft_zendesk_app_tokens_total", Help: "ZAF JWTs of sidebar loads by result (ok, refused).",
		}, []string{"result"}),
	}
}

func (m zendeskMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.webhooks, m.appTokens}
}

// errZendeskReplay is a delivery whose signature was already accepted.
var errZendeskReplay = errors.New(zendesk.SignatureHeader + " was already used: a delivery is accepted once")

// zendeskSidebar answers the app's first, signed load: Zendesk POSTs the ZAF JWT as form
// field "token". A verified token opens a session for the agent (the configured app
// token's, as a sign-in link would) and the framed sidebar is served at once, at the
// same URL, so the Apps framework client finds its origin and app_guid in the query.
func (s *Server) zendeskSidebar(c echo.Context) error {
	z := s.Config.Zendesk
	if z == nil || z.App == nil {
		return echo.NewHTTPError(http.StatusNotFound, "the Zendesk app is not configured on this server: set SUPPORTDRAFT_ZENDESK_APP_PUBLIC_KEY_FILE, SUPPORTDRAFT_ZENDESK_APP_AUD and SUPPORTDRAFT_ZENDESK_APP_TOKEN")
	}
	agent, err := z.App.Verify(c.FormValue("token"))
	if err != nil {
		s.metrics.zendesk.appTokens.WithLabelValues("refused").Inc()
		return echo.NewHTTPError(http.StatusUnauthorized, err.Error())
	}
	s.metrics.zendesk.appTokens.WithLabelValues("ok").Inc()
	t, err := s.Auth.Tokens.ActiveTokenByHash(c.Request().Context(), auth.HashToken(z.AppToken))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return echo.NewHTTPError(http.StatusServiceUnavailable, "SUPPORTDRAFT_ZENDESK_APP_TOKEN is unknown or revoked: create an agent token for the app (supportdraft token create)")
	case err != nil:
		return err
	case auth.Role(t.Role) == auth.Helpdesk:
		return echo.NewHTTPError(http.StatusServiceUnavailable, "SUPPORTDRAFT_ZENDESK_APP_TOKEN is a help-desk token: the app needs an agent token")
	}
	sess := s.Auth.Sessions.New(t.ID, "zendesk:"+agent.UserID, auth.Role(t.Role), t.Agents, s.Auth.Now())
	secure := c.Scheme() == "https"
	ck := &http.Cookie{Name: auth.SessionCookie, Value: s.Auth.Sessions.Encode(sess), Path: "/", HttpOnly: true, Secure: secure,
		MaxAge: int(auth.SessionTTL.Seconds()), SameSite: http.SameSiteLaxMode}
	if secure {
		// The sidebar is framed by another site: only a SameSite=None cookie reaches it,
		// and a partitioned one (kept under Zendesk's site) still does where the browser
		// blocks third-party cookies.
		ck.SameSite, ck.Partitioned = http.SameSiteNoneMode, true
	}
	c.SetCookie(ck)
	h := c.Response().Header()
	h.Set("Content-Security-Policy", zendesk.SidebarCSP(z.SDKURL, s.Config.FrameAncestors))
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	var b strings.Builder
	if err := zendesk.RenderSidebar(&b, zendesk.SidebarPage{CSRF: s.Auth.Sessions.CSRF(sess), SDK: z.SDKURL}); err != nil {
		return err
	}
	return c.HTML(http.StatusOK, b.String())
}

// zendeskEvent receives Zendesk's ticket events. The signature is Zendesk's own
// (base64 HMAC-SHA256 of timestamp and body with the webhook's signing secret), checked
// here rather than by the guard; a signature is accepted once. A ticket created or a
// comment added reads the ticket back from the Tickets API, maps it to the ticket
// contract and opens its draft as POST /v1/drafts does; other events are acknowledged.
func (s *Server) zendeskEvent(c echo.Context) error {
	z := s.Config.Zendesk
	if z == nil || len(z.WebhookSecret) == 0 || z.Client == nil {
		return echo.NewHTTPError(http.StatusNotFound, "Zendesk events are not configured on this server: set SUPPORTDRAFT_ZENDESK_URL, SUPPORTDRAFT_ZENDESK_WEBHOOK_SECRET, SUPPORTDRAFT_ZENDESK_EMAIL and SUPPORTDRAFT_ZENDESK_API_TOKEN")
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
	}
	if err := s.verifyZendesk(c, z.WebhookSecret, body); err != nil {
		return err
	}
	ev, err := zendesk.ParseEvent(body)
	if err != nil {
		return badRequest("%v", err)
	}
	if !ev.Drafts() {
		return c.JSON(http.StatusAccepted, map[string]string{"ignored": ev.Type})
	}
	n, err := ev.TicketNumber()
	if err != nil {
		return badRequest("%v", err)
	}
	th, err := z.Client.Thread(c.Request().Context(), n)
	if errors.Is(err, helpdesk.ErrRefused) {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, fmt.Sprintf("zendesk ticket %d cannot be read with the configured API user: %v", n, err))
	}
	if err != nil {
		s.Log.Warn("zendesk ticket read failed", "zendesk_ticket", n, "error", err)
		return echo.NewHTTPError(http.StatusBadGateway, fmt.Sprintf("zendesk ticket %d could not be read from Zendesk: retry", n))
	}
	t, err := zendesk.Map(th, z.Fields)
	if err != nil {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, err.Error())
	}
	if !zendesk.AwaitsReply(t) {
		return c.JSON(http.StatusAccepted, map[string]string{"ignored": fmt.Sprintf("zendesk ticket %d: the last public comment is an agent's, nothing to draft", n)})
	}
	if err := t.Validate(); err != nil {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, fmt.Sprintf("zendesk ticket %d: %v", n, err))
	}
	if err := s.Config.Tickets.Check(t); err != nil {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, fmt.Sprintf("zendesk ticket %d: %v", n, err))
	}
	return s.openDraft(c, t, true)
}

// verifyZendesk checks a delivery's signature and refuses one already accepted; every
// result is counted.
func (s *Server) verifyZendesk(c echo.Context, secret, body []byte) error {
	sig := c.Request().Header.Get(zendesk.SignatureHeader)
	err := zendesk.VerifySignature(secret, body, sig, c.Request().Header.Get(zendesk.SignatureTimestampHeader), s.Auth.Now())
	if err == nil {
		fresh, rerr := s.Store.RecordDelivery(c.Request().Context(), "zendesk "+sig, 2*zendesk.SignatureTolerance)
		if rerr != nil {
			s.Log.Error("zendesk replay check failed", "error", rerr)
			return echo.NewHTTPError(http.StatusServiceUnavailable, "cannot check the webhook signature right now: retry")
		}
		if !fresh {
			err = errZendeskReplay
		}
	}
	result := map[error]string{nil: "ok", zendesk.ErrSignatureMissing: "missing", zendesk.ErrSignatureStale: "stale", errZendeskReplay: "replayed"}[err]
	if result == "" {
		result = "bad"
	}
	s.metrics.zendesk.webhooks.WithLabelValues(result).Inc()
	if err != nil {
		return echo.NewHTTPError(http.StatusUnauthorized, err.Error())
	}
	return nil
}
