package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/strictjson"
	"github.com/supportdraft/supportdraft/ticket"
)

// MaxReplyBytes bounds the text of an edit or a send-check: a reply, not a document.
const MaxReplyBytes = 20000

// maxBodyBytes bounds any request body, as documented: 256 KiB. A ticket's text may hold
// 192 KiB, which leaves room for the JSON around it.
const maxBodyBytes = 256 << 10

// decodeBody reads a JSON request body into v under the one input contract of every
// route: declared JSON, at most maxBodyBytes, nested at most strictjson.MaxDepth levels
// (both refused while reading, before any parsing), no unknown fields, duplicate keys or
// trailing data. what names the expected body in the 400.
func decodeBody(c echo.Context, what string, v any) error {
	if err := requireJSON(c); err != nil {
		return err
	}
	if err := strictjson.DecodeReader(c.Request().Body, maxBodyBytes, v); err != nil {
		var se *strictjson.Error
		var tooLarge *echo.HTTPError // the body limit's 413, met while reading
		switch {
		case errors.As(err, &tooLarge):
			return tooLarge
		case errors.Is(err, strictjson.ErrTooLarge):
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is larger than %d bytes", maxBodyBytes))
		case !errors.As(err, &se):
			return badRequest("read the request body: %v", err)
		}
		return badRequest("body must be %s: %v", what, err)
	}
	return nil
}

// bindTicket reads the request body as one ticket under the input contract: strict JSON
// (no unknown fields, duplicate keys or trailing data), the ticket's own limits, and the
// configured plans, regions and locales. Every refusal is a 400 naming the field.
func (s *Server) bindTicket(c echo.Context) (*ticket.Ticket, error) {
	var t ticket.Ticket
	if err := decodeBody(c, "a ticket in the ticket JSON format", &t); err != nil {
		return nil, err
	}
	if err := t.Validate(); err != nil {
		return nil, badRequest("%v", err)
	}
	if err := s.Config.Tickets.Check(&t); err != nil {
		return nil, badRequest("%v", err)
	}
	return &t, nil
}

// bindText reads the edit body {"text": "..."} (see bindSendText).
func bindText(c echo.Context) (string, error) {
	b, err := bindSendText(c, false)
	return b.Text, err
}

// sendText is a body with the reply and, for send-check only, the agent's reason for
// sending despite an unsupported verdict.
type sendText struct {
	Text           string `json:"text"`
	OverrideReason string `json:"override_reason,omitempty"`
}

// bindSendText reads a sendText; override_reason is refused unless allowOverride.
func bindSendText(c echo.Context, allowOverride bool) (sendText, error) {
	var b sendText
	if err := decodeBody(c, `{"text": "the reply"}`, &b); err != nil {
		return b, err
	}
	b.OverrideReason = strings.TrimSpace(b.OverrideReason)
	if b.OverrideReason != "" && !allowOverride {
		return b, badRequest(`field "override_reason" is only accepted by send-check`)
	}
	if err := checkReplyText(b.Text, "the reply"); err != nil {
		return b, err
	}
	if len(b.OverrideReason) > 2000 || !validText(b.OverrideReason) {
		return b, badRequest(`field "override_reason" must be valid text of at most 2,000 bytes`)
	}
	return b, nil
}

// checkReplyText refuses the "text" field of a reply (described by what) when it is
// blank, over MaxReplyBytes, or not text Postgres can store.
func checkReplyText(text, what string) error {
	switch {
	case strings.TrimSpace(text) == "":
		return badRequest(`field "text" is required: %s`, what)
	case len(text) > MaxReplyBytes:
		return badRequest(`field "text" is %d bytes: at most %d are accepted`, len(text), MaxReplyBytes)
	case !validText(text):
		return badRequest(`field "text" is not valid UTF-8 text`)
	}
	return nil
}

// validText is UTF-8 without NUL, which Postgres' text columns refuse.
func validText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// maxNameBytes bounds a person's name in a body ("by", "agent"), as ticket.MaxNameBytes
// bounds an account's.
const maxNameBytes = ticket.MaxNameBytes

// checkName refuses a name field that is too long or not printable text.
func checkName(field, v string) error {
	if len(v) > maxNameBytes || !validText(v) || strings.ContainsFunc(v, unicode.IsControl) {
		return badRequest(`field %q must be printable text of at most %d bytes`, field, maxNameBytes)
	}
	return nil
}

// sentBody is POST /v1/drafts/{ticket}/sent: the reply the help desk sent.
type sentBody struct {
	Text   string    `json:"text"`
	SentAt time.Time `json:"sent_at"`
	Agent  string    `json:"agent"`
	// OverrideReason records a send the review gate should have held (the draft was not
	// approved): without it such a report is refused with 409.
	OverrideReason string `json:"override_reason,omitempty"`
}

// bindSent reads a sentBody: the text (as an edit's), the time and who sent it.
func bindSent(c echo.Context) (sentBody, error) {
	var b sentBody
	const want = `{"text": "the reply that was sent", "sent_at": "RFC 3339 time", "agent": "who sent it"}`
	if err := decodeBody(c, want, &b); err != nil {
		return b, err
	}
	if err := checkReplyText(b.Text, "the reply that was sent"); err != nil {
		return b, err
	}
	if b.SentAt.IsZero() {
		return b, badRequest(`field "sent_at" is required (RFC 3339)`)
	}
	return b, checkName("agent", b.Agent)
}

// killSwitchBody is POST /v1/admin/killswitch.
type killSwitchBody struct {
	Halted *bool  `json:"halted"`
	By     string `json:"by"`
}

// bindKillSwitch reads a killSwitchBody; "halted" is required.
func bindKillSwitch(c echo.Context) (killSwitchBody, error) {
	var b killSwitchBody
	if err := decodeBody(c, `{"halted": true|false, "by": "who"}`, &b); err != nil {
		return b, err
	}
	if b.Halted == nil {
		return b, badRequest(`field "halted" is required: true or false`)
	}
	return b, checkName("by", b.By)
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
