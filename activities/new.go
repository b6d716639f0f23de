package activities

import (
	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/providers"
	"github.com/supportdraft/supportdraft/retrieval"
	"github.com/supportdraft/supportdraft/store"
)

// DefaultK is how many eligible chunks a drafter sees by default.
const DefaultK = 10

// New wires the activities over a store and a provider set.
func New(s *store.Store, p providers.Set, vocab *guard.Vocabulary) *Activities {
	return &Activities{
		Store:     s,
		Retriever: &retrieval.Retriever{Store: s, Embedder: p.Embedder},
		Drafter:   p.Drafter,
		Judge:     p.Judge,
		Vocab:     vocab,
		K:         DefaultK,
	}
}
