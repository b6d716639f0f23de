// Package calibration turns the judge's raw confidence into the probability that a draft
// is grounded. The raw confidence (0.6·faithfulness + 0.2·coverage + 0.2·fit, capped at
// 0.5 or 0.3 by unsupported claims: drafts.Confidence) orders drafts well but is not a
// probability: a raw 0.85 was grounded far less often than 85% of the time on sets the
// team did not write. A monotone mapping (logistic or isotonic), fitted on labelled sets
// and checked on a set left out, keeps the order and fixes the scale.
//
// The mapping is a versioned JSON file (confidence.json) embedded in the binary, so the
// worker that drafts for agents and the eval that measures it apply the same one;
// `supportdraft calibrate` refits it from eval reports, and writes with it the review
// threshold chosen on the same sets (drafts.ReviewThreshold must equal it).
package calibration

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
)

// Point is one knot of the mapping: drafts whose raw confidence is around Raw were
// grounded with probability P.
type Point struct {
	Raw float64 `json:"raw"`
	P   float64 `json:"p"`
	N   int     `json:"n"` // drafts pooled into this knot when it was fitted
}

// Mapping is a monotone map from raw confidence to the probability of "grounded". An
// isotonic mapping is linear between its points and flat beyond the first and last; a
// logistic one is 1/(1+e^−(slope·raw+intercept)). An isotonic mapping without points is
// the identity.
type Mapping struct {
	Version int    `json:"version"`
	Method  string `json:"method"`
	// FittedOn names the eval sets the mapping was fitted on: figures on those sets are
	// in sample, every other set checks it.
	FittedOn []string  `json:"fitted_on"`
	Drafts   int       `json:"drafts"`
	Points   []Point   `json:"points,omitempty"`
	Logistic *Logistic `json:"logistic,omitempty"`
	// Review is the forced-review threshold chosen with this mapping on the same sets
	// (ChooseThreshold): a new mapping moves which drafts fall below any fixed value.
	Review *Review `json:"review,omitempty"`
}

// Logistic is Platt scaling's two parameters.
type Logistic struct {
	Slope     float64 `json:"slope"`
	Intercept float64 `json:"intercept"`
}

// Review is a forced-review threshold and the rule that chose it: the lowest threshold
// at which the drafts it lets through were grounded at least Precision of the time,
// each fitting set weighing the same.
type Review struct {
	Threshold float64 `json:"threshold"`
	Precision float64 `json:"precision"`
}

// The fitting methods: pool-adjacent-violators isotonic regression (Fit), and Platt
// scaling, a logistic curve over the raw confidence (FitLogistic).
const (
	MethodIsotonic = "isotonic"
	MethodLogistic = "logistic"
)

//go:embed confidence.json
var embedded []byte

// Default is the embedded mapping. The file is checked by this package's tests, so a
// mapping that does not parse or is not monotone never ships.
var Default = Embedded("confidence.json", embedded, Parse)

// Embedded returns a fitted file the binary embeds (this package's mapping, the drafter's
// answerability model), parsed on first use. Each is parsed by its package's tests before
// it ships, so one that does not parse is a broken build, and it panics.
func Embedded[M any](name string, data []byte, parse func([]byte) (M, error)) func() M {
	return sync.OnceValue(func() M {
		m, err := parse(data)
		if err != nil {
			panic("embedded " + name + ": " + err.Error())
		}
		return m
	})
}

