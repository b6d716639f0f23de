// Package llm holds what the model providers promise and exchange, and nothing else: a
// Writer writes a reply with claims from eligible policy evidence (an Answer), a Judge
// checks claims and scores replies. Two families implement them: llm/local, the
// deterministic providers that are the default and need no network, and llm/openai, for
// any OpenAI-compatible endpoint. Nothing here decides eligibility or strikes sentences;
// callers do that with what the providers return.
package llm

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
	"github.com/supportdraft/supportdraft/ticket"
)

// ErrRejected marks a provider error that retrying cannot fix: the endpoint refused the
// request itself (bad request, bad key, unknown model). Providers wrap such errors so
// that errors.Is(err, ErrRejected) holds; the activities decide retries with it and never
// need to know which provider failed or how its errors look.
var ErrRejected = errors.New("model endpoint refused the request")

// Message is one message of the ticket thread as a model sees it: who wrote it and what
// they wrote, without timestamps or addresses.
type Message struct {
	Author string `json:"author"` // customer | agent
	Body   string `json:"body"`
}

// Request is all a model may see: ticket text and the eligibility fields — never the
// account ID, the customer's name or email address.
type Request struct {
	Subject  string            `json:"subject"`
	Messages []Message         `json:"messages"`
	Account  policy.Account    `json:"account"`
	Evidence []policy.Evidence `json:"evidence"`
	// Search, when set, is the eligible-only retrieval for this ticket's account and
	// instant, used by a tool-use writer in place of the one it was built with:
	// eligibility depends on the ticket, so a long-lived writer cannot know it. It is
	// code, not data, and never reaches a model.
	Search Searcher `json:"-"`
	// Truncation says what RequestFromTicket's caps (DefaultLimits) left out of Messages.
	Truncation Truncation `json:"-"`
	// Categories is the set a writer's Answer.Category must come from: the triage buckets
	// of the agent the ticket belongs to. Empty means any category is accepted.
	Categories []string `json:"categories,omitempty"`
	// Bucket is the triage bucket the intake funnel gave the ticket, if it came that way.
	Bucket string `json:"bucket,omitempty"`
	// Terms is how common the question's words are in the whole knowledge base; nil when
	// the caller did not read them, and writers then judge by the evidence alone.
	Terms *Terms `json:"-"`
}

// RequestFromTicket builds the model's view of a ticket revision. It copies only author
// and body of each message and only plan, region and locale of the account, so the account
// ID held by the ticket cannot leak into a prompt by accident. A body keeps only what its
// sender wrote (text.OwnText): mail it quotes and a signature are not what the customer
// asks. The messages are cut to DefaultLimits (see Capped), so retrieval, the drafter and
// the judge all read the same bounded text whatever the ticket's size.
func RequestFromTicket(t *ticket.Ticket, evidence []policy.Evidence) Request {
	msgs := make([]Message, 0, len(t.Messages))
	for _, m := range t.Messages {
		msgs = append(msgs, Message{Author: m.Author, Body: text.OwnText(m.Body)})
	}
	req, tr := Request{
		Subject:  t.Subject,
		Messages: msgs,
		Account:  t.Account.Eligibility(),
		Evidence: evidence,
	}.Capped(DefaultLimits)
	req.Truncation = tr
	return req
}

// Claim is one factual sentence of a reply with the chunks it relies on and the span
// quoted from them.
type Claim struct {
	Sentence string   `json:"sentence"`
	ChunkIDs []string `json:"chunk_ids"`
	Quote    string   `json:"quote"`
}

// Answer is what a Writer returns: the reply, its claims, or an abstention. A model's
// self-reported confidence, if it gives one, is dropped before an Answer is built:
// confidence comes from the judge, in code.
type Answer struct {
	Reply   string  `json:"reply"`
	Abstain bool    `json:"abstain"`
	Claims  []Claim `json:"claims"`
	// Note tells the agent what the writer could not answer and why ("No eligible policy
	// mentions PayPal"); it is shown beside the reply, never sent.
	Note string `json:"note,omitempty"`
	// Found is what a tool-use writer's searches returned beyond the request's evidence,
	// each snippet once. With the request's evidence it is the set claims may cite. A
	// writer that does not search leaves it empty rather than echo the request back:
	// every copy of the evidence is one more payload in the draft's workflow history.
	Found []policy.Evidence `json:"found,omitempty"`
	// Unanswered is what the customer asked that no eligible policy answers: for an
	// abstention, one entry naming what was asked; for a partial answer, one per open
	// question. The rejection log keeps them, so gaps can rank what customers ask about.
	Unanswered []Unanswered `json:"unanswered,omitempty"`
	// Category is the triage bucket the writer files the question under, one of
	// Request.Categories; empty when the writer could not tell.
	Category string `json:"category,omitempty"`
	// Reasoning says in a few sentences what the writer quoted and why, or why it
	// abstained, for the reviewer; at most MaxReasoning characters.
	Reasoning string `json:"reasoning,omitempty"`
	// Signals are what the writer read to decide whether the knowledge base answers the
	// question (local.Signals by name), kept with the draft so the answerability model can
	// be refitted from an eval report; empty for a writer that reads none.
	Signals map[string]float64 `json:"signals,omitempty"`
}

