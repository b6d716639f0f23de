package bench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"time"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/review"
	"github.com/supportdraft/supportdraft/stack"
	"github.com/supportdraft/supportdraft/ticket"
)

// WebResult is what `supportdraft bench web` prints: time to first byte of each page.
type WebResult struct {
	Drafts   int        `json:"drafts"`
	Requests int        `json:"requests_per_page"`
	Pages    []PageTTFB `json:"pages"`
}

// PageTTFB is one page's time to first byte over the requests.
type PageTTFB struct {
	Page  string  `json:"page"`
	P50Ms float64 `json:"p50_ms"`
	P99Ms float64 `json:"p99_ms"`
}

// WebOptions sizes the run.
type WebOptions struct {
	Drafts   int // drafts in the database
	Requests int // requests per page
	Corpus   string
	Progress io.Writer
}

// Web fills a scratch schema with opts.Drafts drafts (one real draft built through the
// workflow, saved again under as many ticket IDs, each waiting in the review queue) and
// measures the time to first byte of the sidebar and of the review dashboard (the whole
// queue, with a random draft opened), and of the admin view, over the real HTTP
// handler with an agent's and an admin's session cookie, one request at a time.
func Web(ctx context.Context, databaseURL, temporalAddress string, opts WebOptions) (*WebResult, error) {
	st, err := stack.Open(ctx, stack.Options{DatabaseURL: databaseURL, Scratch: "benchweb", TemporalAddress: temporalAddress,
		Providers: providers.Local(256)})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if _, _, err := st.Import(ctx, opts.Corpus); err != nil {
		return nil, err
	}
	run := randomID()
	w := st.Worker("bench-"+run, st.Activities())
	if err := w.Start(); err != nil {
		return nil, err
	}
	defer w.Stop()
	ts, guard := serveAPI(st, api.Config{TaskQueue: "bench-" + run, CheckBudget: 2 * time.Second, IdleTimeout: time.Hour})
	defer ts.Close()

	cookies := map[auth.Role]string{}
	for _, role := range []auth.Role{auth.Agent, auth.Reviewer, auth.Admin} {
		tok, hash := auth.NewToken()
		row, err := st.Store.CreateToken(ctx, "bench "+string(role), string(role), nil, hash)
		if err != nil {
			return nil, err
		}
		if role == auth.Agent {
			if err := draftOnce(ctx, api.NewClient(ts.URL, tok), "BENCHWEB-"+run); err != nil {
				return nil, err
			}
		}
		cookies[role] = auth.SessionCookie + "=" + guard.Sessions.Encode(guard.Sessions.New(row.ID, row.Name, role, row.Agents, time.Now()))
	}
	fmt.Fprintf(opts.Progress, "saving %d drafts…\n", opts.Drafts)
	rec, err := st.Store.LatestIteration(ctx, "BENCHWEB-"+run)
	if err != nil {
		return nil, err
	}
	ids := make([]string, opts.Drafts)
	for i := range ids {
		ids[i] = fmt.Sprintf("BENCHWEB-%s-%d", run, i)
		r := *rec
		r.TicketID = ids[i]
		if err := st.Store.SaveIteration(ctx, &r, "refunds"); err != nil {
			return nil, err
		}
		now := time.Now()
		if err := st.Store.SaveReview(ctx, &review.Entry{TicketID: r.TicketID, Iteration: r.Iteration, State: review.Waiting,
			Confidence: r.Confidence, QueuedAt: now, ReviewUntil: now.Add(time.Hour)}); err != nil {
			return nil, err
		}
	}
	res := &WebResult{Drafts: opts.Drafts, Requests: opts.Requests}
	pages := []struct {
		name string
		role auth.Role
		path func() string
	}{
		{"sidebar /app/tickets/{ticket}", auth.Agent, func() string { return "/app/tickets/" + ids[rand.IntN(len(ids))] }},
		{"review queue /app/review", auth.Reviewer, func() string { return "/app/review?ticket=" + ids[rand.IntN(len(ids))] }},
		{"admin /app/admin", auth.Admin, func() string { return "/app/admin" }},
	}
	for _, p := range pages {
		fmt.Fprintf(opts.Progress, "%s: %d requests…\n", p.name, opts.Requests)
		lat := make([]float64, 0, opts.Requests)
		for range opts.Requests {
			ms, err := ttfb(ctx, ts.URL+p.path(), cookies[p.role])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p.name, err)
			}
			lat = append(lat, ms)
		}
		res.Pages = append(res.Pages, PageTTFB{Page: p.name, P50Ms: percentile(lat, 50), P99Ms: percentile(lat, 99)})
	}
	return res, nil
}

// draftOnce builds one draft through the API and the workflow.
func draftOnce(ctx context.Context, c *api.Client, id string) error {
	now := time.Now().UTC()
	_, err := c.Draft(ctx, &ticket.Ticket{TicketID: id, Revision: 1, UpdatedAt: now, Channel: "email", Subject: "Refund",
		Account:  ticket.Account{ID: "A-1", Plan: "pro", Region: "eu", Locale: "en"},
		Messages: []ticket.Message{{Author: "customer", At: now, Body: benchQuestions[0]}}})
	return err
}

// ttfb is the milliseconds from sending a GET to its first response byte; the body is
// read to the end so the connection is reused.
func ttfb(ctx context.Context, url, cookie string) (float64, error) {
	var start, first time.Time
	trace := &httptrace.ClientTrace{
		WroteRequest:         func(httptrace.WroteRequestInfo) { start = time.Now() },
		GotFirstResponseByte: func() { first = time.Now() },
	}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Cookie", cookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return float64(first.Sub(start).Microseconds()) / 1000, nil
}
