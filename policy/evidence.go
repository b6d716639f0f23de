package policy

// Evidence is one policy chunk as a draft may use it: what retrieval returns, what the
// drafter quotes and cites, what the judge and the guard check a reply against. It carries
// the version fields a draft binds to and the rank score retrieval gave it (0 when the
// chunk was loaded by ID). It is the one shape a chunk has outside the corpus files.
type Evidence struct {
	ChunkID string  `json:"chunk_id"` // doc_id@version#anchor
	DocID   string  `json:"doc_id"`
	Version int     `json:"version"`
	Title   string  `json:"title"`
	Source  string  `json:"source"` // wiki | helpcenter | macro
	Area    string  `json:"area"`
	Text    string  `json:"text"`
	Score   float64 `json:"score"`
	// Fixed and Audience are the section's marks from its front matter (Chunk).
	Fixed    bool   `json:"fixed,omitempty"`
	Audience string `json:"audience,omitempty"`
	// Subheadings are the lines of Text that title a subsection (Chunk).
	Subheadings []string `json:"subheadings,omitempty"`
	// Lexical is the chunk's BM25 score as a share of the most the query's terms could
	// score, in [0, 1] (0 when the lexical arm did not rank it, or it was loaded by ID):
	// unlike the raw score it has one scale for every query and corpus, so the drafter
	// can judge from it whether retrieval found an answer at all.
	Lexical float64 `json:"lexical,omitempty" db:"-"`
}

// FixedWording reports whether the chunk is fixed, approved wording (a macro, or a section
// marked fixed), which backs a sentence only when the sentence repeats it word for word.
func (e Evidence) FixedWording() bool { return e.Source == SourceMacro || e.Fixed }

// ForAgents reports whether the chunk is marked as written for support agents: context
// for the drafter and the agent, never quoted in a customer reply.
func (e Evidence) ForAgents() bool { return e.Audience == AudienceAgents }
