package zendesk

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/ticket"
)

// TicketPrefix starts the ticket ID of every ticket that came from Zendesk: the write-back
// reads the Zendesk ticket number from it, so no mapping table is needed.
const TicketPrefix = "zendesk-"

// TicketID is supportdraft's ID of Zendesk ticket n.
func TicketID(n int64) string { return TicketPrefix + strconv.FormatInt(n, 10) }

// TicketNumber is the Zendesk ticket number of a supportdraft ticket ID, if it came from
// Zendesk.
func TicketNumber(id string) (int64, bool) {
	s, ok := strings.CutPrefix(id, TicketPrefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n > 0
}

// Fields names the custom ticket fields that carry the account's plan and region: a
// Zendesk ticket has no such properties of its own.
type Fields struct {
	Plan   int64 // SUPPORTDRAFT_ZENDESK_PLAN_FIELD
	Region int64 // SUPPORTDRAFT_ZENDESK_REGION_FIELD
}

// Thread is a ticket as the Tickets API returns it, with its comments and their authors.
type Thread struct {
	Ticket   APITicket
	Comments []Comment
	Users    map[int64]User
}

// APITicket is the part of a Zendesk ticket the mapping reads.
type APITicket struct {
	ID             int64  `json:"id"`
	Subject        string `json:"subject"`
	RequesterID    int64  `json:"requester_id"`
	OrganizationID *int64 `json:"organization_id"`
	Via            struct {
		Channel string `json:"channel"`
	} `json:"via"`
	CustomFields []CustomField `json:"custom_fields"`
}

// CustomField is one custom field's value on a ticket; drop-down values are tag names.
type CustomField struct {
	ID    int64 `json:"id"`
	Value any   `json:"value"`
}

// Comment is one comment on a ticket. Private comments are agents' internal notes.
type Comment struct {
	ID        int64     `json:"id"`
	AuthorID  int64     `json:"author_id"`
	Body      string    `json:"body"`
	PlainBody string    `json:"plain_body"`
	Public    bool      `json:"public"`
	CreatedAt time.Time `json:"created_at"`
}

// User is a comment's author, side-loaded with the comments.
type User struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Role   string `json:"role"` // end-user | agent | admin
	Locale string `json:"locale"`
}

// Map turns a Zendesk ticket into a revision of the ticket contract. Only public comments
// are the thread: internal notes (supportdraft's own write-back among them) are not the
// customer's conversation and must not move the revision. So the revision is the number
// of public comments and updated_at the newest one's time: the same thread always maps to
// the same revision with the same content, however often Zendesk reports it.
func Map(th *Thread, f Fields) (*ticket.Ticket, error) {
	id := TicketID(th.Ticket.ID)
	t := &ticket.Ticket{TicketID: id, Subject: th.Ticket.Subject, Channel: th.Ticket.Via.Channel}
	if t.Channel == "" {
		t.Channel = "zendesk"
	}
	for _, c := range th.Comments {
		if !c.Public {
			continue
		}
		body := c.PlainBody
		if body == "" {
			body = c.Body
		}
		author := "customer"
		if u, ok := th.Users[c.AuthorID]; ok && (u.Role == "agent" || u.Role == "admin") {
			author = "agent"
		}
		t.Messages = append(t.Messages, ticket.Message{Author: author, At: c.CreatedAt.UTC(), Body: body})
		t.UpdatedAt = c.CreatedAt.UTC()
	}
	if len(t.Messages) == 0 {
		return nil, fmt.Errorf("zendesk ticket %d has no public comment to draft a reply to", th.Ticket.ID)
	}
	t.Revision = len(t.Messages)
	var err error
	if t.Account.Plan, err = fieldValue(th.Ticket, f.Plan, "plan", "SUPPORTDRAFT_ZENDESK_PLAN_FIELD"); err != nil {
		return nil, err
	}
	if t.Account.Region, err = fieldValue(th.Ticket, f.Region, "region", "SUPPORTDRAFT_ZENDESK_REGION_FIELD"); err != nil {
		return nil, err
	}
	t.Account.ID = "zendesk-user-" + strconv.FormatInt(th.Ticket.RequesterID, 10)
	if o := th.Ticket.OrganizationID; o != nil && *o > 0 {
		t.Account.ID = "zendesk-org-" + strconv.FormatInt(*o, 10)
	}
	if u, ok := th.Users[th.Ticket.RequesterID]; ok {
		t.Account.Name = u.Name
		t.Account.Locale, _, _ = strings.Cut(strings.ToLower(u.Locale), "-")
	}
	return t, nil
}

// fieldValue reads a custom field that must hold a plan or region name.
func fieldValue(t APITicket, field int64, what, variable string) (string, error) {
	if field == 0 {
		return "", fmt.Errorf("zendesk ticket %d: no custom field is configured for the account's %s: set %s", t.ID, what, variable)
	}
	for _, cf := range t.CustomFields {
		if cf.ID != field {
			continue
		}
		if s, ok := cf.Value.(string); ok && strings.TrimSpace(s) != "" {
			return strings.ToLower(strings.TrimSpace(s)), nil
		}
	}
	return "", fmt.Errorf("zendesk ticket %d: custom field %d (the account's %s) is empty: set it on the ticket", t.ID, field, what)
}

// AwaitsReply reports whether the customer wrote last. Zendesk reports the agent's own
// public reply as a comment added too; that revision needs no draft.
func AwaitsReply(t *ticket.Ticket) bool {
	return len(t.Messages) > 0 && t.Messages[len(t.Messages)-1].Author == "customer"
}
