package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/api"
	"github.com/supportdraft/supportdraft/auth"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/stack"
)

// InputResult is what `supportdraft bench input` prints: how fast and how cheaply the
// API refuses hostile bodies on POST /v1/drafts.
type InputResult struct {
	Requests int           `json:"requests_per_case"`
	Cases    []InputTiming `json:"cases"`
}

// InputTiming is one hostile body's refusal: its status, time and the bytes the process
// allocated per request (client and server together, both in this process).
type InputTiming struct {
	Case         string  `json:"case"`
	BodyBytes    int     `json:"body_bytes"`
	Status       int     `json:"status"`
	P50Ms        float64 `json:"p50_ms"`
	MaxMs        float64 `json:"max_ms"`
	AllocKBPerRq float64 `json:"alloc_kb_per_request"`
}

// Input serves the real API over a scratch store (Temporal is never reached: every body
// here is refused first) and posts each hostile body requests times with an agent token:
// a megabyte of nested brackets streamed without a length (refused by the depth limit as
// it is read) and declared (refused by the body limit before reading), and the probe's
// 200 KB body of 100,000 brackets.
func Input(ctx context.Context, databaseURL, temporalAddress string, requests int) (*InputResult, error) {
	st, err := stack.Open(ctx, stack.Options{DatabaseURL: databaseURL, Scratch: "benchinput", TemporalAddress: temporalAddress,
		LazyTemporal: true, Providers: providers.Local(256)})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	ts, _ := serveAPI(st, api.Config{TaskQueue: "bench-input", CheckBudget: time.Second, IdleTimeout: time.Hour})
	defer ts.Close()
	tok, hash := auth.NewToken()
	if _, err := st.Store.CreateToken(ctx, "bench agent", string(auth.Agent), nil, hash); err != nil {
		return nil, err
	}
	brackets := func(n int) []byte {
		return []byte(`{"ticket_id":"T-1","x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
	}
	cases := []struct {
		name     string
		body     []byte
		streamed bool
	}{
		{"1 MB deep, streamed (no Content-Length)", brackets(1 << 19), true},
		{"1 MB deep, Content-Length declared", brackets(1 << 19), false},
		{"100,000 brackets (the probe's 200 KB)", brackets(100_000), false},
	}
	res := &InputResult{Requests: requests}
	for _, c := range cases {
		timing := InputTiming{Case: c.name, BodyBytes: len(c.body)}
		lat := make([]float64, 0, requests)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range requests {
			var body io.Reader = bytes.NewReader(c.body)
			if c.streamed {
				body = io.MultiReader(body) // hides the length: sent chunked
			}
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/v1/drafts", body)
			if err != nil {
				return nil, err
			}
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Content-Type", "application/json")
			t0 := time.Now()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.name, err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			lat = append(lat, ms(time.Since(t0)))
			timing.Status = resp.StatusCode
		}
		runtime.ReadMemStats(&after)
		timing.P50Ms, timing.MaxMs = percentile(lat, 50), percentile(lat, 100)
		timing.AllocKBPerRq = float64(after.TotalAlloc-before.TotalAlloc) / 1024 / float64(requests)
		res.Cases = append(res.Cases, timing)
	}
	return res, nil
}
