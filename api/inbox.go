package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/intake"
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
	target := intake.Target{Store: s.Store, Temporal: s.Temporal, TaskQueue: s.Config.TaskQueue,
		RemoteTriage: s.Config.RemoteTriage, Draft: true}
	if err := s.reachTemporal(c.Request().Context()); err != nil {
		return err
	}
	res, err := target.Deliver(c.Request().Context(), m)
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
