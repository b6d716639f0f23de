package zendesk

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The ticket events a webhook subscribed to them delivers that supportdraft drafts on.
// Other event types are acknowledged and ignored, so one webhook may carry more.
const (
	EventTicketCreated = "zen:event-type:ticket.created"
	EventCommentAdded  = "zen:event-type:ticket.comment_added"
)

// Event is the part of a Zendesk webhook event read here: its type and the ticket it
// concerns. The ticket itself is read back from the Tickets API, so what is drafted is
// the ticket as Zendesk holds it, not what one event says about it.
type Event struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Subject string `json:"subject"` // "zen:ticket:<id>"
	Detail  struct {
		ID string `json:"id"`
	} `json:"detail"`
}

// ParseEvent reads a webhook body. The error names the field that is wrong; a payload
// never appears in it.
func ParseEvent(body []byte) (Event, error) {
	var e Event
	if err := json.Unmarshal(body, &e); err != nil {
		return e, fmt.Errorf("body is not a Zendesk event (JSON object with \"type\" and \"detail\"): %s", jsonProblem(err))
	}
	if e.Type == "" {
		return e, fmt.Errorf(`field "type" is required: subscribe the webhook to Zendesk ticket events`)
	}
	return e, nil
}

// Drafts reports whether supportdraft drafts on this type of event.
func (e Event) Drafts() bool { return e.Type == EventTicketCreated || e.Type == EventCommentAdded }

// TicketNumber is the Zendesk ticket the event concerns: detail.id, else the subject.
func (e Event) TicketNumber() (int64, error) {
	id := e.Detail.ID
	if id == "" {
		id, _ = strings.CutPrefix(e.Subject, "zen:ticket:")
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf(`field "detail.id" must be the ticket's number, such as "35436"`)
	}
	return n, nil
}

// jsonProblem says where JSON decoding failed without quoting the input.
func jsonProblem(err error) string {
	switch e := err.(type) {
	case *json.SyntaxError:
		return fmt.Sprintf("invalid JSON at byte %d", e.Offset)
	case *json.UnmarshalTypeError:
		return fmt.Sprintf("field %q has the wrong type (want %s)", e.Field, e.Type)
	}
	return "invalid JSON"
}
