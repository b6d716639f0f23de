package bench

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/local"
	"github.com/supportdraft/supportdraft/ticket"
)

// DrafterOptions sets `bench drafter`: the ticket sizes, as multiples of a normal ticket,
// and how many times each is drafted.
type DrafterOptions struct {
	Sizes  []int // default 1, 10, 100
	Rounds int   // drafts per size (default 20)
}

// DrafterSize is one size's figures. Capped is what a build costs (llm.DefaultLimits
// applied, as RequestFromTicket does); Uncapped is the same steps on the whole ticket, to
// show how the local providers scale with their input on their own.
type DrafterSize struct {
	Multiple   int     `json:"multiple"`
	Chars      int     `json:"chars"`
	ReadChars  int     `json:"read_chars"` // what the caps left for the drafter
	Truncated  bool    `json:"truncated"`
	CappedMs   float64 `json:"capped_ms_per_ticket"`
	UncappedMs float64 `json:"uncapped_ms_per_ticket"`
	// CappedRatio and UncappedRatio are the time per ticket over the 1× time.
	CappedRatio   float64 `json:"capped_ratio"`
	UncappedRatio float64 `json:"uncapped_ratio"`
}

// DrafterResult is what `supportdraft bench drafter` prints.
type DrafterResult struct {
	Limits llm.Limits    `json:"limits"`
	Sizes  []DrafterSize `json:"sizes"`
}

// normalTicket is the customer's part of a normal ticket: the sizes of the labelled eval
// tickets have a median of 178 characters and one question. A ticket n times the size
// repeats these sentences in turn, so it holds n times the questions too.
var normalTicket = []string{
	"Hello, our annual Pro plan renewed five days ago but we are moving to another tool.",
	"Can we still get a refund of the annual charge, and how long does it take to reach our card?",
}

// Drafter times one build's local model steps on tickets of growing size: the extractive
// drafter, the rule judge on each claim and on the whole reply, and the guard, against
// the same eight source chunks as `bench guard`. No database, model or server is needed.
func Drafter(vocab *guard.Vocabulary, opts DrafterOptions) (DrafterResult, error) {
	if len(opts.Sizes) == 0 {
		opts.Sizes = []int{1, 10, 100}
	}
	if opts.Rounds <= 0 {
		opts.Rounds = 20
	}
	res := DrafterResult{Limits: llm.DefaultLimits}
	warm := scaledTicket(1) // the first builds pay for lazy tables: not timed
	if _, err := timeBuild(vocab, func() llm.Request { return llm.RequestFromTicket(warm, guardSources) }, 5); err != nil {
		return res, err
	}
	for _, n := range opts.Sizes {
		t := scaledTicket(n)
		req := llm.RequestFromTicket(t, guardSources)
		size := DrafterSize{Multiple: n, Chars: req.Truncation.TotalChars, ReadChars: req.Truncation.KeptChars,
			Truncated: req.Truncation.Note() != ""}
		capped, err := timeBuild(vocab, func() llm.Request { return llm.RequestFromTicket(t, guardSources) }, opts.Rounds)
		if err != nil {
			return res, err
		}
		whole := req
		whole.Messages = []llm.Message{{Author: "customer", Body: t.Messages[0].Body}}
		uncapped, err := timeBuild(vocab, func() llm.Request { return whole }, opts.Rounds)
		if err != nil {
			return res, err
		}
		size.CappedMs, size.UncappedMs = capped, uncapped
		res.Sizes = append(res.Sizes, size)
	}
	for i := range res.Sizes {
		res.Sizes[i].CappedRatio = res.Sizes[i].CappedMs / res.Sizes[0].CappedMs
		res.Sizes[i].UncappedRatio = res.Sizes[i].UncappedMs / res.Sizes[0].UncappedMs
	}
	return res, nil
}

// scaledTicket is a one-message ticket n times the normal size.
func scaledTicket(n int) *ticket.Ticket {
	var b strings.Builder
	for i := range n * len(normalTicket) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(normalTicket[i%len(normalTicket)])
	}
	return &ticket.Ticket{TicketID: fmt.Sprintf("BENCH-%d", n), Revision: 1, Subject: "Refund for my annual plan",
		Account:  ticket.Account{Plan: "pro", Region: "eu", Locale: "en"},
		Messages: []ticket.Message{{Author: "customer", Body: b.String()}}}
}

// timeBuild is the mean time, in milliseconds, of rounds builds of the request build
// makes: make it (for a capped build, RequestFromTicket and its caps are part of the
// cost), draft, judge each claim, score the reply, guard it.
func timeBuild(vocab *guard.Vocabulary, build func() llm.Request, rounds int) (float64, error) {
	ctx := context.Background()
	var writer local.Extractive
	var judge local.RuleJudge
	start := time.Now()
	for range rounds {
		req := build()
		d, err := writer.Write(ctx, req)
		if err != nil {
			return 0, err
		}
		for _, c := range d.Claims {
			if _, err := judge.JudgeClaim(ctx, c.Sentence, c.Quote, c.Quote); err != nil {
				return 0, err
			}
		}
		if _, err := judge.Score(ctx, req.Question(), d.Reply, req.Evidence); err != nil {
			return 0, err
		}
		vocab.Check(guard.Input{Reply: d.Reply, Sources: req.Evidence, Mode: guard.ModeAnySource})
	}
	return float64(time.Since(start)) / float64(time.Millisecond) / float64(rounds), nil
}
