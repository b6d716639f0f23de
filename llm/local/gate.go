package local

import (
	"context"

	"github.com/supportdraft/supportdraft/llm"
)

// Answerable puts the extractive drafter's answerability decision in front of another
// writer (a remote model), so every writer abstains on the same questions:
//
//   - before the model is asked: when most of the words of substance the customer asks
//     about are in no eligible evidence, or the answerability model finds that the
//     sections the extractive drafter would quote do not answer it (answerability.go),
//     the question is abstained on, with the note naming what is missing, and no model
//     call is made;
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
	// Answerability is the model deciding before the call; nil means DefaultAnswerability.
	Answerability *Answerability
}

// Write implements llm.Writer.
func (a Answerable) Write(ctx context.Context, req llm.Request) (*llm.Answer, error) {
	r := Extractive{Answerability: a.Answerability}.read(req)
	if ans := r.abstainFirst(req); ans != nil {
		return ans, nil
	}
	asks, german := r.asks, r.german
	ans, err := a.Writer.Write(ctx, req)
	if err != nil || ans.Abstain {
		return ans, err
	}
	ans.Signals = r.signals
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
