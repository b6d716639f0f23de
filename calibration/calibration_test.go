package calibration

import (
	"slices"
	"testing"
)

// The shipped mapping parses and never lowers a draft's confidence as its raw score rises.
func TestEmbeddedMappingLoadsAndIsMonotone(t *testing.T) {
	m, err := Parse(embedded)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version < 1 || (len(m.Points) < 2 && m.Logistic == nil) || len(m.FittedOn) == 0 || m.Review == nil {
		t.Fatalf("embedded mapping v%d (%s, %d points) fitted on %v with review %+v: want a fitted mapping and its threshold",
			m.Version, m.Method, len(m.Points), m.FittedOn, m.Review)
	}
	prev := -1.0
	for raw := 0.0; raw <= 1.0; raw += 0.01 {
		p := m.Apply(raw)
		if p < prev || p < 0 || p > 1 {
			t.Fatalf("Apply(%.2f) = %.3f after %.3f: not monotone in [0,1]", raw, p, prev)
		}
		prev = p
	}
	if m.Apply(0.05) >= m.Apply(0.95) {
		t.Fatalf("an abstention's raw 0.05 maps to %.2f, a strong draft's 0.95 to %.2f", m.Apply(0.05), m.Apply(0.95))
	}
}

// Pool-adjacent-violators pools a dip into its neighbour and smooths each block's share.
func TestFitPoolsViolators(t *testing.T) {
	s := []Sample{{0.1, false}, {0.1, false}, {0.5, true}, {0.6, false}, {0.9, true}, {0.9, true}}
	m := Fit(s, []string{"set"}, 1)
	want := []Point{{Raw: 0.1, P: 0.25, N: 2}, {Raw: 0.55, P: 0.5, N: 2}, {Raw: 0.9, P: 0.75, N: 2}}
	if len(m.Points) != len(want) {
		t.Fatalf("points %+v, want %+v", m.Points, want)
	}
	for i, p := range m.Points {
		if abs(p.Raw-want[i].Raw) > 1e-9 || abs(p.P-want[i].P) > 1e-9 || p.N != want[i].N {
			t.Fatalf("point %d = %+v, want %+v", i, p, want[i])
		}
	}
	if got := m.Apply(0.325); abs(got-0.375) > 1e-9 {
		t.Fatalf("Apply(0.325) = %v, want 0.375 (halfway between the first two points)", got)
	}
	if m.Apply(0) != 0.25 || m.Apply(1) != 0.75 {
		t.Fatalf("beyond the ends: Apply(0) = %v, Apply(1) = %v", m.Apply(0), m.Apply(1))
	}
}

func TestParseRefusesAFallingMapping(t *testing.T) {
	_, err := Parse([]byte(`{"version":1,"method":"isotonic","points":[{"raw":0.2,"p":0.6},{"raw":0.8,"p":0.4}]}`))
	if err == nil {
		t.Fatal("a mapping whose probability falls as raw confidence rises was accepted")
	}
}

func TestParseRefusesAFallingLogisticMapping(t *testing.T) {
	_, err := Parse([]byte(`{"version":1,"method":"logistic","logistic":{"slope":-2,"intercept":1}}`))
	if err == nil {
		t.Fatal("a logistic mapping with a negative slope was accepted")
	}
	if _, err := Parse([]byte(`{"version":1,"method":"logistic"}`)); err == nil {
		t.Fatal("a logistic mapping without its parameters was accepted")
	}
}

// grades returns a set whose drafts at raw r are grounded with probability near r: n
// drafts at each of raw 0.1 … 0.9, of which round(r·n) grounded.
func grades(name string, n int) Set {
	s := Set{Name: name}
	for i := 1; i <= 9; i++ {
		raw := float64(i) / 10
		k := int(raw*float64(n) + 0.5)
		for j := range n {
			s.Samples = append(s.Samples, Sample{Raw: raw, Grounded: j < k})
		}
	}
	return s
}

