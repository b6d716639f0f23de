package local

import (
	"fmt"
	"sort"
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
	c.AUROC = auroc(yes, no)
	return c
}

// auroc is the chance that a score of pos exceeds one of neg, ties counting half: the
// Mann-Whitney statistic over the pooled ranks.
func auroc(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return 0
	}
	type scored struct {
		p   float64
		pos bool
	}
	all := make([]scored, 0, len(pos)+len(neg))
	for _, p := range pos {
		all = append(all, scored{p, true})
	}
	for _, p := range neg {
		all = append(all, scored{p, false})
	}
	sort.Slice(all, func(a, b int) bool { return all[a].p < all[b].p })
	rankSum := 0.0
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].p == all[i].p {
			j++
		}
		mid := float64(i+j+1) / 2 // the mean of ranks i+1 … j
		for k := i; k < j; k++ {
			if all[k].pos {
				rankSum += mid
			}
		}
		i = j
	}
	np, nn := float64(len(pos)), float64(len(neg))
	return (rankSum - np*(np+1)/2) / (np * nn)
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
	if len(sets) < 2 {
		return nil, fmt.Errorf("answerability cross-fit: %d sets, need at least 2", len(sets))
	}
	var folds []CrossFold
	for i, held := range sets {
		rest := append(sets[:i:i], sets[i+1:]...)
		m, err := FitAnswerabilitySets(rest)
		if err != nil {
			return nil, fmt.Errorf("answerability cross-fit without %s: %w", held.Name, err)
		}
		folds = append(folds, CrossFold{Held: held.Name, Model: m, Check: CheckAnswerability(m, held.Samples)})
	}
	return folds, nil
}