// MaxReasoning bounds Answer.Reasoning in characters: a reviewer reads it beside the
// reply, and a model asked for a short reason sometimes writes an essay.
const MaxReasoning = 400

// BoundReasoning cuts s to MaxReasoning characters at a word boundary, marking the cut.
func BoundReasoning(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= MaxReasoning {
		return s
	}
	cut := string(r[:MaxReasoning-1])
	if i := strings.LastIndexByte(cut, ' '); i > MaxReasoning/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

// ValidCategory reports whether c is one of allowed; any non-empty c is valid when
// allowed is empty.
func ValidCategory(c string, allowed []string) bool {
	if len(allowed) == 0 {
		return c != ""
	}
	return slices.Contains(allowed, c)
}

// Unanswered is one question no eligible policy answers.
type Unanswered struct {
	// Question is the customer's asking sentence, for an open question of a partial
	// answer; empty for an abstention, whose note says what was missing.
	Question string `json:"question,omitempty"`
	// Subject is what the question asks about, as the writer's note names it: the words
	// no eligible policy mentions ("alipay") or the topic words no quoted section holds.
	Subject string `json:"subject"`
}

// The line a reply abstains with, in English and German. Every writer abstains in the
// same words, so the judge can tell an abstention from a claim whichever writer wrote it.
// It holds no number, commercial verb or promise, so the guard never strikes it.
const (
	AbstainEN = "No current approved policy covers this question, so it needs a reply from a member of the billing team."
	AbstainDE = "Keine aktuelle, freigegebene Richtlinie deckt diese Frage ab, daher braucht sie eine Antwort aus dem Billing-Team."
)

// Writer writes a reply to a ticket from the evidence in the request.
type Writer interface {
	Write(ctx context.Context, req Request) (*Answer, error)
}

// Verdict is the judge's answer on one claim.
type Verdict string

// The three verdicts the claim checker accepts; anything else from a model is malformed.
const (
	VerdictSupports    Verdict = "supports"
	VerdictContradicts Verdict = "contradicts"
	VerdictNotEnough   Verdict = "not_enough"
)

// Valid reports whether v is one of the three verdicts.
func (v Verdict) Valid() bool {
	return v == VerdictSupports || v == VerdictContradicts || v == VerdictNotEnough
}

// Judgement is a verdict with the reasoning that is logged for evaluation.
type Judgement struct {
	Verdict   Verdict `json:"verdict"`
	Reasoning string  `json:"reasoning"`
}

// Scores are the judge's three dimensions, each in [0,1]; confidence is combined from them
// in code (0.6·F + 0.2·C + 0.2·Fit, then capped), never by a model.
type Scores struct {
	Faithfulness float64 `json:"faithfulness"`
	Coverage     float64 `json:"coverage"`
	Fit          float64 `json:"fit"`
}

// Clamped returns the scores with each clamped to [0,1], NaN read as 0: a model's scores
// are bounded by its prompt, not by its output schema.
func (s Scores) Clamped() Scores {
	return Scores{Faithfulness: Unit(s.Faithfulness), Coverage: Unit(s.Coverage), Fit: Unit(s.Fit)}
}

// Unit clamps a model's score to [0,1], NaN read as 0.
func Unit(x float64) float64 {
	if x != x || x < 0 { // NaN counts as nothing
		return 0
	}
	return min(x, 1)
}

// Judge checks single claims and scores whole drafts against their evidence.
type Judge interface {
	JudgeClaim(ctx context.Context, sentence, quote, chunkText string) (Judgement, error)
	Score(ctx context.Context, question string, reply string, evidence []policy.Evidence) (Scores, error)
}

// StyleGuide is what a rubric tells a judge model about how a reply should sound.
type StyleGuide struct {
	HumanSounding string `json:"human_sounding"`
	Tone          string `json:"tone"`
}

// Style is a judge model's reading of how a reply sounds, each score in [0,1].
type Style struct {
	HumanSounding float64 `json:"human_sounding"`
	Tone          float64 `json:"tone"`
	Reasoning     string  `json:"reasoning"`
}

// StyleJudge is a judge that can also read how a reply sounds, which code cannot: the
// rubric's human-sounding and tone criteria. The local rule judge is not one.
type StyleJudge interface {
	Style(ctx context.Context, reply string, guide StyleGuide) (Style, error)
}

// Searcher is eligible-only retrieval, handed to the tool-use writer so a model can search
// again without ever seeing a chunk the account may not be told about.
type Searcher func(ctx context.Context, query string, k int) ([]policy.Evidence, error)

// Question returns the text a reply must answer: the subject and every customer message
// of the thread, since a question the first message asked is still open when the customer
// writes again. Judges score coverage against it.
func (r Request) Question() string {
	parts := []string{}
	if r.Subject != "" {
		parts = append(parts, r.Subject)
	}
	return strings.Join(append(parts, r.CustomerBodies()...), "\n")
}

// CustomerBodies are the customer's messages of the thread, oldest first: a question
// asked in the first message and not answered since is still open when the customer writes
// again, so the writer weighs every one of them, not only the newest.
func (r Request) CustomerBodies() []string {
	var out []string
	for _, m := range r.Messages {
		if m.Author == "customer" {
			out = append(out, m.Body)
		}
	}
	if len(out) == 0 && len(r.Messages) > 0 {
		out = append(out, r.Messages[len(r.Messages)-1].Body)
	}
	return out
}
