// Package slackreview puts queued drafts in front of reviewers in Slack and takes their
// decisions back: a Block Kit message with the customer's question, the draft, its scores
// and Approve / Pull back / Kill buttons (posted with chat.postMessage), and the
// interactivity requests those buttons send, verified by Slack's request signature and
// mapped to a reviewer of ours. slack-go speaks Slack's wire format.
package slackreview

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/slack-go/slack"

	"github.com/supportdraft/supportdraft/agent"
)

// Actions a reviewer can take from the message; the action IDs of its buttons.
const (
	ActionApprove = "approve"
	ActionPull    = "pull"
	ActionKill    = "kill"
)

// Draft is what the message shows of a queued draft.
type Draft struct {
	AgentID      string // the agent whose draft it is; "" is the default agent
	TicketID     string
	Iteration    int
	Subject      string
	Question     string // the customer's latest message
	Reply        string
	Confidence   float64
	Faithfulness float64
	Coverage     float64
	Fit          float64
	Bucket       string
	ForcedReview string // why review was forced, if it was
}

// maxText keeps a section under Slack's 3,000-character limit for a text object.
const maxText = 2800

// Blocks is the Block Kit message for a queued draft. Each button's value names the ticket
// and iteration, so a click on an older message cannot decide a newer draft.
func Blocks(d Draft) []slack.Block {
	md := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.MarkdownType, s, false, false)
	}
	plain := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
	}
	value := ButtonValue(d.AgentID, d.TicketID, d.Iteration)
	scores := fmt.Sprintf("*Confidence* %.2f · faithfulness %.2f · coverage %.2f · fit %.2f", d.Confidence, d.Faithfulness, d.Coverage, d.Fit)
	if d.Bucket != "" {
		scores += " · " + d.Bucket
	}
	blocks := []slack.Block{
		slack.NewHeaderBlock(plain(clip(fmt.Sprintf("Draft to review: %s (iteration %d)", d.TicketID, d.Iteration), 150))),
		slack.NewSectionBlock(md(clip("*Customer*"+subjectLine(d.Subject)+"\n"+quote(d.Question), maxText)), nil, nil),
		slack.NewSectionBlock(md(clip("*Draft*\n"+quote(d.Reply), maxText)), nil, nil),
		slack.NewContextBlock("", md(scores)),
	}
	if d.ForcedReview != "" {
		blocks = append(blocks, slack.NewContextBlock("", md(clip("*Review forced:* "+d.ForcedReview, maxText))))
	}
	kill := slack.NewButtonBlockElement(ActionKill, value, plain("Kill")).WithStyle(slack.StyleDanger).
		WithConfirm(slack.NewConfirmationBlockObject(plain("Kill this draft?"),
			plain("The draft is discarded and the ticket goes to people without one."), plain("Kill"), plain("Cancel")))
	blocks = append(blocks, slack.NewActionBlock("review",
		slack.NewButtonBlockElement(ActionApprove, value, plain("Approve")).WithStyle(slack.StylePrimary),
		slack.NewButtonBlockElement(ActionPull, value, plain("Pull back")),
		kill))
	return blocks
}

// Fallback is the message's plain text, shown in notifications.
func Fallback(d Draft) string {
	return fmt.Sprintf("Draft to review: %s (iteration %d), confidence %.2f", d.TicketID, d.Iteration, d.Confidence)
}

// ButtonValue and ParseButtonValue carry a draft's agent, ticket and iteration in a
// button: "<ticket>#<iteration>" for the default agent, as before agents existed, and
// "<agent>/<ticket>#<iteration>" for another (ticket IDs hold no "/").
func ButtonValue(agentID, ticketID string, iteration int) string {
	v := ticketID + "#" + strconv.Itoa(iteration)
	if agentID != "" && agentID != agent.Default {
		v = agentID + "/" + v
	}
	return v
}

// ParseButtonValue reads a ButtonValue; ok is false for anything else.
func ParseButtonValue(v string) (agentID, ticketID string, iteration int, ok bool) {
	i := strings.LastIndexByte(v, '#')
	if i <= 0 {
		return "", "", 0, false
	}
	n, err := strconv.Atoi(v[i+1:])
	if err != nil || n < 1 {
		return "", "", 0, false
	}
	agentID, ticketID, named := strings.Cut(v[:i], "/")
	if !named {
		return agent.Default, v[:i], n, true
	}
	return agentID, ticketID, n, true
}

func subjectLine(s string) string {
	if s == "" {
		return ""
	}
	return " — " + s
}

// quote makes a mrkdwn quote of text, escaped so customer text cannot mention channels
// or users or forge links.
func quote(text string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	lines := strings.Split(strings.TrimSpace(r.Replace(text)), "\n")
	return "&gt; " + strings.Join(lines, "\n&gt; ")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 1
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
