package calibration

import (
	"fmt"
	"math"
)

// A review threshold is a line on the calibrated scale, so a new mapping moves which drafts
// fall below it: the two are chosen together, on the same sets, by one stated rule.

// thresholdGrid is the thresholds ChooseThreshold tries, lowest first.
var thresholdGrid = []float64{0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95}

// Check is how a mapping and a review threshold read one labelled set: ECE of the
// calibrated and of the raw confidence, AUROC, and what the threshold does. HeldBack is
// the share of grounded drafts below the threshold (sent to review though sendable),
// Caught the share of the other drafts below it, Precision the grounded share of the
// drafts at or above it (1 when none is).
type Check struct {
	Drafts, Grounded int
	ECE, RawECE      float64
	AUROC            float64
	HeldBack, Caught float64
	Precision        float64
}

// CheckSet reads a set through a mapping at a review threshold.
func CheckSet(m Mapping, s Set, threshold float64) Check {
	c := Check{Drafts: len(s.Samples)}
	var pos, neg, conf, raw []float64
	var grounded []bool
	held, caught, through, throughGrounded := 0, 0, 0, 0
	for _, d := range s.Samples {
		p := m.Apply(d.Raw)
		conf, raw, grounded = append(conf, p), append(raw, d.Raw), append(grounded, d.Grounded)
		if d.Grounded {
			pos = append(pos, p)
		} else {
			neg = append(neg, p)
		}
		switch {
		case p >= threshold:
			through++
			if d.Grounded {
				throughGrounded++
			}
		case d.Grounded:
			held++
		default:
			caught++
		}
	}
	c.Grounded = len(pos)
	c.ECE, c.RawECE = ECE(conf, grounded), ECE(raw, grounded)
	c.AUROC = AUROC(pos, neg)
	c.HeldBack, c.Caught, c.Precision = share(held, len(pos)), share(caught, len(neg)), 1
	if through > 0 {
		c.Precision = share(throughGrounded, through)
	}
	return c
}

// ChooseThreshold returns the lowest threshold of thresholdGrid at which the drafts a
// mapping lets through are grounded at least precision of the time, the mean of the sets'
// precisions so that each set weighs the same: the fewest grounded drafts held back for
// that assurance.
func ChooseThreshold(m Mapping, sets []Set, precision float64) (Review, error) {
	if len(sets) == 0 {
		return Review{}, fmt.Errorf("review threshold: no sets")
	}
	for _, t := range thresholdGrid {
		sum := 0.0
		for _, s := range sets {
			sum += CheckSet(m, s, t).Precision
		}
		if sum/float64(len(sets)) >= precision {
			return Review{Threshold: t, Precision: precision}, nil
		}
	}
	return Review{}, fmt.Errorf("review threshold: no threshold up to %.2f lets drafts through grounded at %.2f", thresholdGrid[len(thresholdGrid)-1], precision)
}

// Fold is one fold of a cross-fit: the mapping and threshold fitted on every set but
// Held, and how they read Held.
type Fold struct {
	Held    string
	Mapping Mapping
	Check   Check
}

// CrossFit leaves each set out in turn, fits a mapping on the others, chooses its
// threshold on them at precision and checks both on the set left out: the figures a
// knowledge base nobody here has seen can expect.
func CrossFit(sets []Set, fit func([]Set) (Mapping, error), precision float64) ([]Fold, error) {
	return LeaveOneOut("calibration", sets, func(held Set, rest []Set) (Fold, error) {
		m, err := fit(rest)
		if err != nil {
			return Fold{}, fmt.Errorf("leaving out %s: %w", held.Name, err)
		}
		r, err := ChooseThreshold(m, rest, precision)
		if err != nil {
			return Fold{}, fmt.Errorf("leaving out %s: %w", held.Name, err)
		}
		m.Review = &r
		return Fold{Held: held.Name, Mapping: m, Check: CheckSet(m, held, r.Threshold)}, nil
	})
}

// LeaveOneOut runs fold once per set, in order, with that set held out and the others
// as rest, and returns the folds: every cross-fit (this package's, the answerability
// model's) is one. what names the fit in the error for fewer than two sets.
func LeaveOneOut[S, F any](what string, sets []S, fold func(held S, rest []S) (F, error)) ([]F, error) {
	if len(sets) < 2 {
		return nil, fmt.Errorf("%s cross-fit: %d sets, need at least 2", what, len(sets))
	}
	folds := make([]F, 0, len(sets))
	for i, held := range sets {
		f, err := fold(held, append(sets[:i:i], sets[i+1:]...))
		if err != nil {
			return nil, err
		}
		folds = append(folds, f)
	}
	return folds, nil
}

// Bin is one bar of a reliability diagram: the drafts whose confidence is in [Lo, Hi),
// their mean confidence and the share of them that was grounded.
type Bin struct {
	Lo             float64 `json:"lo"`
	Hi             float64 `json:"hi"`
	N              int     `json:"n"`
	MeanConfidence float64 `json:"mean_confidence"`
	GroundedShare  float64 `json:"grounded_share"`
}

// ReliabilityBins is the number of equal-width confidence bins of the diagram and the ECE.
const ReliabilityBins = 10

// Reliability bins confidences read as the probability of "grounded" into ten bins of
// width 0.1 and returns them with the expected calibration error,
// Σ (n_bin / n) · |grounded share_bin − mean confidence_bin|.
func Reliability(conf []float64, grounded []bool) ([]Bin, float64) {
	bins := make([]Bin, ReliabilityBins)
	sums := make([]float64, ReliabilityBins)
	pos := make([]int, ReliabilityBins)
	for i, v := range conf {
		b := min(int(math.Floor(max(0, min(1, v))*ReliabilityBins)), ReliabilityBins-1)
		bins[b].N++
		sums[b] += v
		if grounded[i] {
			pos[b]++
		}
	}
	ece := 0.0
	for b := range bins {
		bins[b].Lo, bins[b].Hi = float64(b)/ReliabilityBins, float64(b+1)/ReliabilityBins
		if bins[b].N == 0 {
			continue
		}
		bins[b].MeanConfidence = sums[b] / float64(bins[b].N)
		bins[b].GroundedShare = share(pos[b], bins[b].N)
		ece += float64(bins[b].N) / float64(len(conf)) * math.Abs(bins[b].GroundedShare-bins[b].MeanConfidence)
	}
	return bins, ece
}

// ECE is the expected calibration error of Reliability.
func ECE(conf []float64, grounded []bool) float64 {
	_, e := Reliability(conf, grounded)
	return e
}

func share(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}
