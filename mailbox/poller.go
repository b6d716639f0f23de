// Package mailbox reads an IMAP mailbox into the intake funnel. Each message is taken by
// its UID, in order, and handed to the funnel exactly once: the UID is claimed in Postgres
// before the message enters the funnel and marked delivered after, so a poller killed at
// any point resumes where it stopped, with nothing read twice or skipped. It waits for
// new mail with IMAP IDLE where the server has it, else by polling. The mailbox is opened
// read-only and messages are fetched with BODY.PEEK: flags people rely on stay as they are.
package mailbox

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"time"

	"github.com/emersion/go-imap"
	"github.com/emersion/go-imap/client"

	"github.com/supportdraft/supportdraft/email"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/intake"
	"github.com/supportdraft/supportdraft/store"
)

// MaxMessageBytes bounds the size of a mailbox message the poller fetches; a larger one is
// refused by UID and left for people. Attachments count, though they are never read.
const MaxMessageBytes = 25 << 20

// TLS modes of Config.TLS.
const (
	TLSImplicit = "tls"      // TLS from the first byte (port 993)
	TLSStart    = "starttls" // plain connection upgraded with STARTTLS (port 143)
	TLSNone     = "none"     // no TLS: only for a server on this machine
)

// Config names the mailbox and how to reach it.
type Config struct {
	Addr     string // host:port
	User     string
	Password string
	Mailbox  string        // the folder read, usually INBOX
	TLS      string        // TLSImplicit, TLSStart or TLSNone
	Poll     time.Duration // how often to look when the server has no IDLE, and at most between looks when it has
}

// Poller takes a mailbox's messages into the funnel through Target.
type Poller struct {
	Config
	Store  *store.Store
	Target intake.Target
	Log    *slog.Logger
}

// Name is the mailbox as the store records it: user@host:port/folder.
func (p *Poller) Name() string { return p.User + "@" + p.Addr + "/" + p.Mailbox }

// Run takes the mailbox's mail until ctx ends. The first session's failure to connect or
// sign in is returned (a wrong address or password does not fix itself); a session that
// breaks later is reopened with a growing pause, up to a minute.
func (p *Poller) Run(ctx context.Context) error {
	c, err := p.connect()
	if err != nil {
		return err
	}
	pause := time.Second
	for {
		started := time.Now()
		err := p.session(ctx, c)
		if ctx.Err() != nil {
			return nil
		}
		if time.Since(started) > time.Minute {
			pause = time.Second
		}
		for c = nil; c == nil; pause = min(2*pause, time.Minute) {
			p.Log.Warn("mailbox session ended; reconnecting", "mailbox", p.Name(), "in", pause, "error", err)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(pause):
			}
			c, err = p.connect()
		}
	}
}

// Once takes every message not taken yet and returns how many it took.
func (p *Poller) Once(ctx context.Context) (int, error) {
	c, err := p.connect()
	if err != nil {
		return 0, err
	}
	defer func() { _ = c.Logout() }()
	validity, err := p.open(c)
	if err != nil {
		return 0, err
	}
	return p.catchUp(ctx, c, validity)
}

