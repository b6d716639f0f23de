package calibration

import (
	"cmp"
	"slices"
)

// AUROC is the Mann–Whitney estimate of P(a positive scores above a negative), ties
// counting half; 0 when either side is empty (a report says how many of each there are).
// The eval reads it over drafts' confidence, the answerability cross-fit over the model's
// probability.
func AUROC(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return 0
	}
	type scored struct {
		v        float64
		positive bool
	}
	all := make([]scored, 0, len(pos)+len(neg))
	for _, v := range pos {
		all = append(all, scored{v, true})
	}
	for _, v := range neg {
		all = append(all, scored{v, false})
	}
	slices.SortFunc(all, func(a, b scored) int { return cmp.Compare(a.v, b.v) })
	// Sum of the positives' ranks, tied values sharing the mean of their ranks.
	rankSum := 0.0
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		meanRank := float64(i+1+j) / 2 // ranks i+1..j
		for k := i; k < j; k++ {
			if all[k].positive {
				rankSum += meanRank
			}
		}
		i = j
	}
	np, nn := float64(len(pos)), float64(len(neg))
	return (rankSum - np*(np+1)/2) / (np * nn)
}
