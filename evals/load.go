package evals

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/supportdraft/supportdraft/evals/dataset"
	"github.com/supportdraft/supportdraft/strictjson"
)

// InputError is a problem with what the caller gave the eval (a corpus that does not
// parse, a tickets file that cannot be read or holds no valid ticket, a reviews file with
// a bad line), as opposed to a failure of the services. The CLI exits 2 on it.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// IsInputError reports whether err is, or wraps, an InputError.
func IsInputError(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// SkippedLine is one line of the tickets file that was not replayed, and why.
type SkippedLine struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// maxLine bounds one JSONL line; a ticket with a long thread stays far below it.
const maxLine = 4 << 20

// ReadTickets reads a JSONL file of tickets. A line that is not a valid ticket (bad JSON,
// a missing field, a ticket ID seen before) is reported on warn with its line number and
// returned in skipped, never dropped silently: a typo in a labelled set must show. Blank
// lines are not tickets and are passed over. Unknown fields are allowed, because help
// desks export more than the ticket format's fields. limit > 0 keeps only the first limit tickets.
func ReadTickets(path string, limit int, warn io.Writer) (tickets []*dataset.Labelled, skipped []SkippedLine, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, &InputError{fmt.Errorf("open tickets file: %w", err)}
	}
	defer f.Close()
	tickets, skipped, err = parseTickets(f, path, limit, warn)
	if err != nil {
		return nil, nil, err
	}
	if len(tickets) == 0 {
		return nil, skipped, &InputError{fmt.Errorf("%s: no valid ticket to replay (%d lines skipped)", path, len(skipped))}
	}
	return tickets, skipped, nil
}

func parseTickets(r io.Reader, path string, limit int, warn io.Writer) ([]*dataset.Labelled, []SkippedLine, error) {
	if warn == nil {
		warn = io.Discard
	}
	var tickets []*dataset.Labelled
	var skipped []SkippedLine
	seen := map[string]int{} // ticket ID → line it was first read from
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for line := 1; sc.Scan(); line++ {
		if limit > 0 && len(tickets) >= limit {
			break
		}
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		t, reason := parseTicket(raw)
		if reason == "" && seen[t.TicketID] > 0 {
			reason = fmt.Sprintf("ticket %s already read on line %d", t.TicketID, seen[t.TicketID])
		}
		if reason != "" {
			skipped = append(skipped, SkippedLine{Line: line, Reason: reason})
			fmt.Fprintf(warn, "%s:%d: skipped: %s\n", path, line, reason)
			continue
		}
		seen[t.TicketID] = line
		tickets = append(tickets, t)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, &InputError{fmt.Errorf("read %s: %w", path, err)}
	}
	return tickets, skipped, nil
}

// parseTicket decodes one line with the ticket input contract's strict JSON rules (no
// unknown fields, duplicate keys or trailing data), its "expect" label allowed, and
// validates the ticket; reason is "" for a good ticket.
func parseTicket(raw []byte) (t *dataset.Labelled, reason string) {
	t = &dataset.Labelled{}
	if err := strictjson.Decode(raw, t); err != nil {
		return nil, err.Error()
	}
	if err := t.Validate(); err != nil {
		return nil, err.Error()
	}
	return t, ""
}
