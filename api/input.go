package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/strictjson"
	"github.com/supportdraft/supportdraft/ticket"
)

// MaxReplyBytes bounds the text of an edit or a send-check: a reply, not a document.
const MaxReplyBytes = 20000

// maxBodyBytes bounds any request body; a ticket at its limits fits with room for JSON
// escaping.
const maxBodyBytes = 512 << 10

// bindTicket reads the request body as one ticket under the input contract: strict JSON
// (no unknown fields, duplicate keys or trailing data), the ticket's own limits, and the
// configured plans, regions and locales. Every refusal is a 400 naming the field.
func (s *Server) bindTicket(c echo.Context) (*ticket.Ticket, error) {
	if err := requireJSON(c); err != nil {
		return nil, err
	}
	var t ticket.Ticket
	if err := strictjson.DecodeReader(c.Request().Body, maxBodyBytes, &t); err != nil {
		return nil, badRequest("body is not a ticket in the ticket JSON format: %v", err)
	}
	if err := t.Validate(); err != nil {
		return nil, badRequest("%v", err)
	}
	if err := s.Config.Tickets.Check(&t); err != nil {
		return nil, badRequest("%v", err)
	}
	return &t, nil
}

// bindText reads {"text": "..."}: required, valid UTF-8 without NUL, at most MaxReplyBytes.
func bindText(c echo.Context) (string, error) {
	if err := requireJSON(c); err != nil {
		return "", err
	}
	var b struct {
		Text string `json:"text"`
	}
	if err := strictjson.DecodeReader(c.Request().Body, maxBodyBytes, &b); err != nil {
		return "", badRequest(`body must be {"text": "the reply"}: %v`, err)
	}
	switch {
	case strings.TrimSpace(b.Text) == "":
		return "", badRequest(`field "text" is required: the reply`)
	case len(b.Text) > MaxReplyBytes:
		return "", badRequest(`field "text" is %d bytes: at most %d are accepted`, len(b.Text), MaxReplyBytes)
	case !utf8.ValidString(b.Text) || strings.ContainsRune(b.Text, 0):
		return "", badRequest(`field "text" is not valid UTF-8 text`)
	}
	return b.Text, nil
}

// requireJSON refuses bodies that are not declared JSON. Besides naming the problem, it
// stops a cross-site HTML form (which can only send form encodings or text/plain) from
// reaching a state-changing route.
func requireJSON(c echo.Context) error {
	ct := c.Request().Header.Get(echo.HeaderContentType)
	if !strings.HasPrefix(strings.ToLower(strings.TrimSpace(ct)), echo.MIMEApplicationJSON) {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, `header "Content-Type" must be application/json`)
	}
	return nil
}

// checkTicketParam refuses a {ticket} URL parameter outside the ticket ID contract with a
// 400, before any lookup: an ID the contract cannot produce names no draft.
func checkTicketParam(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := ticket.ValidateID(c.Param("ticket")); err != nil {
			return badRequest("URL ticket ID: %v", err)
		}
		return next(c)
	}
}

// checkRevision refuses a revision that jumps more than ticket.MaxRevisionJump past the
// last one stored for the ticket.
func (s *Server) checkRevision(ctx context.Context, t *ticket.Ticket) error {
	last, err := s.Store.LatestRevision(ctx, t.TicketID)
	if err != nil {
		return err
	}
	if t.Revision > last+ticket.MaxRevisionJump {
		return badRequest(`ticket %s: field "revision" is %d but the last stored revision is %d: a revision may be at most %d past the last`,
			t.TicketID, t.Revision, last, ticket.MaxRevisionJump)
	}
	return nil
}

// saveRevision validates the revision's number and stores it; a reused revision number
// with different content is a 409, counted. inserted is true when this call stored it.
func (s *Server) saveRevision(ctx context.Context, t *ticket.Ticket) (inserted bool, err error) {
	if err := s.checkRevision(ctx, t); err != nil {
		return false, err
	}
	inserted, err = s.Store.InsertTicket(ctx, t)
	if errors.Is(err, store.ErrRevisionConflict) {
		s.metrics.revisionConflicts.Inc()
		return false, echo.NewHTTPError(http.StatusConflict, fmt.Sprintf(
			`ticket %s: field "revision" %d is already stored with different content: send changed content as a new revision`, t.TicketID, t.Revision))
	}
	return inserted, err
}

func badRequest(format string, args ...any) error {
	return echo.NewHTTPError(http.StatusBadRequest, fmt.Sprintf(format, args...))
}
