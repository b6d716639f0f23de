// Package ticket holds the help desk's ticket in the format docs/architecture.md fixes: one
// JSON object per ticket revision (JSONL for sets). The label of a ticket in an evaluation
// set is the eval's business and lives with it (evals/dataset.Labelled).
package ticket

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/policy"
)

// Ticket is one revision of a help-desk ticket.
type Ticket struct {
	TicketID  string    `json:"ticket_id"`
	Revision  int       `json:"revision"`
	UpdatedAt time.Time `json:"updated_at"`
	Account   Account   `json:"account"`
	Channel   string    `json:"channel"`
	Subject   string    `json:"subject"`
	Messages  []Message `json:"messages"`
}

// Account is the customer's account as the help desk knows it. Only the eligibility
// fields (plan, region, locale) ever reach a model; the ID stays in our own records.
type Account struct {
	ID     string `json:"id"`
	Plan   string `json:"plan"`
	Region string `json:"region"`
	Locale string `json:"locale"`
}

// Message is one message on the ticket thread.
type Message struct {
	Author string    `json:"author"` // customer | agent
	At     time.Time `json:"at"`
	Body   string    `json:"body"`
}

// Eligibility returns the only account fields a model or retrieval may see.
func (a Account) Eligibility() policy.Account {
	locale := a.Locale
	if locale == "" {
		locale = "en"
	}
	return policy.Account{Plan: a.Plan, Region: a.Region, Locale: locale}
}

// Validate checks the fields drafting relies on; the error names the field.
func (t *Ticket) Validate() error {
	switch {
	case t.TicketID == "":
		return errors.New(`field "ticket_id" is required`)
	case len(t.TicketID) > 200:
		return errors.New(`field "ticket_id" is longer than 200 characters`)
	case t.Revision < 1:
		return fmt.Errorf(`ticket %s: field "revision" must be 1 or more`, t.TicketID)
	case t.UpdatedAt.IsZero():
		return fmt.Errorf(`ticket %s: field "updated_at" is required (RFC 3339)`, t.TicketID)
	case t.Account.Plan == "":
		return fmt.Errorf(`ticket %s: field "account.plan" is required`, t.TicketID)
	case t.Account.Region == "":
		return fmt.Errorf(`ticket %s: field "account.region" is required`, t.TicketID)
	case len(t.Messages) == 0:
		return fmt.Errorf(`ticket %s: field "messages" needs at least one message`, t.TicketID)
	}
	for i, m := range t.Messages {
		if strings.TrimSpace(m.Body) == "" {
			return fmt.Errorf(`ticket %s: field "messages[%d].body" is empty`, t.TicketID, i)
		}
		if m.Author != "customer" && m.Author != "agent" {
			return fmt.Errorf(`ticket %s: field "messages[%d].author" is %q: use customer or agent`, t.TicketID, i, m.Author)
		}
	}
	return nil
}
