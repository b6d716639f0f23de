package local

import (
	"fmt"
	"strings"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// describe fills what a local decision can honestly say about an answer: its category,
// when the answer has none, and the reasoning, which names what was quoted or why the
// question was abstained on. The category is the ticket's triage bucket; without one, the
// allowed category whose name shares most words with the areas of the quoted sections (of
// every retrieved section for an abstention); empty when none does.
func describe(ans *llm.Answer, req llm.Request) *llm.Answer {
	evidence := append(req.Evidence[:len(req.Evidence):len(req.Evidence)], ans.Found...)
	cited := map[string]bool{}
	for _, c := range ans.Claims {
		for _, id := range c.ChunkIDs {
			cited[id] = true
		}
	}
	sections := citedSections(evidence, cited)
	if ans.Abstain || len(sections) == 0 {
		sections = evidence
	}
	from := ""
	if ans.Category == "" {
		ans.Category, from = category(req, sections)
	}
	var why string
	if ans.Abstain {
		note, _, _ := strings.Cut(strings.TrimSpace(ans.Note), "\n")
		if note == "" {
			note = "no eligible section answers the question closely enough"
		}
		why = "Abstained: " + strings.TrimSuffix(note, ".") + "."
	} else {
		why = fmt.Sprintf("Quoted %d sentence(s) from %s: the eligible sections that hold most of what the customer asked.",
			len(ans.Claims), titles(sections))
		if len(ans.Unanswered) > 0 {
			why += " Some questions stay open (see the note)."
		}
	}
	ans.Reasoning = llm.BoundReasoning(why + from)
	return ans
}

// category picks the answer's category and says where it came from.
func category(req llm.Request, sections []policy.Evidence) (string, string) {
	if req.Bucket != "" && llm.ValidCategory(req.Bucket, req.Categories) {
		return req.Bucket, " Category: the ticket's triage bucket."
	}
	if len(req.Categories) == 0 {
		return "", ""
	}
	best, bestVotes := "", 0
	for _, c := range req.Categories {
		name := text.StemSet(strings.NewReplacer("_", " ", "-", " ").Replace(c))
		votes := 0
		for _, ev := range sections {
			for st := range text.StemSet(strings.NewReplacer("_", " ", "-", " ").Replace(ev.Area)) {
				if name[st] {
					votes++
				}
			}
		}
		if votes > bestVotes {
			best, bestVotes = c, votes
		}
	}
	if best == "" {
		return "", " No category: no allowed bucket matches the sections' areas."
	}
	return best, " Category: from the areas of the sections read."
}

// titles names up to three sections by title, each once.
func titles(sections []policy.Evidence) string {
	var out []string
	seen := map[string]bool{}
	for _, ev := range sections {
		t := ev.Title
		if t == "" {
			t = ev.ChunkID
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, fmt.Sprintf("%q", t))
		}
	}
	if len(out) > 3 {
		out = append(out[:3], fmt.Sprintf("%d more", len(out)-3))
	}
	return strings.Join(out, ", ")
}
