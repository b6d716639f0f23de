package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/supportdraft/supportdraft/ticket"
	"github.com/supportdraft/supportdraft/workflows"
)

// Client calls a running supportdraft API; the CLI's `draft` command uses it.
type Client struct {
	BaseURL string
	Token   string // sent as Authorization: Bearer
	HTTP    *http.Client
}

// NewClient returns a client for the API at baseURL that authenticates with token.
func NewClient(baseURL, token string) *Client {
	return &Client{BaseURL: baseURL, Token: token, HTTP: &http.Client{Timeout: 5 * time.Minute}}
}

// Draft starts (or gets) the draft for a ticket revision and returns it.
func (c *Client) Draft(ctx context.Context, t *ticket.Ticket) (*workflows.DraftView, error) {
	var v workflows.DraftView
	if err := c.Post(ctx, "/v1/drafts", t, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// Post sends body as JSON to path and decodes the answer into out; a non-2xx answer is an
// error carrying the API's message.
func (c *Client) Post(ctx context.Context, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.Token)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("call supportdraft API at %s: %w (is `supportdraft api` running? see SUPPORTDRAFT_API_URL)", c.BaseURL, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		var e struct{ Error string }
		_ = json.Unmarshal(raw, &e)
		return fmt.Errorf("%s %s: %s: %s", http.MethodPost, path, resp.Status, e.Error)
	}
	return json.Unmarshal(raw, out)
}

// WaitReady polls /healthz until the API answers or the timeout passes.
func (c *Client) WaitReady(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL+"/healthz", nil)
		if err != nil {
			return err
		}
		resp, err := c.HTTP.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("supportdraft API at %s did not answer /healthz within %s", c.BaseURL, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
