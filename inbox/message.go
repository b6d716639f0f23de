// Package inbox holds the inbound mail side of supportdraft: the help desk's message
// format, and the funnel's cheap layers that decide, before any retrieval or generation,
// whether a message gets a draft at all — automated-mail detection, the domain and
// keyword rules, the recipient check and triage into billing buckets.
package inbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/supportdraft/supportdraft/strictjson"
	"github.com/supportdraft/supportdraft/ticket"
)

// Message is one inbound email as the help desk's webhook delivers it (JSONL for sets).
type Message struct {
	MessageID  string            `json:"message_id"`
	ThreadID   string            `json:"thread_id"`
	ReceivedAt time.Time         `json:"received_at"`
	From       Address           `json:"from"`
	To         []string          `json:"to"`
	Cc         []string          `json:"cc,omitempty"`
	Bcc        []string          `json:"bcc,omitempty"`
	Headers    map[string]string `json:"headers,omitempty"`
	Subject    string            `json:"subject"`
	Body       string            `json:"body"`
	Thread     Thread            `json:"thread"`
	// Account is the sender's customer account as the help desk matched it; absent when
	// the sender is not a known customer. The person's name comes from From, never here.
	Account *ticket.Account `json:"account,omitempty"`
	// Expect is present only in labelled sets.
	Expect *Expect `json:"expect,omitempty"`
}

// Address is the sender.
type Address struct {
	Email string `json:"email"`
	Name  string `json:"name,omitempty"`
}

// Thread is what the help desk knows about the conversation the message belongs to.
type Thread struct {
	AgentReplied    bool `json:"agent_replied"`
	EarlierMessages int  `json:"earlier_messages"`
}

// Expect is a labelled message's expected funnel outcome.
type Expect struct {
	Decision string  `json:"decision"` // draft | review | skip
	Stage    string  `json:"stage"`    // the stage that decided, or none
	Bucket   *string `json:"bucket"`   // null when the message never reaches triage
	Genuine  bool    `json:"genuine"`  // a real customer message that deserves a person's eyes
}

// MaxBody bounds the body the funnel accepts, as a ticket bounds one message: the body
// becomes a message of the thread's ticket. Longer mail is refused, not cut.
const MaxBody = ticket.MaxMessageBytes

// MaxMessageIDBytes bounds a message ID (an RFC 5322 Message-ID fits in far less).
const MaxMessageIDBytes = 500