// connect dials and signs in.
func (p *Poller) connect() (*client.Client, error) {
	host, _, err := net.SplitHostPort(p.Addr)
	if err != nil {
		return nil, fmt.Errorf("IMAP address %q: use host:port", p.Addr)
	}
	dialer := &net.Dialer{Timeout: 15 * time.Second}
	var c *client.Client
	switch p.TLS {
	case TLSImplicit:
		c, err = client.DialWithDialerTLS(dialer, p.Addr, &tls.Config{ServerName: host})
	case TLSStart, TLSNone:
		if p.TLS == TLSNone && !loopback(host) {
			return nil, fmt.Errorf("IMAP server %s: TLS none would send the password in clear; it is allowed only for a server on this machine", p.Addr)
		}
		c, err = client.DialWithDialer(dialer, p.Addr)
		if err == nil && p.TLS == TLSStart {
			if err = c.StartTLS(&tls.Config{ServerName: host}); err != nil {
				_ = c.Logout()
			}
		}
	default:
		return nil, fmt.Errorf("IMAP TLS mode %q: use %s, %s or %s", p.TLS, TLSImplicit, TLSStart, TLSNone)
	}
	if err != nil {
		return nil, fmt.Errorf("connect to IMAP server %s: %w", p.Addr, err)
	}
	if err := c.Login(p.User, p.Password); err != nil {
		_ = c.Logout()
		return nil, fmt.Errorf("sign in to IMAP server %s as %s: %w", p.Addr, p.User, err)
	}
	return c, nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// open selects the mailbox read-only and returns its UIDVALIDITY.
func (p *Poller) open(c *client.Client) (uint32, error) {
	status, err := c.Select(p.Mailbox, true)
	if err != nil {
		return 0, fmt.Errorf("open mailbox %s: %w", p.Name(), err)
	}
	return status.UidValidity, nil
}

// session takes what is waiting, then waits for more (IDLE, or polling where the server
// has none) and takes it, until ctx ends or the connection breaks.
func (p *Poller) session(ctx context.Context, c *client.Client) error {
	// The client blocks its reader until an update is taken: drain them all into one
	// wake-up flag for as long as the connection lives.
	updates := make(chan client.Update, 16)
	wake := make(chan struct{}, 1)
	c.Updates = updates
	go func() {
		for {
			select {
			case u := <-updates:
				if _, ok := u.(*client.MailboxUpdate); ok {
					select {
					case wake <- struct{}{}:
					default:
					}
				}
			case <-c.LoggedOut():
				return
			}
		}
	}()
	defer func() { _ = c.Logout() }()
	validity, err := p.open(c)
	if err != nil {
		return err
	}
	for {
		if _, err := p.catchUp(ctx, c, validity); err != nil || ctx.Err() != nil {
			return err
		}
		stop := make(chan struct{})
		done := make(chan error, 1)
		go func() { done <- c.Idle(stop, &client.IdleOptions{PollInterval: p.Poll}) }()
		timer := time.NewTimer(p.Poll)
		select {
		case err := <-done:
			timer.Stop()
			if err == nil {
				err = errors.New("the server ended IDLE")
			}
			return err
		case <-wake:
		case <-timer.C:
		case <-ctx.Done():
		}
		timer.Stop()
		close(stop)
		if err := <-done; err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// catchUp takes, in UID order, the messages claimed before and not delivered (a crash
// stopped them), then every message past the highest UID claimed.
func (p *Poller) catchUp(ctx context.Context, c *client.Client, validity uint32) (int, error) {
	pending, last, err := p.Store.MailboxProgress(ctx, p.Name(), validity)
	if err != nil {
		return 0, err
	}
	crit := imap.NewSearchCriteria()
	crit.Uid = new(imap.SeqSet)
	crit.Uid.AddRange(last+1, 0) // last+1:* — "*" is the highest UID, which may be last itself
	found, err := c.UidSearch(crit)
	if err != nil {
		return 0, fmt.Errorf("search mailbox %s: %w", p.Name(), err)
	}
	uids := pending
	for _, u := range found {
		if u > last {
			uids = append(uids, u)
		}
	}
	slices.Sort(uids)
	for i, uid := range uids {
		if ctx.Err() != nil {
			return i, nil
		}
		if err := p.take(ctx, c, store.MailboxUID{Mailbox: p.Name(), Validity: validity, UID: uid}); err != nil {
			return i, err
		}
	}
	return len(uids), nil
}

// take hands one message to the funnel: claim, deliver, mark delivered. A message that
// cannot be read as mail is claimed as refused, with the reason, and never retried.
func (p *Poller) take(ctx context.Context, c *client.Client, u store.MailboxUID) error {
	raw, received, refused, err := fetch(c, u.UID)
	if err != nil {
		return fmt.Errorf("fetch UID %d of mailbox %s: %w", u.UID, u.Mailbox, err)
	}
	if refused == "" {
		m, perr := email.Parse(raw, received)
		if perr == nil {
			return p.deliver(ctx, u, m)
		}
		refused = perr.Error() // names the header at fault, never quotes the mail
	}
	if _, err := p.Store.ClaimUID(ctx, u, "", refused); err != nil {
		return err
	}
	p.Log.Warn("mailbox message refused", "mailbox", u.Mailbox, "uid", u.UID, "reason", refused)
	return p.Store.DeliveredUID(ctx, u)
}

func (p *Poller) deliver(ctx context.Context, u store.MailboxUID, m *inbox.Message) error {
	fresh, err := p.Store.ClaimUID(ctx, u, m.MessageID, "")
	if err != nil {
		return err
	}
	deliver := p.Target.DeliverMail
	if !fresh {
		deliver = p.Target.ResumeMail
	}
	res, err := deliver(ctx, m)
	if err != nil {
		return fmt.Errorf("deliver UID %d of mailbox %s (message %s): %w", u.UID, u.Mailbox, m.MessageID, err)
	}
	if err := p.Store.DeliveredUID(ctx, u); err != nil {
		return err
	}
	p.Log.Info("mailbox message delivered", "mailbox", u.Mailbox, "uid", u.UID, "message_id", m.MessageID,
		"decision", res.Decision.Decision, "stage", res.Stage, "ticket", res.TicketID, "resumed", !fresh)
	return nil
}

// fetch reads one message by UID: its bytes and INTERNALDATE (when the server received
// it). A message gone since the search, or larger than MaxMessageBytes, comes back with
// the reason it is refused instead.
func fetch(c *client.Client, uid uint32) (raw []byte, received time.Time, refused string, err error) {
	set := new(imap.SeqSet)
	set.AddNum(uid)
	size, received, found, err := fetchOne(c, set, []imap.FetchItem{imap.FetchUid, imap.FetchRFC822Size, imap.FetchInternalDate}, nil)
	if err != nil {
		return nil, time.Time{}, "", err
	}
	switch {
	case !found:
		return nil, time.Time{}, "the message was deleted before it was read", nil
	case size > MaxMessageBytes:
		return nil, received, fmt.Sprintf("the message is %d bytes, more than the %d a mailbox message may have", size, MaxMessageBytes), nil
	}
	section := &imap.BodySectionName{Peek: true}
	_, _, found, err = fetchOne(c, set, []imap.FetchItem{imap.FetchUid, section.FetchItem()}, func(m *imap.Message) error {
		body := m.GetBody(section)
		if body == nil {
			return errors.New("the server sent no body")
		}
		raw, err = io.ReadAll(body)
		return err
	})
	if err != nil {
		return nil, time.Time{}, "", err
	}
	if !found {
		return nil, time.Time{}, "the message was deleted before it was read", nil
	}
	return raw, received, "", nil
}

// fetchOne runs a UID FETCH of one message, calling read on it when given.
func fetchOne(c *client.Client, set *imap.SeqSet, items []imap.FetchItem, read func(*imap.Message) error) (size uint32, internal time.Time, found bool, err error) {
	ch := make(chan *imap.Message, 1)
	done := make(chan error, 1)
	go func() { done <- c.UidFetch(set, items, ch) }()
	var readErr error
	for m := range ch {
		found = true
		size, internal = m.Size, m.InternalDate
		if read != nil && readErr == nil {
			readErr = read(m)
		}
	}
	if err := <-done; err != nil {
		return 0, time.Time{}, false, err
	}
	return size, internal, found, readErr
}
