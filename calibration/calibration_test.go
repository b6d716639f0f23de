package calibration

import (
	"testing"
)

// The shipped mapping parses and never lowers a draft's confidence as its raw score rises.
func TestEmbeddedMappingLoadsAndIsMonotone(t *testing.T) {
	m, err := Parse(embedded)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version < 1 || len(m.Points) < 2 || len(m.FittedOn) == 0 {
		t.Fatalf("embedded mapping v%d has %d points fitted on %v: want a fitted mapping", m.Version, len(m.Points), m.FittedOn)
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

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
