package llm

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/supportdraft/supportdraft/text"
)

// Limits bound what a drafter, a judge and retrieval read of one ticket. The input contract
// (package ticket) already refuses tickets beyond 192 KiB; these caps are far below it,
// because a 192 KiB thread of short questions costs a drafter and a judge hundreds of times
// a normal ticket while no agent could review a reply to all of it. The newest messages
// are read first, each from its start, so the open question is the one kept.
type Limits struct {
	Chars     int `json:"chars"`     // characters of message text, all messages together
	Sentences int `json:"sentences"` // sentences of message text
	Questions int `json:"questions"` // asking sentences (see text.IsAsking)
}

// DefaultLimits are the caps RequestFromTicket applies. The labelled eval tickets, the
// hand-written sets and the outside practice set are at most 915 characters with six
// questions, so no real ticket there is cut; a thread nine times the longest still is not.
var DefaultLimits = Limits{Chars: 8000, Sentences: 100, Questions: 10}

// Truncation says how much of a ticket a capped request left out; the zero value means
// nothing was.
type Truncation struct {
	KeptChars, TotalChars int
	KeptMessages          int
	TotalMessages         int
	Limit                 string // the cap that cut: "characters", "sentences" or "questions"
}

// Note is the line shown on the draft when the ticket was cut, or "" when it was not.
func (t Truncation) Note() string {
	if t.TotalChars == 0 || t.KeptChars == t.TotalChars {
		return ""
	}
	return fmt.Sprintf("This ticket is longer than the drafter reads (%s cap): the draft answers the newest %d of %d characters "+
		"(%d of %d messages read, at least in part). Read the whole thread before sending.",
		t.Limit, t.KeptChars, t.TotalChars, t.KeptMessages, t.TotalMessages)
}

// Capped returns req with its messages cut to l, and what was cut. It walks the messages
// from the newest back and each message's sentences from its start, keeping sentences
// while every cap allows, and stops at the first that does not fit: one pass over the
// text, so its cost is linear in the ticket's size. A cut message keeps its first
// sentences; older messages are dropped whole.
func (req Request) Capped(l Limits) (Request, Truncation) {
	tr := Truncation{TotalMessages: len(req.Messages)}
	for _, m := range req.Messages {
		tr.TotalChars += len(m.Body)
	}
	kept := make([]Message, len(req.Messages))
	chars, sentences, questions := 0, 0, 0
	first := len(req.Messages) // index of the oldest message kept, in part or whole
	for i := len(req.Messages) - 1; i >= 0 && tr.Limit == ""; i-- {
		body := req.Messages[i].Body
		end := 0
		for _, s := range text.Split(body) {
			asks := text.IsAsking(s.Text)
			switch {
			case chars+s.End-end > l.Chars:
				tr.Limit = "characters"
			case sentences+1 > l.Sentences:
				tr.Limit = "sentences"
			case asks && questions+1 > l.Questions:
				tr.Limit = "questions"
			}
			if tr.Limit != "" {
				break
			}
			chars, sentences = chars+s.End-end, sentences+1
			if asks {
				questions++
			}
			end = s.End
		}
		if end == len(strings.TrimRight(body, " \t\r\n")) || end == len(body) {
			end = len(body) // the whole message fits: keep it exactly as written
		}
		if end > 0 {
			kept[i] = Message{Author: req.Messages[i].Author, Body: body[:end]}
			first = i
		}
	}
	if tr.Limit == "" {
		tr.KeptChars, tr.KeptMessages = tr.TotalChars, tr.TotalMessages
		return req, tr
	}
	if first == len(req.Messages) && first > 0 { // the newest message's first sentence alone is over the cap
		first--
		kept[first] = Message{Author: req.Messages[first].Author, Body: clipRunes(req.Messages[first].Body, l.Chars)}
	}
	out := req
	out.Messages = nil
	for _, m := range kept[first:] {
		if m.Body != "" {
			out.Messages = append(out.Messages, m)
			tr.KeptChars += len(m.Body)
			tr.KeptMessages++
		}
	}
	return out, tr
}

// clipRunes is the longest prefix of s of at most n bytes that ends on a whole character.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
