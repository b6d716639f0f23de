// Package helpdesk hands an approved draft to the help desk as a draft reply: a JSON POST
// to the configured URL, signed like the help desk's own webhooks (auth.Sign: a timestamp
// and an HMAC-SHA256 of the timestamp, method, path and body hash) so the help desk can
// check that the draft comes from supportdraft, is fresh and was meant for that URL.
// Retries are the caller's (the hand-off is a Temporal activity with a retry policy);
// Deliver only says whether a retry can help.
package helpdesk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/supportdraft/supportdraft/auth"
)

// DraftReply is the body of the hand-off. IdempotencyKey is also sent as the
// Idempotency-Key header: a retry after a lost answer carries the same key, so the help
// desk can keep one draft reply per ticket iteration.
type DraftReply struct {
	TicketID       string    `json:"ticket_id"`
	Iteration      int       `json:"iteration"`
	Reply          string    `json:"reply"`
	ApprovedBy     string    `json:"approved_by"`
	ApprovedAt     time.Time `json:"approved_at"`
	IdempotencyKey string    `json:"idempotency_key"`
}

// Deliverer hands an approved draft to a help desk: this package's Client, or a help
// desk's own API client (integrations/zendesk).
type Deliverer interface {
	Deliver(ctx context.Context, d DraftReply) error
}

// Client posts draft replies to one help-desk URL.
type Client struct {
	URL    string
	Secret []byte
	HTTP   *http.Client
	// Now stamps the signature; nil is time.Now.
	Now func() time.Time
}

// New is a client for url signing with secret, with a 10-second request timeout.
func New(url, secret string) *Client {
	return &Client{URL: url, Secret: []byte(secret), HTTP: &http.Client{Timeout: 10 * time.Second}}
}

// ErrRefused wraps a 4xx answer other than 408 and 429: the help desk read the request
// and will not take it, so sending it again cannot help.
var ErrRefused = errors.New("the help desk refused the draft reply")

// Deliver posts d. A 2xx answer is success; a 4xx other than 408 and 429 is ErrRefused;
// anything else (5xx, timeouts, refused connections) is worth retrying.
func (c *Client) Deliver(ctx context.Context, d DraftReply) error {
	body, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("encode draft reply for ticket %s #%d: %w", d.TicketID, d.Iteration, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("help desk URL: %w", err)
	}
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", d.IdempotencyKey)
	req.Header.Set(auth.SignatureHeader, auth.Sign(c.Secret, req.Method, req.URL.RequestURI(), body, now()))
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("post draft reply for ticket %s #%d: %w", d.TicketID, d.Iteration, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return nil
	case resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusRequestTimeout && resp.StatusCode != http.StatusTooManyRequests:
		return fmt.Errorf("%w: ticket %s #%d: HTTP %d", ErrRefused, d.TicketID, d.Iteration, resp.StatusCode)
	default:
		return fmt.Errorf("post draft reply for ticket %s #%d: HTTP %d", d.TicketID, d.Iteration, resp.StatusCode)
	}
}
