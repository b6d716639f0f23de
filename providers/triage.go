package providers

import (
	"github.com/supportdraft/supportdraft/config"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/llm/openai"
)

// Triager builds the intake's triage over an agent's buckets (nil: the default agent's):
// the local deterministic classifier, or with the openai provider a small model
// (SUPPORTDRAFT_TRIAGE_MODEL) behind a strict JSON schema.
func Triager(cfg config.Config, buckets inbox.BucketSet) inbox.Triager {
	if cfg.Provider == "openai" {
		client := openai.NewClient(openai.Config{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey})
		return inbox.NewOpenAITriager(client, cfg.TriageModel, buckets)
	}
	return inbox.Classifier{Buckets: buckets}
}
