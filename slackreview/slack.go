package slackreview

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/slack-go/slack"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/ticket"
)

// Poster posts queued drafts to one channel with a bot token.
type Poster struct {
	api     *slack.Client
	channel string
}

// NewPoster returns a poster for channel. apiURL is Slack's Web API base
// (https://slack.com/api/); tests point it at a local server.
func NewPoster(token, channel, apiURL string) *Poster {
	if !strings.HasSuffix(apiURL, "/") {
		apiURL += "/"
	}
	return &Poster{api: slack.New(token, slack.OptionAPIURL(apiURL)), channel: channel}
}

// In is the same poster for another channel: an agent whose file names its own reviewers'
// channel posts there with the deployment's bot.
func (p *Poster) In(channel string) *Poster {
	return &Poster{api: p.api, channel: channel}
}

// Post sends the draft's message with chat.postMessage and returns its timestamp, Slack's
// ID of the message. Slack's own error code (channel_not_found, invalid_auth…) is in the
// error.
func (p *Poster) Post(ctx context.Context, d Draft) (string, error) {
	_, ts, err := p.api.PostMessageContext(ctx, p.channel, slack.MsgOptionText(Fallback(d), false), slack.MsgOptionBlocks(Blocks(d)...))
	if err != nil {
		return "", fmt.Errorf("post draft %s iteration %d to Slack channel %s: %w", d.TicketID, d.Iteration, p.channel, err)
	}
	return ts, nil
}

// Verification failures, each answered 401 and counted under its own reason.
var (
	ErrUnsigned = errors.New("missing X-Slack-Signature or X-Slack-Request-Timestamp: the request is not from Slack")
	ErrForged   = errors.New("X-Slack-Signature does not match the body: check the signing secret")
	ErrStale    = errors.New("X-Slack-Request-Timestamp is more than 5 minutes from the server's clock")
)

// Verify checks Slack's request signature: "v0=" and the hex HMAC-SHA256, keyed with the
// app's signing secret, of "v0:<X-Slack-Request-Timestamp>:<body>", with the timestamp
// within five minutes of now. It returns the signature, which the caller remembers to
// refuse a replay inside that window.
func Verify(header http.Header, body []byte, secret string) (string, error) {
	v, err := slack.NewSecretsVerifier(header, secret)
	switch {
	case errors.Is(err, slack.ErrMissingHeaders):
		return "", ErrUnsigned
	case errors.Is(err, slack.ErrExpiredTimestamp):
		return "", ErrStale
	case err != nil:
		return "", ErrForged
	}
	if _, err := v.Write(body); err != nil {
		return "", err
	}
	if err := v.Ensure(); err != nil {
		return "", ErrForged
	}
	return header.Get("X-Slack-Signature"), nil
}

// Action is one button click: who clicked, which action, on which draft, and the message
// clicked on (its channel, timestamp and blocks), to mark it decided.
type Action struct {
	UserID    string
	AgentID   string // the agent whose draft the message is about
	Action    string // ActionApprove, ActionPull or ActionKill
	TicketID  string
	Iteration int
	Channel   string
	MessageTS string
	Blocks    []slack.Block
}

// ParseAction reads an interactivity request's body (form field "payload", a JSON
// block_actions callback). Errors name what is missing.
func ParseAction(body []byte) (*Action, error) {
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Get("payload") == "" {
		return nil, errors.New(`the body must be a form with a "payload" field, as Slack sends interactions`)
	}
	var cb slack.InteractionCallback
	if err := json.NewDecoder(bytes.NewReader([]byte(form.Get("payload")))).Decode(&cb); err != nil {
		return nil, fmt.Errorf(`field "payload" is not an interaction: %w`, err)
	}
	if cb.Type != slack.InteractionTypeBlockActions || len(cb.ActionCallback.BlockActions) != 1 {
		return nil, fmt.Errorf(`payload type %q with %d actions: only one block_actions button click is handled`, cb.Type, len(cb.ActionCallback.BlockActions))
	}
	if cb.User.ID == "" {
		return nil, errors.New(`payload "user.id" is missing`)
	}
	a := cb.ActionCallback.BlockActions[0]
	switch a.ActionID {
	case ActionApprove, ActionPull, ActionKill:
	default:
		return nil, fmt.Errorf(`payload action_id %q: use %s, %s or %s`, a.ActionID, ActionApprove, ActionPull, ActionKill)
	}
	agentID, ticketID, iteration, ok := ParseButtonValue(a.Value)
	if !ok {
		return nil, errors.New(`payload action "value" is not a ticket and iteration`)
	}
	if err := ticket.ValidateID(ticketID); err != nil {
		return nil, fmt.Errorf(`payload action "value": %w`, err)
	}
	if err := agent.CheckID(agentID); err != nil {
		return nil, fmt.Errorf(`payload action "value": %w`, err)
	}
	ts := cb.Container.MessageTs
	if ts == "" {
		ts = cb.Message.Timestamp
	}
	return &Action{UserID: cb.User.ID, AgentID: agentID, Action: a.ActionID, TicketID: ticketID, Iteration: iteration,
		Channel: cb.Channel.ID, MessageTS: ts, Blocks: cb.Message.Blocks.BlockSet}, nil
}

// Decided rewrites the clicked message with chat.update: its buttons give way to who
// decided what, so nobody clicks a decided draft again. The rest of the message stays.
func (p *Poster) Decided(ctx context.Context, a *Action, by string) error {
	if a.Channel == "" || a.MessageTS == "" {
		return errors.New("the interaction names no message to update")
	}
	verb := map[string]string{ActionApprove: "Approved", ActionPull: "Pulled back", ActionKill: "Killed"}[a.Action]
	var blocks []slack.Block
	for _, b := range a.Blocks {
		if ab, ok := b.(*slack.ActionBlock); ok && ab.BlockID == "review" {
			continue
		}
		blocks = append(blocks, b)
	}
	done := fmt.Sprintf("*%s* by %s (iteration %d)", verb, by, a.Iteration)
	blocks = append(blocks, slack.NewContextBlock("decision", slack.NewTextBlockObject(slack.MarkdownType, done, false, false)))
	_, _, _, err := p.api.UpdateMessageContext(ctx, a.Channel, a.MessageTS, slack.MsgOptionText(fmt.Sprintf("%s: %s by %s", a.TicketID, verb, by), false), slack.MsgOptionBlocks(blocks...))
	if err != nil {
		return fmt.Errorf("update the Slack message of ticket %s: %w", a.TicketID, err)
	}
	return nil
}