// Parse reads a mapping file and refuses one a draft's score could not be read through:
// points out of [0,1], raw values not increasing, or probabilities decreasing.
func Parse(data []byte) (Mapping, error) {
	var m Mapping
	if err := json.Unmarshal(data, &m); err != nil {
		return Mapping{}, fmt.Errorf("calibration file: %w", err)
	}
	switch {
	case m.Method != MethodIsotonic && m.Method != MethodLogistic:
		return Mapping{}, fmt.Errorf("calibration file: method is %q, want %q or %q", m.Method, MethodIsotonic, MethodLogistic)
	case m.Method == MethodLogistic && (m.Logistic == nil || len(m.Points) > 0):
		return Mapping{}, fmt.Errorf("calibration file: a logistic mapping needs \"logistic\" and no points")
	case m.Method == MethodLogistic && (m.Logistic.Slope < 0 || math.IsInf(m.Logistic.Slope, 0) || math.IsNaN(m.Logistic.Slope) ||
		math.IsInf(m.Logistic.Intercept, 0) || math.IsNaN(m.Logistic.Intercept)):
		return Mapping{}, fmt.Errorf("calibration file: logistic slope %g, intercept %g: want a finite slope ≥ 0 and a finite intercept",
			m.Logistic.Slope, m.Logistic.Intercept)
	case m.Method == MethodIsotonic && m.Logistic != nil:
		return Mapping{}, fmt.Errorf("calibration file: an isotonic mapping has points, not \"logistic\"")
	case m.Review != nil && (m.Review.Threshold <= 0 || m.Review.Threshold >= 1 || m.Review.Precision <= 0 || m.Review.Precision > 1):
		return Mapping{}, fmt.Errorf("calibration file: review threshold %g at precision %g: want both in (0,1)", m.Review.Threshold, m.Review.Precision)
	}
	for i, p := range m.Points {
		if p.Raw < 0 || p.Raw > 1 || p.P < 0 || p.P > 1 {
			return Mapping{}, fmt.Errorf("calibration file: point %d (raw %g, p %g) is outside [0,1]", i, p.Raw, p.P)
		}
		if i > 0 && (p.Raw <= m.Points[i-1].Raw || p.P < m.Points[i-1].P) {
			return Mapping{}, fmt.Errorf("calibration file: point %d (raw %g, p %g) does not follow point %d (raw %g, p %g) upwards",
				i, p.Raw, p.P, i-1, m.Points[i-1].Raw, m.Points[i-1].P)
		}
	}
	return m, nil
}

// Identity reports whether the mapping leaves raw confidence as it is: an isotonic
// mapping without points.
func (m Mapping) Identity() bool {
	return m.Logistic == nil && len(m.Points) == 0
}

// Apply maps a raw confidence to the calibrated one.
func (m Mapping) Apply(raw float64) float64 {
	if m.Logistic != nil {
		return sigmoid(m.Logistic.Slope*raw + m.Logistic.Intercept)
	}
	ps := m.Points
	switch {
	case m.Identity():
		return raw
	case raw <= ps[0].Raw:
		return ps[0].P
	case raw >= ps[len(ps)-1].Raw:
		return ps[len(ps)-1].P
	}
	i := sort.Search(len(ps), func(i int) bool { return ps[i].Raw >= raw })
	lo, hi := ps[i-1], ps[i]
	return lo.P + (hi.P-lo.P)*(raw-lo.Raw)/(hi.Raw-lo.Raw)
}

// Sample is one draft of a labelled set: its raw confidence and whether the eval found
// it grounded.
type Sample struct {
	Raw      float64
	Grounded bool
}

// Fit fits an isotonic mapping by pool-adjacent-violators: drafts sorted by raw
// confidence are pooled into blocks until the grounded share never falls as the raw
// confidence rises; each block becomes one point at its mean raw confidence. A block's
// share is smoothed towards one half by one draft of each label ((grounded+1)/(n+2)), so
// a block of three grounded drafts reads 0.8, not a certainty a new set would break.
func Fit(samples []Sample, fittedOn []string, version int) Mapping {
	s := slices.Clone(samples)
	slices.SortStableFunc(s, func(a, b Sample) int {
		switch {
		case a.Raw < b.Raw:
			return -1
		case a.Raw > b.Raw:
			return 1
		}
		return 0
	})
	type block struct {
		rawSum   float64
		grounded int
		n        int
	}
	share := func(b block) float64 { return float64(b.grounded+1) / float64(b.n+2) }
	var blocks []block
	for i := 0; i < len(s); {
		// Drafts with the same raw confidence cannot be told apart: one block.
		b, raw := block{}, s[i].Raw
		for ; i < len(s) && s[i].Raw == raw; i++ {
			b.rawSum += raw
			b.n++
			if s[i].Grounded {
				b.grounded++
			}
		}
		blocks = append(blocks, b)
		for len(blocks) > 1 && share(blocks[len(blocks)-2]) >= share(blocks[len(blocks)-1]) {
			last, prev := blocks[len(blocks)-1], blocks[len(blocks)-2]
			blocks = append(blocks[:len(blocks)-2], block{rawSum: prev.rawSum + last.rawSum, grounded: prev.grounded + last.grounded, n: prev.n + last.n})
		}
	}
	m := Mapping{Version: version, Method: MethodIsotonic, FittedOn: fittedOn, Drafts: len(s)}
	for _, b := range blocks {
		m.Points = append(m.Points, Point{Raw: b.rawSum / float64(b.n), P: share(b), N: b.n})
	}
	return m
}
