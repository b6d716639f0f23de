// Package api is the HTTP face of supportdraft: the help-desk sidebar starts and reads
// drafts, agents edit, rebuild and discard them, the send hook asks whether a draft is
// still current, and the ticket webhook reports new revisions. Handlers bind, call one
// thing, and answer JSON; the workflow and the store do the work.
package api

import (
	"errors"
	"fmt"
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/inbox"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/integrations/zendesk"
	"github.com/supportdraft/supportdraft/sendcheck"
	"github.com/supportdraft/supportdraft/sources"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/web"
	"github.com/supportdraft/supportdraft/workflows"
)

// Server holds the API's dependencies.
type Server struct {
	Temporal client.Client
	Store    *store.Store
	// Vocab is the guard's vocabulary: send-check runs it on the text about to be sent.
	Vocab *guard.Vocabulary
	// Auth checks every route against the route table (auth/routes.go). Required: there
	// is no unauthenticated mode.
	Auth    *auth.Authorizer
	Config  Config
	Log     *slog.Logger
	metrics *metrics
	checker *sendcheck.Checker // the send hook's verdicts
	// temporal is the last health check of Temporal, for reachTemporal.
	temporal temporalHealth
	once     sync.Once
}

// Config is the part of the configuration the API acts on.
type Config struct {
	TaskQueue    string        // where draft workflows run (workflows.TaskQueue)
	RemoteTriage bool          // intake triage calls a model: a regular activity with a timeout
	TemporalUI   string        // base URL of the Temporal Web UI, for links in responses
	Namespace    string        // Temporal namespace, for those links
	IdleTimeout  time.Duration // passed to new draft workflows
	CheckBudget  time.Duration // how long the workflow's freshness check may try
	ReviewDelay  time.Duration // passed to new draft workflows: their review window

	Tickets        ticket.Sets            // plans, regions and locales accepted at intake (empty: any well-formed name)
	AllowedHosts   []string               // Host header values served (empty: any)
	AllowedOrigins []string               // browser origins, besides this host's own, allowed to change drafts
	RateLimit      RateLimit              // per-IP and per-token budget for starts, revisions, rebuilds and edits
	Spool          *Spool                 // where send-check verdicts wait while Postgres is down (nil: log only)
	Codec          converter.PayloadCodec // the Temporal payload codec, served to the Web UI at /codec (nil: none)
	Zendesk        *Zendesk               // the Zendesk sidebar app and events (nil: their routes answer 404)
	FrameAncestors []string               // origins allowed to frame the pages (empty: pages set none, the Zendesk sidebar 'none')
	OwnAddresses   *inbox.Support         // raw mail from these, or naming them in X-Loop, is a loop (nil: no check)
	Slack          *Slack                 // reviewers' decisions from Slack (nil: the route answers 404)
	NotifySlack    bool                   // passed to new draft workflows: post each queued draft to Slack
}

