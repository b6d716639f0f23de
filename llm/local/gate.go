package local

import (
	"context"
	"strings"

	"github.com/supportdraft/supportdraft/llm"
)

// Answerable puts the extractive drafter's answerability decision in front of another
// writer (a remote model), so every writer abstains on the same questions:
//
//   - before the model is asked: when most of the words of substance the customer asks
//     about are in no eligible evidence, the question is abstained on, with the note naming
//     them, and no model call is made;
//   - after it answers: the sections its claims cite are read against each asking clause
//     (answers.go: idf-weighted subject support in one section, and the answer type the
//     clause asks for); when they answer none, the model answered a question nobody asked
//     (or claims an answer no source carries), and the answer becomes an abstention naming
//     what the sections lack.
//
// A model's own abstention is kept as it is. An answer that leaves some questions of the
// thread open gets a note naming them, as the extractive drafter's does.
type Answerable struct {
	Writer llm.Writer
}

// Write implements llm.Writer.
func (a Answerable) Write(ctx context.Context, req llm.Request) (*llm.Answer, error) {
	asks := customerAsks(req.CustomerBodies())
	german := strings.HasPrefix(strings.ToLower(req.Account.Locale), "de")
	if missing, share := missingConcepts(req.Subject, asks, req.Evidence); share >= unanswerableShare {
		return describe(abstention(german, missingNote(missing), missing), req), nil
	}
	ans, err := a.Writer.Write(ctx, req)
	if err != nil || ans.Abstain {
		return ans, err
	}
	cited := map[string]bool{}
	for _, c := range ans.Claims {
		for _, id := range c.ChunkIDs {
			cited[id] = true
		}
	}
	evidence := append(req.Evidence[:len(req.Evidence):len(req.Evidence)], ans.Found...)
	judged := judgeAnswer(ans, german, asks, citedSections(evidence, cited), evidence)
	if judged != ans { // the model's answer became an abstention: its reasoning no longer holds
		return describe(judged, req), nil
	}
	return judged, nil
}
