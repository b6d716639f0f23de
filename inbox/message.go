// Package inbox holds the inbound mail side of supportdraft: the help desk's message
// format, and the funnel's cheap layers that decide, before any retrieval or generation,
// whether a message gets a draft at all — automated-mail detection, the domain and
// keyword rules, the recipient check and triage into billing buckets.
package inbox

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
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
	// Account is absent when the sender is not a known customer.
	Account *Account `json:"account,omitempty"`
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

// Account is the sender's customer account, when the help desk matched one.
type Account struct {
	ID     string `json:"id"`
	Plan   string `json:"plan"`
	Region string `json:"region"`
	Locale string `json:"locale,omitempty"`
}

// Expect is a labelled message's expected funnel outcome.
type Expect struct {
	Decision string  `json:"decision"` // draft | review | skip
	Stage    string  `json:"stage"`    // the stage that decided, or none
	Bucket   *string `json:"bucket"`   // null when the message never reaches triage
	Genuine  bool    `json:"genuine"`  // a real customer message that deserves a person's eyes
}

// MaxBody bounds the body the funnel accepts; longer mail is refused, not cut.
const MaxBody = 100_000

// Parse reads one message strictly: unknown fields are refused (a misspelt "thread_id"
// must not silently become an empty thread), and the fields the funnel relies on are
// checked. Errors name the field.
func Parse(data []byte) (*Message, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Message
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("not a message in the inbox format: %w", err)
	}
	if dec.More() {
		return nil, errors.New("not a message in the inbox format: more than one JSON value")
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Validate checks the fields the funnel relies on; the error names the field.
func (m *Message) Validate() error {
	id := m.MessageID
	switch {
	case strings.TrimSpace(id) == "":
		return errors.New(`field "message_id" is required`)
	case len(id) > 500:
		return errors.New(`field "message_id" is longer than 500 characters`)
	case strings.TrimSpace(m.ThreadID) == "":
		return fmt.Errorf(`message %s: field "thread_id" is required`, id)
	case len(m.ThreadID) > 200:
		return fmt.Errorf(`message %s: field "thread_id" is longer than 200 characters`, id)
	case m.ReceivedAt.IsZero():
		return fmt.Errorf(`message %s: field "received_at" is required (RFC 3339)`, id)
	case strings.TrimSpace(m.From.Email) == "":
		return fmt.Errorf(`message %s: field "from.email" is required`, id)
	case len(m.Body) > MaxBody:
		return fmt.Errorf(`message %s: field "body" is longer than %d bytes`, id, MaxBody)
	case m.Thread.EarlierMessages < 0:
		return fmt.Errorf(`message %s: field "thread.earlier_messages" must be 0 or more`, id)
	}
	if m.Account != nil && (m.Account.Plan == "" || m.Account.Region == "") {
		return fmt.Errorf(`message %s: field "account" needs "plan" and "region" (leave "account" out for unknown senders)`, id)
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