type metrics struct {
	registry   *prometheus.Registry
	sendChecks *prometheus.CounterVec
	unchecked  *prometheus.CounterVec
	intake     *prometheus.CounterVec
	inbox      *prometheus.CounterVec
	failedOpen prometheus.Counter
	// slackRefused counts Slack interactivity requests refused, by reason (unsigned,
	// forged, stale, replayed, not_a_reviewer).
	slackRefused *prometheus.CounterVec

	revisionConflicts prometheus.Counter
	rateLimited       *prometheus.CounterVec
	spooled           prometheus.Counter
	zendesk           zendeskMetrics
	reviewOverrides   *prometheus.CounterVec
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		sendChecks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "supportdraft_send_checks_total", Help: "Send-checks answered, by agent and verdict.",
		}, []string{"agent", "verdict"}),
		unchecked: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "supportdraft_unchecked_sends_total",
			Help: "Sends allowed without a full check, by agent and cause (check_failed: the draft, ticket or policy versions could not be read; guard_failed: the text could not be read against policy).",
		}, []string{"agent", "cause"}),
		intake: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "supportdraft_intake_total", Help: "Draft requests at intake, by agent and outcome.",
		}, []string{"agent", "outcome"}),
	}
	m.inbox = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "supportdraft_inbox_messages_total", Help: "Inbound messages by funnel decision and the stage that decided.",
	}, []string{"decision", "stage"})
	m.failedOpen = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "supportdraft_triage_failed_open_total", Help: "Inbound messages whose triage failed and were treated as needing a response.",
	})
	m.revisionConflicts = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "supportdraft_revision_conflicts_total",
		Help: "Ticket revisions refused because the same revision number was already stored with different content.",
	})
	m.rateLimited = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "supportdraft_rate_limited_total", Help: "State-changing requests refused with 429, by budget (address, token).",
	}, []string{"budget"})
	m.spooled = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "supportdraft_send_checks_spooled_total",
		Help: "Send-check verdicts written to the local spool because the database could not record them.",
	})
	m.zendesk = newZendeskMetrics()
	m.slackRefused = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "supportdraft_slack_requests_refused_total",
		Help: "Slack interactivity requests refused, by reason: unsigned, forged, stale, replayed, not_a_reviewer.",
	}, []string{"reason"})
	m.reviewOverrides = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "supportdraft_review_overrides_total",
		Help: "Drafts the review gate held that went out without approval, by agent and how (override: a reviewer cleared the gate; sent: the help desk reported the send with an override reason).",
	}, []string{"agent", "how"})
	m.registry.MustRegister(m.sendChecks, m.unchecked, m.intake, m.inbox, m.failedOpen, m.revisionConflicts, m.rateLimited, m.spooled, m.slackRefused, m.reviewOverrides)
	m.registry.MustRegister(m.zendesk.collectors()...)
	return m
}

