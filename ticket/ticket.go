// Package ticket holds the help desk's ticket in the format docs/contracts.md fixes: one
// JSON object per ticket revision (JSONL for sets). The label of a ticket in an evaluation
// set is the eval's business and lives with it (evals/dataset.Labelled).
package ticket

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

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
// fields (plan, region, locale) ever reach a model; the ID stays in our own records. Name,
// optional, is the person the account belongs to or who wrote (intake fills it from the
// mail's From name): it never reaches a model either, and a remote model's copy of the
// ticket text has it replaced by a placeholder (package redact).
type Account struct {
	ID     string `json:"id"`
	Plan   string `json:"plan"`
	Region string `json:"region"`
	Locale string `json:"locale"`
	Name   string `json:"name,omitempty"`
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

// Validate checks a ticket against the input contract (see limits.go): the ID's character
// set and length, the revision's range, the size of the subject and messages, and the shape
// of plan, region and locale. The error names the field. Configured sets of plans, regions
// and locales are checked on top of this by Sets.Check.
func (t *Ticket) Validate() error {
	if err := ValidateID(t.TicketID); err != nil {
		return err
	}
	id := t.TicketID
	switch {
	case t.Revision < 1 || t.Revision > MaxRevision:
		return fmt.Errorf(`ticket %s: field "revision" is %d: use a whole number from 1 to %d`, id, t.Revision, MaxRevision)
	case t.UpdatedAt.IsZero():
		return fmt.Errorf(`ticket %s: field "updated_at" is required (RFC 3339)`, id)
	case len(t.Account.ID) > MaxAccountIDBytes || !printable(t.Account.ID):
		return fmt.Errorf(`ticket %s: field "account.id" must be printable text of at most %d bytes`, id, MaxAccountIDBytes)
	case len(t.Account.Name) > MaxNameBytes || !printable(t.Account.Name):
		return fmt.Errorf(`ticket %s: field "account.name" must be printable text of at most %d bytes`, id, MaxNameBytes)
	case len(t.Channel) > MaxTokenBytes || !printable(t.Channel):
		return fmt.Errorf(`ticket %s: field "channel" must be printable text of at most %d bytes`, id, MaxTokenBytes)
	case len(t.Subject) > MaxSubjectBytes:
		return fmt.Errorf(`ticket %s: field "subject" is longer than %d bytes`, id, MaxSubjectBytes)
	case !utf8.ValidString(t.Subject) || strings.ContainsRune(t.Subject, 0):
		return fmt.Errorf(`ticket %s: field "subject" is not valid UTF-8 text`, id)
	case len(t.Messages) == 0:
		return fmt.Errorf(`ticket %s: field "messages" needs at least one message`, id)
	case len(t.Messages) > MaxMessages:
		return fmt.Errorf(`ticket %s: field "messages" has %d messages: at most %d are accepted`, id, len(t.Messages), MaxMessages)
	}
	if err := ValidToken(t.Account.Plan); err != nil {
		return fmt.Errorf(`ticket %s: field "account.plan" %w`, id, err)
	}
	if err := ValidToken(t.Account.Region); err != nil {
		return fmt.Errorf(`ticket %s: field "account.region" %w`, id, err)
	}
	if err := CheckLocale("account.locale", t.Account.Locale); err != nil {
		return fmt.Errorf("ticket %s: %w", id, err)
	}
	total := 0
	for i, m := range t.Messages {
		total += len(m.Body)
		switch {
		case strings.TrimSpace(m.Body) == "":
			return fmt.Errorf(`ticket %s: field "messages[%d].body" is empty`, id, i)
		case len(m.Body) > MaxMessageBytes:
			return fmt.Errorf(`ticket %s: field "messages[%d].body" is longer than %d bytes`, id, i, MaxMessageBytes)
		case !utf8.ValidString(m.Body) || strings.ContainsRune(m.Body, 0):
			return fmt.Errorf(`ticket %s: field "messages[%d].body" is not valid UTF-8 text`, id, i)
		case m.Author != "customer" && m.Author != "agent":
			return fmt.Errorf(`ticket %s: field "messages[%d].author" is %q: use customer or agent`, id, i, clip(m.Author))
		}
	}
	if total > MaxTextBytes {
		return fmt.Errorf(`ticket %s: field "messages" holds %d bytes of text: at most %d are accepted`, id, total, MaxTextBytes)
	}
	return nil
}
