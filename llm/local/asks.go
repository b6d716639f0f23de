package local

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/supportdraft/supportdraft/text"
)

// What a customer asks, as answerability reads it. An email carries much that asks
// nothing: a signature with a name, a title and a disclaimer, invoice numbers and workspace
// addresses, the backstory. Words from those parts are in no policy, so counting them as
// the question's topics makes the drafter abstain on questions the policies do answer.

// referenceWords name the customer's records; the token after one is an identifier
// ("workspace pixel-foundry"), not a topic.
var referenceWords = map[string]bool{"workspace": true, "arbeitsbereich": true, "url": true, "ref": true, "kundennummer": true}

// messageProper returns a customer message without its reference tokens: anything
// holding a digit (INV-2026-40830, A-1234), an address (a URL or an e-mail) and the name
// after "workspace". Amounts keep no meaning here either: quantities are compared as
// facts elsewhere, never as topic words. Quoted mail and the signature are already gone:
// llm.RequestFromTicket reads every body through text.OwnText.
func messageProper(body string) string {
	lines := strings.Split(body, "\n")
	for i, line := range lines {
		lines[i] = withoutReferences(line)
	}
	return strings.Join(lines, "\n")
}

// withoutReferences drops the reference tokens of a line, keeping a sentence end that
// was glued to one ("INV-2026-89838?").
func withoutReferences(line string) string {
	fields := strings.Fields(line)
	kept := fields[:0]
	afterReference := false
	for _, f := range fields {
		bare := strings.ToLower(strings.Trim(f, ",.:;()[]"))
		if afterReference || strings.IndexFunc(f, unicode.IsDigit) >= 0 || strings.Contains(f, "://") || strings.Contains(f, "@") {
			afterReference = false
			kept = kept[:len(kept)-referenceLabel(kept)]
			if last := f[len(f)-1:]; strings.ContainsAny(last, ".?!") {
				kept = append(kept, last)
			}
			continue
		}
		afterReference = referenceWords[bare]
		kept = append(kept, f)
	}
	return strings.Join(kept, " ")
}

// maxLabelWords bounds a reference's label ("Ref:", "Order no.:", "Account ID:").
const maxLabelWords = 3

// referenceLabel returns how many of the last kept words label the reference that follows
// them: a run of at most maxLabelWords words that ends in a colon and starts a sentence
// or the line. Its words name a record, not a topic. Only the colon word goes when the
// run is longer ("the invoice I mean:").
func referenceLabel(kept []string) int {
	n := len(kept)
	if n == 0 || !strings.HasSuffix(kept[n-1], ":") {
		return 0
	}
	for i := n - 1; i >= 0 && n-i <= maxLabelWords; i-- {
		if i == 0 || strings.ContainsAny(kept[i-1][len(kept[i-1])-1:], ".?!") {
			return n - i
		}
	}
	return 1
}

// clauseEnd is the end of a clause inside a sentence: customers do not always start the
// next sentence with a capital ("new to all of this. trial ending - will I be billed?").
var clauseEnd = regexp.MustCompile(`[.!?;]\s+`)

// clauses cuts the message proper of a body into clauses, in reading order.
func clauses(body string) []string {
	var out []string
	for _, s := range text.SplitLines(messageProper(body)) {
		rest := s
		for {
			loc := clauseEnd.FindStringIndex(rest)
			if loc == nil {
				break
			}
			out = append(out, strings.TrimSpace(rest[:loc[0]+1]))
			rest = rest[loc[1]:]
		}
		if strings.TrimSpace(rest) != "" {
			out = append(out, strings.TrimSpace(rest))
		}
	}
	return out
}

// askingClauses returns the clauses of a message that ask something: a question, or a
// request in so many words ("I want to cancel our Pro plan. What are the steps?"), whose
// words name what the question after it leaves unnamed. A request is kept without its
// opener: "we'd like to" names nothing, and "we'd" is a word no policy holds.
func askingClauses(body string) []string {
	var out []string
	for _, c := range clauses(body) {
		if text.IsAsking(c) {
			out = append(out, c)
			continue
		}
		if m := requesting.FindStringIndex(c); m != nil && len(strings.Fields(c[m[1]:])) > 1 { // "Please advise." asks nothing of its own
			out = append(out, c[m[1]:])
		}
	}
	return out
}

// requesting is the opener of a clause that asks for something without a question: "I'd
// like to …", "we need to …", "please cancel …", "ich möchte …", "bitte erstatten …".
var requesting = regexp.MustCompile(`^(?i:(?:i|we)(?:['’]d| would)? (?:like|want|wish|need) to|(?:i|we)['’]d like|please|kindly|(?:ich|wir) (?:möchte|möchten|will|wollen|muss|müssen)|bitte) `)

// substanceStems are the content stems of s that name a topic: support chatter excluded.
func substanceStems(s string) []string {
	var out []string
	for _, st := range text.ContentStems(s) {
		if !chatter[st] {
			out = append(out, st)
		}
	}
	return out
}

// customerAsks is what the customer messages of a thread ask: the asking clauses of each,
// or, for a message that asks nothing in so many words ("double charged!! fix pls"), the
// message proper. The subject line is not among them: it names the topic in the fewest
// words ("Grace period?", "hit my storage limit"), often not the policy's, so counting it
// for answerability would make the drafter abstain on answerable mail.
func customerAsks(bodies []string) []string {
	var out []string
	for _, b := range bodies {
		asks := askingClauses(b)
		if len(asks) == 0 {
			asks = []string{messageProper(b)}
		}
		out = append(out, asks...)
	}
	return out
}
