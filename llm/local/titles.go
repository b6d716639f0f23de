package local

import (
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// titleHeld is SignalTitle: the share of the thread's words of substance (subject and
// customer messages, backstory included) the best section's document title holds, each
// weighted by its inverse document frequency over the whole knowledge base (corpusHeld).
// The other signals read a section's text, and a question asked near the knowledge base
// but outside it often finds one that mentions its words in passing ("billed in GBP" in a
// revenue-tracking guide) while the document is about another subject. The whole thread is
// read, not only its asking clauses: the backstory names the subject ("my bank charged a
// fee") that a short question ("can you refund it?") leaves out.
func titleHeld(question string, terms *llm.Terms, evidence []policy.Evidence, section policy.Evidence) float64 {
	return corpusHeld(substanceWords([]string{question}), terms, evidence, text.StemSet(section.Title))
}
