package evals

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/evals/dataset"
)

const goodTicket = `{"ticket_id":"T-%s","revision":1,"updated_at":"2026-04-02T10:05:00Z","account":{"id":"A-1","plan":"pro","region":"eu"},"channel":"email","subject":"Refund","messages":[{"author":"customer","at":"2026-04-02T10:00:00Z","body":"Can I get a refund?"}]}`

func line(id string) string { return strings.Replace(goodTicket, "%s", id, 1) }

func TestParseTicketsReportsEveryBadLineWithItsNumber(t *testing.T) {
	t.Parallel()
	input := strings.Join([]string{
		line("1"),
		`{"ticket_id": "T-2", `, // truncated JSON
		"",                      // blank: not a ticket, not an error
		strings.Replace(line("3"), `"plan":"pro"`, `"plan":""`, 1), // fails Validate
		line("1"),              // duplicate
		line("4") + ` {"x":1}`, // two values on one line
		line("5"),
	}, "\n")
	var warn bytes.Buffer
	tickets, skipped, err := parseTickets(strings.NewReader(input), "set.jsonl", 0, &warn)
	if err != nil {
		t.Fatal(err)
	}
	if len(tickets) != 2 || tickets[0].TicketID != "T-1" || tickets[1].TicketID != "T-5" {
		t.Fatalf("tickets = %v, want T-1 and T-5", ids(tickets))
	}
	wantLines := []int{2, 4, 5, 6}
	if len(skipped) != len(wantLines) {
		t.Fatalf("skipped = %+v, want lines %v", skipped, wantLines)
	}
	for i, l := range wantLines {
		if skipped[i].Line != l {
			t.Errorf("skipped[%d] is line %d, want %d", i, skipped[i].Line, l)
		}
		if !strings.Contains(warn.String(), "set.jsonl:"+strconv.Itoa(l)+": skipped") {
			t.Errorf("stderr does not name set.jsonl:%d:\n%s", l, warn.String())
		}
	}
	for _, want := range []string{`"account.plan" is required`, "already read on line 1", "unexpected data after the JSON value"} {
		if !strings.Contains(warn.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, warn.String())
		}
	}
}

func TestParseTicketsLimit(t *testing.T) {
	t.Parallel()
	input := strings.Join([]string{line("1"), "not json", line("2"), line("3")}, "\n")
	tickets, skipped, err := parseTickets(strings.NewReader(input), "x", 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tickets) != 2 || len(skipped) != 1 {
		t.Fatalf("limit 2: %d tickets, %d skipped; want 2 and 1", len(tickets), len(skipped))
	}
}

func TestReadTicketsWithNoValidTicketIsAnInputError(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(path, []byte("nope\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := ReadTickets(path, 0, nil)
	if !IsInputError(err) || !strings.Contains(err.Error(), "no valid ticket") {
		t.Fatalf("err = %v, want an input error saying there is no valid ticket", err)
	}
	_, _, err = ReadTickets(filepath.Join(t.TempDir(), "missing.jsonl"), 0, nil)
	if !IsInputError(err) {
		t.Fatalf("missing file: err = %v, want an input error", err)
	}
}

// TestRunRefusesBadInputBeforeTouchingServices: a corpus that does not parse or a tickets
// file with nothing to replay is the caller's mistake, reported before any connection.
func TestRunRefusesBadInputBeforeTouchingServices(t *testing.T) {
	t.Parallel()
	bad := filepath.Join("..", "policy", "testdata", "dir-bad") // files that do not parse
	_, err := Run(context.Background(), Options{Corpus: bad, Tickets: "tickets.jsonl", DatabaseURL: "postgres://nowhere.invalid/x"})
	if !IsInputError(err) || !strings.Contains(err.Error(), "c-broken.md") {
		t.Fatalf("bad corpus: err = %v, want an input error naming c-broken.md", err)
	}
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), Options{Corpus: "corpus", Tickets: empty, DatabaseURL: "postgres://nowhere.invalid/x"})
	if !IsInputError(err) {
		t.Fatalf("empty tickets: err = %v, want an input error", err)
	}
}

func ids(ts []*dataset.Labelled) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.TicketID
	}
	return out
}
