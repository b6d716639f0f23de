// Package providers builds the configured model providers. With no model configured the
// local deterministic ones are used: an extractive drafter that quotes eligible chunks
// verbatim, a rule-based judge and a hashing embedder. They are the product's default,
// not test doubles.
package providers

import (
	"github.com/supportdraft/supportdraft/config"
	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/local"
	"github.com/supportdraft/supportdraft/llm/openai"
)

// Set is one embedder, drafter and judge.
type Set struct {
	Embedder embedding.Embedder
	Writer   llm.Writer
	Judge    llm.Judge
	// Remote is true when the drafter and judge call a model over the network; false for
	// the embedded deterministic ones, whose draft steps then run as local activities.
	Remote bool
}

// FromConfig builds the providers cfg names.
func FromConfig(cfg config.Config) Set {
	oc := openai.Config{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey, DraftModel: cfg.DraftModel,
		JudgeModel: cfg.JudgeModel, ToolRounds: cfg.ToolRounds, RequestTimeout: cfg.ModelTimeout}
	s := Local(cfg.EmbeddingDims)
	s.Embedder = Embedder(cfg)
	if cfg.Provider == "openai" {
		client := openai.NewClient(oc)
		// The model answers only what the eligible policies can answer: the same
		// answerability decision as the local drafter runs before and after it.
		s.Writer = local.Answerable{Writer: openai.NewWriter(client, oc, nil)} // searches come per request, scoped to the ticket's account and time
		s.Judge = openai.NewJudge(client, oc)
		s.Remote = true
	}
	return s
}

// Local is the set that needs no network: hashing embedder, extractive drafter, rule judge.
// Benchmarks and evals use it so they measure the system, not a model's latency.
func Local(dims int) Set {
	return Set{Embedder: embedding.NewHashing(dims), Writer: local.Extractive{}, Judge: local.RuleJudge{}}
}

// Embedder builds only the embedder (policy import needs nothing else).
func Embedder(cfg config.Config) embedding.Embedder {
	if cfg.Embedder == "openai" {
		oc := openai.Config{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey}
		return openai.NewEmbedder(openai.NewClient(oc), cfg.EmbeddingModel, cfg.EmbeddingDims)
	}
	return embedding.NewHashing(cfg.EmbeddingDims)
}
