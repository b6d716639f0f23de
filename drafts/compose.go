package drafts

import (
	"slices"
	"strings"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
)

// Composition is the draft the agent will see, before scoring.
type Composition struct {
	Reply       string         `json:"reply"`
	Note        string         `json:"note,omitempty"`
	Status      string         `json:"status"` // ready | abstained
	Bound       []BoundVersion `json:"bound"`
	Unsupported int            `json:"unsupported"`
}

// AbstainNote is shown when no current policy answers the question.
const AbstainNote = "No current, approved policy answers this question for this account. Please answer it yourself or escalate to billing operations."

// Compose decides what the agent sees: the guarded reply, or an abstention when the drafter
// abstained or nothing backed by policy survived. It binds the draft to the policy versions
// of the claims that survived, or, for an abstention, of everything retrieved, so that a
// newly approved policy that might answer the question makes the abstention stale too.
//
// Unsupported counts the material claims that did not survive: struck sentences (other
// than unresolved placeholders) plus failed claims whose sentence is not in the reply.
func Compose(d llm.Answer, checks []ClaimCheck, guarded guard.Result, evidence []policy.Evidence) Composition {
	c := Composition{Reply: guarded.Reply, Note: joinNotes(d.Note, guarded.Note), Status: StatusReady}
	for _, s := range guarded.Sentences {
		if !s.Kept && len(s.Placeholders) == 0 {
			c.Unsupported++
		}
	}
	reply := strings.ToLower(d.Reply)
	for _, ch := range checks {
		if ch.Failure != "" && !strings.Contains(reply, strings.ToLower(strings.TrimSpace(ch.Sentence))) {
			c.Unsupported++
		}
	}
	var cited []string
	for _, ch := range checks {
		if ch.Supported() {
			cited = append(cited, ch.ChunkIDs...)
		}
	}
	if d.Abstain || len(cited) == 0 {
		c.Status = StatusAbstained
		c.Reply = d.Reply
		if !d.Abstain || strings.TrimSpace(c.Reply) == "" {
			c.Reply = guarded.Reply
		}
		c.Note = joinNotes(c.Note, AbstainNote)
		for _, e := range evidence {
			cited = append(cited, e.ChunkID)
		}
	}
	c.Bound = boundVersions(cited, evidence)
	return c
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// boundVersions maps chunk IDs to the distinct (doc, version) pairs they belong to, in a
// stable order.
func boundVersions(chunkIDs []string, evidence []policy.Evidence) []BoundVersion {
	var out []BoundVersion
	for _, id := range chunkIDs {
		for _, e := range evidence {
			if e.ChunkID != id {
				continue
			}
			b := BoundVersion{DocID: e.DocID, Version: e.Version}
			if !slices.Contains(out, b) {
				out = append(out, b)
			}
		}
	}
	slices.SortFunc(out, func(x, y BoundVersion) int { return strings.Compare(x.DocID, y.DocID) })
	return out
}

// NoEvidenceReply is the draft when nothing eligible was retrieved at all: no model is
// asked, because nothing could ground its answer.
const NoEvidenceReply = "Thanks for getting in touch. A member of our billing team will look into your question and reply personally."