// Parse reads one message strictly (package strictjson: unknown fields, duplicate keys,
// trailing data and deep nesting are refused; a misspelt "thread_id" must not silently
// become an empty thread), and checks it. Errors name the field.
func Parse(data []byte) (*Message, error) {
	var m Message
	if err := strictjson.Decode(data, &m); err != nil {
		return nil, fmt.Errorf("not a message in the inbox format: %w", err)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Validate checks every field by the rules its ticket will be held to: the thread ID is
// the ticket's ID, the subject, body and account become the ticket's, so a message that
// passes here cannot fail as a ticket later. The message ID is printable ASCII (it names
// a workflow and a row). Errors name the field.
func (m *Message) Validate() error {
	id := m.MessageID
	switch {
	case strings.TrimSpace(id) == "":
		return errors.New(`field "message_id" is required`)
	case len(id) > MaxMessageIDBytes:
		return fmt.Errorf(`field "message_id" is longer than %d bytes`, MaxMessageIDBytes)
	case strings.ContainsFunc(id, func(r rune) bool { return r <= ' ' || r > '~' }):
		return errors.New(`field "message_id" must be printable ASCII without spaces, as a Message-ID header is`)
	}
	if err := ticket.CheckID("thread_id", m.ThreadID); err != nil {
		return fmt.Errorf("message %s: %w", id, err)
	}
	switch {
	case m.ReceivedAt.IsZero():
		return fmt.Errorf(`message %s: field "received_at" is required (RFC 3339)`, id)
	case strings.TrimSpace(m.From.Email) == "":
		return fmt.Errorf(`message %s: field "from.email" is required`, id)
	case !shortText(m.From.Email, 320):
		return fmt.Errorf(`message %s: field "from.email" must be printable text of at most 320 bytes`, id)
	case !shortText(m.From.Name, ticket.MaxNameBytes):
		return fmt.Errorf(`message %s: field "from.name" must be printable text of at most %d bytes`, id, ticket.MaxNameBytes)
	case len(m.Subject) > ticket.MaxSubjectBytes:
		return fmt.Errorf(`message %s: field "subject" is longer than %d bytes`, id, ticket.MaxSubjectBytes)
	case !utf8.ValidString(m.Subject) || strings.ContainsRune(m.Subject, 0):
		return fmt.Errorf(`message %s: field "subject" is not valid UTF-8 text`, id)
	case len(m.Body) > MaxBody:
		return fmt.Errorf(`message %s: field "body" is longer than %d bytes`, id, MaxBody)
	case !utf8.ValidString(m.Body) || strings.ContainsRune(m.Body, 0):
		return fmt.Errorf(`message %s: field "body" is not valid UTF-8 text`, id)
	case m.Thread.EarlierMessages < 0:
		return fmt.Errorf(`message %s: field "thread.earlier_messages" must be 0 or more`, id)
	case len(m.To)+len(m.Cc)+len(m.Bcc) > 100 || len(m.Headers) > 100:
		return fmt.Errorf(`message %s: at most 100 recipients and 100 headers are accepted`, id)
	}
	for _, list := range [][]string{m.To, m.Cc, m.Bcc} {
		for _, a := range list {
			if !shortText(a, 320) {
				return fmt.Errorf(`message %s: a recipient address must be printable text of at most 320 bytes`, id)
			}
		}
	}
	for k, v := range m.Headers {
		if !shortText(k, 200) || !shortText(v, 2000) {
			return fmt.Errorf(`message %s: field "headers": names and values must be printable text (at most 200 and 2,000 bytes)`, id)
		}
	}
	if a := m.Account; a != nil {
		if a.Plan == "" || a.Region == "" {
			return fmt.Errorf(`message %s: field "account" needs "plan" and "region" (leave "account" out for unknown senders)`, id)
		}
		if err := ticket.ValidToken(a.Plan); err != nil {
			return fmt.Errorf(`message %s: field "account.plan" %w`, id, err)
		}
		if err := ticket.ValidToken(a.Region); err != nil {
			return fmt.Errorf(`message %s: field "account.region" %w`, id, err)
		}
		if err := ticket.CheckLocale("account.locale", a.Locale); err != nil {
			return fmt.Errorf("message %s: %w", id, err)
		}
		if !shortText(a.ID, ticket.MaxAccountIDBytes) {
			return fmt.Errorf(`message %s: field "account.id" must be printable text of at most %d bytes`, id, ticket.MaxAccountIDBytes)
		}
		if a.Name != "" {
			return fmt.Errorf(`message %s: field "account.name" is not part of a message: the sender's name is "from.name"`, id)
		}
	}
	if e := m.Expect; e != nil {
		switch e.Decision {
		case DecisionDraft, DecisionReview, DecisionSkip:
		default:
			return fmt.Errorf(`message %s: field "expect.decision" is %q: use draft, review or skip`, id, e.Decision)
		}
	}
	return nil
}

// shortText is valid UTF-8 of at most limit bytes without control characters.
func shortText(s string, limit int) bool {
	return len(s) <= limit && utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl)
}

// Header returns the value of the named header, matching the name case-insensitively as
// mail headers are.
func (m *Message) Header(name string) (string, bool) {
	for k, v := range m.Headers {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}

// ReadFile reads a JSONL file of messages; an error names the file and line.
func ReadFile(path string) ([]*Message, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	msgs, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return msgs, nil
}

// Read reads messages, one JSON object per line; blank lines are ignored.
func Read(r io.Reader) ([]*Message, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 2*MaxBody)
	var out []*Message
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		m, err := Parse(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no messages")
	}
	return out, nil
}
