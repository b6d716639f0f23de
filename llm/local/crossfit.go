package local

import (
	"fmt"

	"github.com/supportdraft/supportdraft/calibration"
)

// A model fitted and checked on the same tickets says little about a knowledge base
// nobody here has seen. Cross-fitting leaves one labelled set out, fits on the others and
// reads the model on the set left out, once per set: the figures a new knowledge base
// can expect, and whether each signal's weight holds from fold to fold.

// AnswerabilitySet is one labelled set's samples and the name it is reported under.
type AnswerabilitySet struct {
	Name    string
	Samples []AnswerabilitySample
}

// AnswerabilityCheck is how a model reads labelled samples it may not have been fitted
// on: the share of unanswerable ones it holds back (Recall), the share of answerable ones
// it holds back (FalseAbstention) and the chance an answerable one scores above an
// unanswerable one (AUROC, 0 when either kind is missing).
type AnswerabilityCheck struct {
	Answerable      int
	Unanswerable    int
	Recall          float64
	FalseAbstention float64
	AUROC           float64
}

// CheckAnswerability reads samples through a model.
func CheckAnswerability(m Answerability, samples []AnswerabilitySample) AnswerabilityCheck {
	var c AnswerabilityCheck
	var yes, no []float64
	held, missed := 0, 0
	for _, s := range samples {
		p := m.Probability(s.Signals)
		if s.Answerable {
			yes = append(yes, p)
			if p < m.Threshold {
				missed++
			}
		} else {
			no = append(no, p)
			if p < m.Threshold {
				held++
			}
		}
	}
	c.Answerable, c.Unanswerable = len(yes), len(no)
	if len(no) > 0 {
		c.Recall = float64(held) / float64(len(no))
	}
	if len(yes) > 0 {
		c.FalseAbstention = float64(missed) / float64(len(yes))
	}
	c.AUROC = calibration.AUROC(yes, no)
	return c
}

// CrossFold is one fold of a cross-fit: the model fitted on every set but Held, and how
// it reads Held.
type CrossFold struct {
	Held  string
	Model Answerability
	Check AnswerabilityCheck
}

// CrossFit leaves each set out in turn, fits on the others (FitAnswerabilitySets) and
// checks the model on the set left out.
func CrossFit(sets []AnswerabilitySet) ([]CrossFold, error) {
	return calibration.LeaveOneOut("answerability", sets, func(held AnswerabilitySet, rest []AnswerabilitySet) (CrossFold, error) {
		m, err := FitAnswerabilitySets(rest)
		if err != nil {
			return CrossFold{}, fmt.Errorf("answerability cross-fit without %s: %w", held.Name, err)
		}
		return CrossFold{Held: held.Name, Model: m, Check: CheckAnswerability(m, held.Samples)}, nil
	})
}
