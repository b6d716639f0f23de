// Package email turns an RFC 5322 message — what an inbound-parse service posts, or what
// an IMAP mailbox holds — into the inbox's one message type, so raw mail enters the same
// funnel as the help desk's JSON. MIME (multipart, transfer encodings, charsets, HTML-only
// mail) is decoded by enmime; this package decides what of it the funnel gets.
package email

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/jhillyerd/enmime/v2"

	"github.com/supportdraft/supportdraft/inbox"
)

// Parse reads one raw message received at received. Bodies are decoded to UTF-8 text
// (an HTML-only mail is converted to text); attachments are listed by name and type at the
// end of the body, never read. The thread ID is the thread's root message ID as this
// message knows it (see ThreadID); the caller may join it to a thread already stored.
// Errors name the header or part that is wrong and never quote the message.
func Parse(raw []byte, received time.Time) (*inbox.Message, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("the message is empty: send the raw RFC 5322 message (headers, blank line, body)")
	}
	env, err := enmime.ReadEnvelope(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not an RFC 5322 message: %w", err)
	}
	if len(env.GetHeaderKeys()) == 0 {
		return nil, errors.New("not an RFC 5322 message: no header lines before the body")
	}
	from, err := env.AddressList("From")
	if err != nil || len(from) == 0 {
		return nil, errors.New(`header "From" is missing or is not an address`)
	}
	to, err := addresses(env, "To")
	if err != nil {
		return nil, err
	}
	cc, err := addresses(env, "Cc")
	if err != nil {
		return nil, err
	}
	id := firstMessageID(env.GetHeader("Message-ID"))
	if id == "" {
		// A message without an ID still needs a stable one: the same bytes delivered twice
		// are then a duplicate, as a redelivered webhook is.
		sum := sha256.Sum256(raw)
		id = "<" + hex.EncodeToString(sum[:16]) + "@no-message-id.invalid>"
	}
	if len(id) > 500 {
		return nil, errors.New(`header "Message-ID" is longer than 500 characters`)
	}
	m := &inbox.Message{
		MessageID:  id,
		ReceivedAt: received.UTC(),
		From:       inbox.Address{Email: from[0].Address, Name: from[0].Name},
		To:         to,
		Cc:         cc,
		Headers:    headers(env),
		Subject:    env.GetHeader("Subject"),
		Body:       body(env),
	}
	m.ThreadID = ThreadID(m)
	if len(m.Body) > inbox.MaxBody {
		return nil, fmt.Errorf("message %s: the text of the body is longer than %d bytes", id, inbox.MaxBody)
	}
	return m, nil
}

// addresses reads an address header; a header that is present but unparseable is an error
// naming it, an absent one is empty.
func addresses(env *enmime.Envelope, name string) ([]string, error) {
	if strings.TrimSpace(env.GetHeader(name)) == "" {
		return nil, nil
	}
	list, err := env.AddressList(name)
	if err != nil {
		return nil, fmt.Errorf("header %q is not a list of addresses", name)
	}
	out := make([]string, 0, len(list))
	for _, a := range list {
		out = append(out, a.Address)
	}
	return out, nil
}

// headers keeps every header the funnel's screens may read (Auto-Submitted, Precedence,
// List-Id, X-Autoreply, Return-Path, In-Reply-To, References and the rest), decoded, the
// first value of each. The address, subject and ID headers are fields of their own.
func headers(env *enmime.Envelope) map[string]string {
	out := map[string]string{}
	for _, k := range env.GetHeaderKeys() {
		switch strings.ToLower(k) {
		case "from", "to", "cc", "bcc", "subject", "message-id":
			continue
		}
		out[k] = env.GetHeader(k)
	}
	return out
}

// body is the message's text, with the names of its attachments appended: the agent and
// the drafter should know a file came with the mail, but its content is never read.
func body(env *enmime.Envelope) string {
	text := strings.TrimSpace(strings.ReplaceAll(env.Text, "\r\n", "\n"))
	var files []string
	for _, parts := range [][]*enmime.Part{env.Attachments, env.Inlines, env.OtherParts} {
		for _, p := range parts {
			name := p.FileName
			if name == "" {
				name = "unnamed"
			}
			files = append(files, fmt.Sprintf("%s (%s)", name, p.ContentType))
		}
	}
	if len(files) == 0 {
		return text
	}
	return strings.TrimSpace(text + "\n\n[Attachments, not read: " + strings.Join(files, ", ") + "]")
}

// firstMessageID is the first msg-id of a header value ("<id@host>"), or "".
func firstMessageID(v string) string {
	if ids := msgIDs(v); len(ids) > 0 {
		return ids[0]
	}
	return ""
}

// References lists the message IDs a message answers, nearest first: In-Reply-To, then
// References from the newest back to the thread's root.
func References(m *inbox.Message) []string {
	var out []string
	seen := map[string]bool{}
	add := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	irt, _ := m.Header("In-Reply-To")
	for _, id := range msgIDs(irt) {
		add(id)
	}
	refs, _ := m.Header("References")
	ids := msgIDs(refs)
	for i := len(ids) - 1; i >= 0; i-- {
		add(ids[i])
	}
	return out
}

// ThreadID names a message's thread from its own headers: the thread's root is the first
// ID in References, else In-Reply-To, else the message itself. It is hashed into a ticket
// ID (letters, digits and '-'), since message IDs carry characters ticket IDs may not.
func ThreadID(m *inbox.Message) string {
	root := m.MessageID
	refs, _ := m.Header("References")
	irt, _ := m.Header("In-Reply-To")
	if ids := msgIDs(refs); len(ids) > 0 {
		root = ids[0]
	} else if id := firstMessageID(irt); id != "" {
		root = id
	}
	sum := sha256.Sum256([]byte(strings.ToLower(root)))
	return "mail-" + hex.EncodeToString(sum[:10])
}

// msgIDs splits a header value into its "<…>" message IDs; a bare ID without brackets,
// as some mailers write, is taken as one.
func msgIDs(v string) []string {
	var out []string
	for {
		open := strings.IndexByte(v, '<')
		if open < 0 {
			break
		}
		end := strings.IndexByte(v[open:], '>')
		if end < 0 {
			break
		}
		if id := strings.TrimSpace(v[open+1 : open+end]); id != "" && !strings.ContainsAny(id, " \t<") {
			out = append(out, "<"+id+">")
		}
		v = v[open+end+1:]
	}
	if bare := strings.TrimSpace(v); len(out) == 0 && bare != "" && !strings.ContainsAny(bare, " \t") && strings.Contains(bare, "@") {
		out = append(out, "<"+bare+">")
	}
	return out
}

// Loop reports whether a message is our own mail coming back: sent from one of our own
// addresses, or carrying an X-Loop header that names one (RFC 3834's advice for
// responders). Such mail never enters the funnel.
func Loop(m *inbox.Message, own *inbox.Support) (bool, string) {
	if own == nil {
		return false, ""
	}
	if own.Is(m.From.Email) {
		return true, "sent from our own address"
	}
	if v, ok := m.Header("X-Loop"); ok {
		for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
			if a, err := mail.ParseAddress(part); err == nil && own.Is(a.Address) {
				return true, "X-Loop names our own address"
			}
		}
	}
	return false, ""
}
