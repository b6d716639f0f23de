package api

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/email"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/intake"
	"github.com/supportdraft/supportdraft/workflows"
)

// inboundMessage is the help desk's webhook for inbound mail. It stores the message, runs
// the message's intake workflow and answers with the funnel's decision; a survivor's draft
// is being built by then, and the sidebar finds it. A redelivered message is a duplicate
// (Temporal refuses a second workflow with the same message ID), and the answer says so.
func (s *Server) inboundMessage(c echo.Context) error {
	m := &inbox.Message{}
	if err := decodeBody(c, "one message in the inbox format", m); err != nil {
		return err
	}
	if err := m.Validate(); err != nil {
		return badRequest("%v", err)
	}
	if err := s.reachTemporal(c.Request().Context()); err != nil {
		return err
	}
	res, err := s.intakeTarget(c).Deliver(c.Request().Context(), m)
	return s.answerIntake(c, res, err)
}

// inboundRaw takes a raw RFC 5322 message, as inbound-parse services and mail relays post
// it, into the same funnel as the JSON webhook (package email parses it; intake threads
// it by Message-ID). The body is the message itself, sent as message/rfc822; it is
// received now.
func (s *Server) inboundRaw(c echo.Context) error {
	ct, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	switch ct {
	case "message/rfc822", "text/plain", "application/octet-stream", "":
	default:
		return echo.NewHTTPError(http.StatusUnsupportedMediaType,
			fmt.Sprintf("Content-Type %s: post the raw RFC 5322 message as the body, with Content-Type message/rfc822", ct))
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "read body: "+err.Error())
	}
	m, err := email.Parse(body, time.Now())
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	if err := s.reachTemporal(c.Request().Context()); err != nil {
		return err
	}
	res, err := s.intakeTarget(c).DeliverMail(c.Request().Context(), m)
	return s.answerIntake(c, res, err)
}

// intakeTarget is where both inbox routes deliver: live traffic, drafting survivors. A
// message goes to the agent its recipients name, which must be one the help desk's token
// delivers for; a webhook that names its agent in the signed URL (?agent=ID) goes to it.
func (s *Server) intakeTarget(c echo.Context) intake.Target {
	t := intake.Target{Store: s.Store, Temporal: s.Temporal, TaskQueue: s.Config.TaskQueue,
		RemoteTriage: s.Config.RemoteTriage, Draft: true, Own: s.Config.OwnAddresses}
	if c.QueryParam(auth.AgentParam) == "" {
		t.Agents = s.Store
		if p, ok := auth.From(c); ok {
			t.Allowed = p.Agents
		}
	}
	return t
}

// answerIntake counts the funnel's decision and answers with it.
func (s *Server) answerIntake(c echo.Context, res *workflows.IntakeResult, err error) error {
	if errors.Is(err, intake.ErrAgentRefused) {
		return echo.NewHTTPError(http.StatusForbidden, err.Error()+": add the agent to the help desk's token (supportdraft token create --agent), or name the agent with ?agent=ID in the signed URL")
	}
	if err != nil {
		return err
	}
	s.metrics.inbox.WithLabelValues(res.Decision.Decision, res.Stage).Inc()
	if res.TriageFailedOpen {
		s.metrics.failedOpen.Inc()
	}
	return c.JSON(http.StatusOK, res)
}

// KillSwitchState is the admin endpoint's answer.
type KillSwitchState struct {
	Halted bool `json:"halted"`
}

func (s *Server) killSwitch(c echo.Context) error {
	halted, err := s.Store.Halted(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, KillSwitchState{Halted: halted})
}

// setKillSwitch turns drafting off or on at once for every worker: intake and rebuilds read
// the switch from the database on every message and every rebuild.
func (s *Server) setKillSwitch(c echo.Context) error {
	b, err := bindKillSwitch(c)
	if err != nil {
		return err
	}
	if err := s.Store.SetHalted(c.Request().Context(), *b.Halted, b.By); err != nil {
		return err
	}
	s.Log.Warn("kill switch changed", "halted", *b.Halted, "by", b.By)
	return c.JSON(http.StatusOK, KillSwitchState{Halted: *b.Halted})
}
