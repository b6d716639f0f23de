package zendesk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/helpdesk"
	"github.com/supportdraft/supportdraft/ticket"
)

// Client calls the Zendesk Support API of one account with an API token
// ("{email}/token:{api_token}" basic authentication).
type Client struct {
	BaseURL string // https://{subdomain}.zendesk.com
	Email   string
	Token   string
	HTTP    *http.Client
	// Next receives the hand-offs of tickets that did not come from Zendesk (nil: they
	// are refused).
	Next helpdesk.Deliverer
}

// NewClient is a client for the account at baseURL with a 10-second request timeout.
func NewClient(baseURL, email, token string) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), Email: email, Token: token, HTTP: &http.Client{Timeout: 10 * time.Second}}
}

// Thread reads ticket n with its comments and their authors: GET
// /api/v2/tickets/{n}.json, then /api/v2/tickets/{n}/comments.json?include=users page by
// page, at most as many comments as the ticket contract holds.
func (c *Client) Thread(ctx context.Context, n int64) (*Thread, error) {
	var tr struct {
		Ticket APITicket `json:"ticket"`
	}
	if err := c.do(ctx, http.MethodGet, fmt.Sprintf("/api/v2/tickets/%d.json", n), nil, &tr); err != nil {
		return nil, err
	}
	th := &Thread{Ticket: tr.Ticket, Users: map[int64]User{}}
	next := fmt.Sprintf("/api/v2/tickets/%d/comments.json?include=users", n)
	for next != "" && len(th.Comments) <= ticket.MaxMessages {
		var page struct {
			Comments []Comment `json:"comments"`
			Users    []User    `json:"users"`
			NextPage *string   `json:"next_page"`
		}
		if err := c.do(ctx, http.MethodGet, next, nil, &page); err != nil {
			return nil, err
		}
		th.Comments = append(th.Comments, page.Comments...)
		for _, u := range page.Users {
			th.Users[u.ID] = u
		}
		next = ""
		if page.NextPage != nil {
			if next, _ = c.samePath(*page.NextPage); next == "" {
				return nil, fmt.Errorf("zendesk ticket %d: next_page is not on %s", n, c.BaseURL)
			}
		}
	}
	return th, nil
}

// samePath accepts a next_page URL only on the configured account and returns its path
// and query, so the API token is never sent elsewhere.
func (c *Client) samePath(next string) (string, bool) {
	u, err := url.Parse(next)
	base, berr := url.Parse(c.BaseURL)
	if err != nil || berr != nil || u.Scheme != base.Scheme || u.Host != base.Host {
		return "", false
	}
	return u.RequestURI(), true
}

// Note is the body of the write-back: an update of the ticket that adds one private
// comment, an internal note the agent copies into the reply.
type Note struct {
	Ticket struct {
		Comment struct {
			Body   string `json:"body"`
			Public bool   `json:"public"`
		} `json:"comment"`
	} `json:"ticket"`
}

// Deliver writes an approved draft to its Zendesk ticket as an internal note: PUT
// /api/v2/tickets/{n}.json. The Tickets API takes no idempotency key on updates, so the
// note's first line names the draft and a retry first looks for it among the ticket's
// comments: a retry after a lost answer adds no second note. A ticket that did not come
// from Zendesk goes to Next. Like helpdesk.Client, a 4xx other than 408, 409 and 429 is
// helpdesk.ErrRefused (retrying cannot help); anything else may be retried by the caller.
func (c *Client) Deliver(ctx context.Context, d helpdesk.DraftReply) error {
	n, ok := TicketNumber(d.TicketID)
	if !ok {
		if c.Next != nil {
			return c.Next.Deliver(ctx, d)
		}
		return fmt.Errorf("%w: ticket %s did not come from Zendesk and no other help desk is configured", helpdesk.ErrRefused, d.TicketID)
	}
	marker := fmt.Sprintf("supportdraft: approved draft reply (draft #%d,", d.Iteration)
	th, err := c.Thread(ctx, n)
	if err != nil {
		return fmt.Errorf("read zendesk ticket %d before writing draft #%d: %w", n, d.Iteration, err)
	}
	for _, cm := range th.Comments {
		if !cm.Public && strings.HasPrefix(cm.PlainBody+cm.Body, marker) {
			return nil // written by an earlier attempt
		}
	}
	var note Note
	note.Ticket.Comment.Body = fmt.Sprintf("%s approved by %s)\n\n%s", marker, d.ApprovedBy, d.Reply)
	if err := c.do(ctx, http.MethodPut, fmt.Sprintf("/api/v2/tickets/%d.json", n), note, nil); err != nil {
		return fmt.Errorf("write draft #%d to zendesk ticket %d: %w", d.Iteration, n, err)
	}
	return nil
}

// do sends one API request and decodes a 2xx answer into out (when not nil).
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, body)
	if err != nil {
		return fmt.Errorf("zendesk URL: %w", err)
	}
	req.SetBasicAuth(c.Email+"/token", c.Token)
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	endpoint, _, _ := strings.Cut(path, "?") // errors name the endpoint, not its query
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, endpoint, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	switch s := resp.StatusCode; {
	case s >= 200 && s < 300:
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: answer is not the documented JSON: %s", method, endpoint, jsonProblem(err))
		}
		return nil
	case s >= 400 && s < 500 && s != http.StatusRequestTimeout && s != http.StatusConflict && s != http.StatusTooManyRequests:
		return fmt.Errorf("%w: %s %s: HTTP %d", helpdesk.ErrRefused, method, endpoint, s)
	default:
		return fmt.Errorf("%s %s: HTTP %d", method, endpoint, s)
	}
}