// A set whose raw confidence is already a probability fits a curve close to the identity,
// and a small set weighs as much as a large one.
func TestFitLogisticWeighsSetsTheSame(t *testing.T) {
	m, err := FitLogistic([]Set{grades("a", 100)}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []float64{0.2, 0.5, 0.8} {
		if p := m.Apply(raw); abs(p-raw) > 0.05 {
			t.Errorf("Apply(%.1f) = %.3f on a set grounded at its raw confidence", raw, p)
		}
	}
	// A small set where every draft is grounded pulls the curve up as far as a large one
	// where the raw confidence is right pulls it back.
	all := Set{Name: "all grounded"}
	for i := 1; i <= 9; i++ {
		all.Samples = append(all.Samples, Sample{Raw: float64(i) / 10, Grounded: true}, Sample{Raw: float64(i) / 10, Grounded: i > 1})
	}
	both, err := FitLogistic([]Set{grades("a", 100), all}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if both.Apply(0.5) < m.Apply(0.5)+0.1 {
		t.Errorf("18 drafts grounded 17 times moved Apply(0.5) from %.3f to %.3f only: the small set weighed less", m.Apply(0.5), both.Apply(0.5))
	}
	if both.Drafts != 900+18 || len(both.FittedOn) != 2 || both.Method != MethodLogistic {
		t.Errorf("fitted %+v", both)
	}
	if _, err := FitLogistic([]Set{{Name: "flat", Samples: []Sample{{0.5, true}, {0.5, false}}}}, 1); err == nil {
		t.Error("a set whose raw confidence never varies was fitted")
	}
}

// The threshold is the lowest of the grid whose drafts let through are grounded at the
// asked precision, the sets' precisions averaged.
func TestChooseThresholdIsTheLowestAtThePrecision(t *testing.T) {
	identity := Mapping{Method: MethodIsotonic}
	s := grades("a", 10)
	// At 0.6 the drafts at 0.6 … 0.9 pass: 30 grounded of 40, 0.75; below it 15 of the 45
	// grounded drafts wait and 35 of the 45 others are caught.
	if c := CheckSet(identity, s, 0.6); abs(c.Precision-0.75) > 1e-9 || abs(c.HeldBack-15.0/45) > 1e-9 || abs(c.Caught-35.0/45) > 1e-9 {
		t.Fatalf("CheckSet at 0.6 = %+v: want precision 0.75, held back 15/45, caught 35/45", c)
	}
	r, err := ChooseThreshold(identity, []Set{s}, 0.75)
	if err != nil || r.Threshold != 0.55 {
		t.Fatalf("ChooseThreshold(0.75) = %+v, %v: want 0.55, the lowest of the grid above the drafts at 0.5", r, err)
	}
	// A second set where everything is grounded lifts the mean: a lower threshold will do.
	good := Set{Name: "good", Samples: []Sample{{0.2, true}, {0.9, true}}}
	r, err = ChooseThreshold(identity, []Set{s, good}, 0.75)
	if err != nil || r.Threshold >= 0.55 {
		t.Fatalf("with an all-grounded set: %+v, %v: want below 0.55", r, err)
	}
	if _, err := ChooseThreshold(identity, []Set{{Name: "bad", Samples: []Sample{{0.99, false}}}}, 0.8); err == nil {
		t.Fatal("a set no threshold makes precise gave a threshold")
	}
}

// Cross-fitting checks each set on a mapping and threshold fitted without it.
func TestCrossFitLeavesEachSetOut(t *testing.T) {
	sets := []Set{grades("a", 20), grades("b", 20), grades("c", 20)}
	var seen [][]string
	folds, err := CrossFit(sets, func(rest []Set) (Mapping, error) {
		m, err := FitLogistic(rest, 1)
		seen = append(seen, m.FittedOn)
		return m, err
	}, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	if len(folds) != 3 {
		t.Fatalf("%d folds, want 3", len(folds))
	}
	for i, f := range folds {
		if f.Held != sets[i].Name || slices.Contains(seen[i], f.Held) || len(seen[i]) != 2 {
			t.Errorf("fold %d left out %s, fitted on %v", i, f.Held, seen[i])
		}
		if f.Mapping.Review == nil || f.Check.Drafts != 180 || f.Check.ECE > 0.1 {
			t.Errorf("fold %s: review %+v, check %+v", f.Held, f.Mapping.Review, f.Check)
		}
	}
	if _, err := CrossFit(sets[:1], nil, 0.8); err == nil {
		t.Error("cross-fit over one set ran")
	}
}

func TestECE(t *testing.T) {
	// Bin 0.8–0.9: mean 0.85, grounded 1 of 2 → 0.35 off; bin 0.1–0.2: mean 0.1, 0 of 2 → 0.1 off.
	got := ECE([]float64{0.8, 0.9 - 1e-9, 0.1, 0.1}, []bool{true, false, false, false})
	if abs(got-(0.5*0.35+0.5*0.1)) > 1e-9 {
		t.Fatalf("ECE = %v, want 0.225", got)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
