package config

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/inbox"
)

// Mail is how raw mail reaches the funnel: the addresses that are our own (loops), and the
// IMAP mailbox `supportdraft intake imap` reads.
type Mail struct {
	OwnAddresses []string      // SUPPORTDRAFT_OWN_ADDRESSES: our own sending addresses (default: the support addresses that are not globs)
	IMAPAddr     string        // SUPPORTDRAFT_IMAP_ADDR: host:port of the IMAP server
	IMAPUser     string        // SUPPORTDRAFT_IMAP_USER
	IMAPPassword string        // SUPPORTDRAFT_IMAP_PASSWORD
	IMAPMailbox  string        // SUPPORTDRAFT_IMAP_MAILBOX: the folder read (INBOX)
	IMAPTLS      string        // SUPPORTDRAFT_IMAP_TLS: tls (implicit, port 993) | starttls | none (loopback servers only)
	IMAPPoll     time.Duration // SUPPORTDRAFT_IMAP_POLL: how often to look for mail when the server has no IDLE, and at most between looks when it has
}

// readMail fills c.Mail. Own addresses default to the exact support addresses: a glob such
// as support@* would also match every customer's own support desk writing to us.
func (c *Config) readMail() error {
	m := Mail{
		OwnAddresses: list("SUPPORTDRAFT_OWN_ADDRESSES"),
		IMAPAddr:     os.Getenv("SUPPORTDRAFT_IMAP_ADDR"),
		IMAPUser:     os.Getenv("SUPPORTDRAFT_IMAP_USER"),
		IMAPPassword: os.Getenv("SUPPORTDRAFT_IMAP_PASSWORD"),
		IMAPMailbox:  env("SUPPORTDRAFT_IMAP_MAILBOX", "INBOX"),
		IMAPTLS:      env("SUPPORTDRAFT_IMAP_TLS", "tls"),
	}
	if len(m.OwnAddresses) == 0 {
		for _, a := range c.SupportAddresses {
			if a = strings.TrimSpace(a); a != "" && !strings.ContainsAny(a, "*?[") {
				m.OwnAddresses = append(m.OwnAddresses, a)
			}
		}
	} else if _, err := inbox.NewSupport(m.OwnAddresses); err != nil {
		return fmt.Errorf("SUPPORTDRAFT_OWN_ADDRESSES: %w", err)
	}
	switch m.IMAPTLS {
	case "tls", "starttls", "none":
	default:
		return fmt.Errorf("SUPPORTDRAFT_IMAP_TLS=%q: use tls, starttls or none", m.IMAPTLS)
	}
	var err error
	if m.IMAPPoll, err = durationEnv("SUPPORTDRAFT_IMAP_POLL", time.Minute); err != nil {
		return err
	}
	if m.IMAPPoll < time.Second {
		return fmt.Errorf("SUPPORTDRAFT_IMAP_POLL=%s: use 1s or more", m.IMAPPoll)
	}
	c.Mail = m
	return nil
}

// Own returns our own addresses as the loop check reads them, or nil when there are none.
func (m Mail) Own() (*inbox.Support, error) {
	if len(m.OwnAddresses) == 0 {
		return nil, nil
	}
	return inbox.NewSupport(m.OwnAddresses)
}
