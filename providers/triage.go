package providers

import (
	"github.com/supportdraft/supportdraft/config"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/llm/openai"
)

// Triager builds the intake's triage: the local deterministic classifier, or with the
// openai provider a small model (SUPPORTDRAFT_TRIAGE_MODEL) behind a strict JSON schema.
func Triager(cfg config.Config) inbox.Triager {
	if cfg.Provider == "openai" {
		client := openai.NewClient(openai.Config{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey})
		return inbox.NewOpenAITriager(client, cfg.TriageModel)
	}
	return inbox.Classifier{}
}