// Handler returns the echo instance with every route. Every route checks the Host header
// and the caller's role (auth); state-changing routes also check the Origin; starts,
// revisions, rebuilds and edits are rate limited. /metrics needs the admin role.
func (s *Server) Handler() *echo.Echo {
	s.init()
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = s.errorHandler
	e.IPExtractor = echo.ExtractIPDirect() // X-Forwarded-For is the client's to forge
	e.Use(middleware.Recover(), middleware.RequestID(), middleware.BodyLimit("256KiB"), s.checkHost, s.frameAncestors, s.Auth.Middleware())
	s.metrics.registry.MustRegister(s.Auth.Collectors()...)
	e.GET("/healthz", healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", echo.WrapHandler(promhttp.HandlerFor(s.metrics.registry, promhttp.HandlerOpts{})))
	v1 := e.Group("/v1")
	change := append([]echo.MiddlewareFunc{s.checkOrigin}, s.limited()...)
	v1.POST("/drafts", s.startDraft, change...)
	v1.GET("/drafts/:ticket", s.getDraft, checkTicketParam)
	v1.GET("/drafts/:ticket/history", s.history, checkTicketParam)
	v1.POST("/drafts/:ticket/edit", s.edit, append([]echo.MiddlewareFunc{checkTicketParam}, change...)...)
	v1.POST("/drafts/:ticket/send-check", s.sendCheck, checkTicketParam, s.checkOrigin)
	v1.POST("/drafts/:ticket/rebuild", s.rebuild, append([]echo.MiddlewareFunc{checkTicketParam}, change...)...)
	v1.POST("/drafts/:ticket/discard", s.discard, checkTicketParam, s.checkOrigin)
	v1.POST("/drafts/:ticket/reopen", s.reopen, append([]echo.MiddlewareFunc{checkTicketParam}, change...)...)
	v1.POST("/tickets/:ticket/revisions", s.newRevision, append([]echo.MiddlewareFunc{checkTicketParam}, change...)...)
	// The help desk posts every inbound email here: no per-token rate limit, which would drop mail.
	v1.POST("/inbox/messages", s.inboundMessage, s.checkOrigin)
	v1.POST("/inbox/raw", s.inboundRaw, s.checkOrigin)
	v1.POST("/slack/interactions", s.slackInteraction)
	v1.GET("/admin/killswitch", s.killSwitch)
	v1.POST("/admin/killswitch", s.setKillSwitch, s.checkOrigin)
	v1.GET("/review/queue", s.reviewQueue)
	v1.POST("/drafts/:ticket/approve", s.approve, checkTicketParam, s.checkOrigin)
	v1.POST("/drafts/:ticket/pull", s.pull, checkTicketParam, s.checkOrigin)
	v1.POST("/drafts/:ticket/kill", s.kill, checkTicketParam, s.checkOrigin)
	v1.POST("/drafts/:ticket/override", s.override, checkTicketParam, s.checkOrigin)
	v1.POST("/drafts/:ticket/assign", s.assign, checkTicketParam, s.checkOrigin)
	v1.POST("/drafts/:ticket/sent", s.sent, checkTicketParam, s.checkOrigin)
	// Zendesk signs its events its own way (verified in the handler) and posts the app's
	// JWT from its own origin, so neither route takes the Origin check.
	v1.POST("/zendesk/events", s.zendeskEvent)
	e.POST(zendesk.SidebarPath, s.zendeskSidebar)
	e.GET("/app/zendesk/assets/*", echo.WrapHandler(http.StripPrefix("/app/zendesk/assets/", zendesk.Assets())))
	v1.POST("/sign-in-links", s.signInLink, s.checkOrigin)
	e.GET("/app/session", s.Auth.Exchange)
	e.POST("/app/session", s.Auth.Exchange, s.checkOrigin) // login CSRF: another site may not sign a browser in
	s.codecRoutes(e)
	s.pages().Register(e)
	return e
}

func (s *Server) init() {
	s.once.Do(func() {
		s.metrics = newMetrics()
		if s.Log == nil {
			s.Log = slog.Default()
		}
		s.checker = &sendcheck.Checker{Store: s.Store, Sources: sources.New(s.Store, s.Vocab), Vocab: s.Vocab,
			Temporal: s.Temporal, Log: s.Log}
	})
}

// errorHandler answers every error as JSON {"error": "..."}: echo's HTTP errors keep their
// code and message (4xx name the field); Temporal's NotFound and the store's ErrNotFound are
// 404; a rejected update (the workflow's validator said no) is 409. A 5xx answers only a
// generic message and the request ID: the detail (SQL, hosts, users) goes to the log
// under that ID, never to the client.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	code, msg := http.StatusInternalServerError, ""
	var he *echo.HTTPError
	var notFound *serviceerror.NotFound
	var appErr *temporal.ApplicationError
	switch {
	case errors.As(err, &he):
		code, msg = he.Code, fmt.Sprint(he.Message)
	case errors.As(err, &notFound), errors.Is(err, store.ErrNotFound):
		code, msg = http.StatusNotFound, fmt.Sprintf("no draft for ticket %s", c.Param("ticket"))
	case errors.As(err, &appErr) && appErr.Type() == workflows.ErrBuildFailed:
		code = http.StatusBadGateway
	case isRejection(err):
		code, msg = http.StatusConflict, appErr.Message()
	case unavailable(err):
		code = http.StatusServiceUnavailable
	}
	if code >= 500 {
		id := c.Response().Header().Get(echo.HeaderXRequestID)
		s.Log.Error("request failed", "request_id", id, "method", c.Request().Method, "path", c.Path(), "status", code, "error", err)
		msg = fmt.Sprintf("%s: the server could not complete this request (request ID %s; the detail is in the server log)", http.StatusText(code), id)
		if code == http.StatusServiceUnavailable {
			msg = fmt.Sprintf("%s (request ID %s)", errUnavailable.Message, id)
		}
	}
	if strings.HasPrefix(c.Request().URL.Path, "/app/") {
		if perr := s.pages().Error(c, code, msg); perr == nil {
			return
		}
	}
	_ = c.JSON(code, map[string]string{"error": msg})
}

// pages are the browser pages under /app/, over the same store.
func (s *Server) pages() *web.Pages {
	return &web.Pages{Store: s.Store, Log: s.Log, TemporalUI: s.temporalUIBase(), HelpdeskOrigins: s.Config.AllowedOrigins}
}

// temporalUIBase is the Temporal Web UI's namespace URL, "" when none is configured.
func (s *Server) temporalUIBase() string {
	if s.Config.TemporalUI == "" {
		return ""
	}
	return s.Config.TemporalUI + "/namespaces/" + s.Config.Namespace
}

// isRejection reports an update refused by the workflow's validator.
func isRejection(err error) bool {
	var appErr *temporal.ApplicationError
	return errors.As(err, &appErr) && appErr.Type() == workflows.ErrRejected
}
