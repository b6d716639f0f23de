package api

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/labstack/echo/v4"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
)

// temporalProbeTimeout bounds the health check that decides whether Temporal is up, and
// temporalProbeTTL is how long its answer stands: a request that needs Temporal while it
// is down answers 503 in seconds instead of waiting on the SDK's retries for minutes.
const (
	temporalProbeTimeout = 2 * time.Second
	temporalProbeTTL     = 5 * time.Second
)

// temporalHealth remembers the last health check of Temporal's frontend.
type temporalHealth struct {
	mu sync.Mutex
	at time.Time
	up bool
}

// check answers from the last probe while it is fresh, else probes again.
func (h *temporalHealth) check(ctx context.Context, c client.Client) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if time.Since(h.at) < temporalProbeTTL {
		return h.up
	}
	ctx, cancel := context.WithTimeout(ctx, temporalProbeTimeout)
	defer cancel()
	_, err := c.CheckHealth(ctx, &client.CheckHealthRequest{})
	h.at, h.up = time.Now(), err == nil
	return h.up
}

// errUnavailable is a backing service that cannot be reached now: 503, with a message
// that says to retry and names nothing internal.
var errUnavailable = echo.NewHTTPError(http.StatusServiceUnavailable,
	"the draft service cannot reach its workflow engine or database right now: try again in a minute")

// reachTemporal is called by a handler just before it reaches Temporal: while Temporal
// is down it answers 503 within temporalProbeTimeout, after the request's own checks (a
// bad body is still a 400). The send hook does not call it: it answers from Postgres
// alone and fails open.
func (s *Server) reachTemporal(ctx context.Context) error {
	if !s.temporal.check(ctx, s.Temporal) {
		return errUnavailable
	}
	return nil
}

// unavailable reports an error that means Postgres or Temporal could not be reached (as
// opposed to a bug): it answers 503, so clients and load balancers retry.
func unavailable(err error) bool {
	var connect *pgconn.ConnectError
	var down *serviceerror.Unavailable
	var deadline *serviceerror.DeadlineExceeded
	return errors.As(err, &connect) || errors.As(err, &down) || errors.As(err, &deadline) ||
		errors.Is(err, context.DeadlineExceeded)
}
