package config

import (
	"fmt"
	"os"

	"github.com/supportdraft/supportdraft/slackreview"
)

// Slack is the reviewers' Slack app: where queued drafts are posted, and how the clicks
// on their buttons are verified and attributed.
type Slack struct {
	SlackToken         string                // SUPPORTDRAFT_SLACK_TOKEN: the app's bot token (xoxb-…), for chat.postMessage
	SlackChannel       string                // SUPPORTDRAFT_SLACK_CHANNEL: the channel ID queued drafts are posted to (empty: none are)
	SlackSigningSecret string                // SUPPORTDRAFT_SLACK_SIGNING_SECRET: verifies POST /v1/slack/interactions (empty: the route answers 404)
	SlackReviewers     slackreview.Reviewers // SUPPORTDRAFT_SLACK_REVIEWERS: U…=name[:role],… who a Slack user is to us
	SlackAPIURL        string                // SUPPORTDRAFT_SLACK_API_URL: Slack's Web API (https://slack.com/api/)
}

// readSlack fills c.Slack; a channel needs a token, and buttons need a signing secret to
// be of any use, so a half configuration is refused naming the missing variable.
func (c *Config) readSlack() error {
	s := Slack{
		SlackToken:         os.Getenv("SUPPORTDRAFT_SLACK_TOKEN"),
		SlackChannel:       os.Getenv("SUPPORTDRAFT_SLACK_CHANNEL"),
		SlackSigningSecret: os.Getenv("SUPPORTDRAFT_SLACK_SIGNING_SECRET"),
		SlackAPIURL:        env("SUPPORTDRAFT_SLACK_API_URL", "https://slack.com/api/"),
	}
	var err error
	if s.SlackReviewers, err = slackreview.ParseReviewers(os.Getenv("SUPPORTDRAFT_SLACK_REVIEWERS")); err != nil {
		return fmt.Errorf("SUPPORTDRAFT_SLACK_REVIEWERS: %w", err)
	}
	switch {
	case s.SlackChannel != "" && s.SlackToken == "":
		return fmt.Errorf("SUPPORTDRAFT_SLACK_CHANNEL is set: set SUPPORTDRAFT_SLACK_TOKEN (the bot token) too")
	case s.SlackChannel != "" && s.SlackSigningSecret == "":
		return fmt.Errorf("SUPPORTDRAFT_SLACK_CHANNEL is set: set SUPPORTDRAFT_SLACK_SIGNING_SECRET too, or the buttons are refused")
	case s.SlackSigningSecret != "" && len(s.SlackReviewers) == 0:
		return fmt.Errorf("SUPPORTDRAFT_SLACK_SIGNING_SECRET is set: map Slack users to reviewers in SUPPORTDRAFT_SLACK_REVIEWERS (U…=name[:role],…)")
	}
	c.Slack = s
	return nil
}
