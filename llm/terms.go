package llm

import "strings"

// Terms is how common the words of a question are in the agent's whole knowledge base,
// read from the store's term statistics (the lexemes the lexical arm ranks with). The
// request's evidence is the twenty or so sections retrieval found; a word none of them
// holds may still be in the knowledge base, while a word no section of it holds ("SAML",
// "downtime") says the knowledge base does not cover the question.
type Terms struct {
	// Chunks is how many chunks the agent's knowledge base holds.
	Chunks int
	// Held maps a word of the question, lower case as written, to how many chunks hold
	// it (its stem, as the store reads it). A word looked up and held by none maps to 0.
	Held map[string]int
}

// Known reports whether word was looked up, and how many chunks hold it.
func (t *Terms) Known(word string) (int, bool) {
	if t == nil || t.Chunks == 0 {
		return 0, false
	}
	n, ok := t.Held[strings.ToLower(word)]
	return n, ok
}
