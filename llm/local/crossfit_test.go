package local

import (
	"math"
	"testing"
)

// A check counts what the model holds back below its threshold: unanswerable samples
// (recall) and answerable ones (false abstention).
func TestCheckAnswerability(t *testing.T) {
	t.Parallel()
	m := Answerability{Weights: map[string]float64{SignalRelevance: 10}, Bias: -5, Threshold: 0.5}
	sample := func(rel float64, answerable bool) AnswerabilitySample {
		return AnswerabilitySample{Signals: map[string]float64{SignalRelevance: rel}, Answerable: answerable}
	}
	c := CheckAnswerability(m, []AnswerabilitySample{
		sample(0.9, true), sample(0.8, true), sample(0.7, true), sample(0.2, true),
		sample(0.1, false), sample(0.3, false), sample(0.6, false),
	})
	if c.Answerable != 4 || c.Unanswerable != 3 {
		t.Fatalf("counted %d answerable and %d unanswerable, want 4 and 3", c.Answerable, c.Unanswerable)
	}
	if math.Abs(c.Recall-2.0/3) > 1e-12 || c.FalseAbstention != 0.25 {
		t.Errorf("recall %v, false abstention %v: want 2/3 and 1/4", c.Recall, c.FalseAbstention)
	}
	if want := 10.0 / 12; math.Abs(c.AUROC-want) > 1e-12 {
		t.Errorf("AUROC %v, want %v", c.AUROC, want)
	}
}

// Each set weighs the same whatever its size: repeating a set's samples changes nothing,
// where a fit over the pooled samples would follow the larger set.
func TestFitAnswerabilitySetsWeighsSetsEqually(t *testing.T) {
	t.Parallel()
	sample := func(rel, cov float64, answerable bool) AnswerabilitySample {
		return AnswerabilitySample{Signals: map[string]float64{SignalRelevance: rel, SignalCoverage: cov}, Answerable: answerable}
	}
	// In one set relevance tells answerable from not, in the other coverage does.
	byRelevance := []AnswerabilitySample{sample(0.9, 0.5, true), sample(0.8, 0.2, true), sample(0.7, 0.9, true), sample(0.2, 0.6, false)}
	byCoverage := []AnswerabilitySample{sample(0.5, 0.9, true), sample(0.6, 0.8, true), sample(0.4, 0.7, true), sample(0.6, 0.1, false)}
	var repeated []AnswerabilitySample
	for range 10 {
		repeated = append(repeated, byRelevance...)
	}
	once, err := FitAnswerabilitySets([]AnswerabilitySet{{Name: "r", Samples: byRelevance}, {Name: "c", Samples: byCoverage}})
	if err != nil {
		t.Fatal(err)
	}
	tenfold, err := FitAnswerabilitySets([]AnswerabilitySet{{Name: "r", Samples: repeated}, {Name: "c", Samples: byCoverage}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{SignalRelevance, SignalCoverage} {
		if math.Abs(once.Weights[name]-tenfold.Weights[name]) > 1e-9 {
			t.Errorf("%s weight %v with the set once, %v with it ten times: want the same", name, once.Weights[name], tenfold.Weights[name])
		}
	}
	if math.Abs(once.Threshold-tenfold.Threshold) > 1e-9 {
		t.Errorf("threshold %v with the set once, %v with it ten times", once.Threshold, tenfold.Threshold)
	}
	pooled, err := FitAnswerabilitySets([]AnswerabilitySet{{Name: "pooled", Samples: append(append([]AnswerabilitySample{}, repeated...), byCoverage...)}})
	if err != nil {
		t.Fatal(err)
	}
	if pooled.Weights[SignalCoverage] >= tenfold.Weights[SignalCoverage] {
		t.Errorf("pooled fit weighs coverage %v, the set-weighted one %v: want the pooled one to follow the larger set",
			pooled.Weights[SignalCoverage], tenfold.Weights[SignalCoverage])
	}
}

// Cross-fitting checks each set on a model fitted without it: a set whose labels run
// against the others' reads badly out of sample, however well a fit on all of it would
// read it.
func TestCrossFitLeavesEachSetOut(t *testing.T) {
	t.Parallel()
	set := func(name string, flip bool) AnswerabilitySet {
		var s []AnswerabilitySample
		for i := range 20 {
			rel := float64(i) / 20
			s = append(s, AnswerabilitySample{Signals: map[string]float64{SignalRelevance: rel}, Answerable: (rel >= 0.5) != flip})
		}
		return AnswerabilitySet{Name: name, Samples: s}
	}
	folds, err := CrossFit([]AnswerabilitySet{set("a", false), set("b", false), set("c", false), set("flipped", true)})
	if err != nil {
		t.Fatal(err)
	}
	if len(folds) != 4 || folds[0].Held != "a" || folds[3].Held != "flipped" {
		t.Fatalf("folds %+v: want one per set, in order", folds)
	}
	if folds[0].Check.AUROC < 0.9 || folds[0].Model.Weights[SignalRelevance] <= 0 {
		t.Errorf("set a left out: AUROC %v, relevance weight %v; want a model that reads it well", folds[0].Check.AUROC, folds[0].Model.Weights[SignalRelevance])
	}
	if folds[3].Check.AUROC > 0.1 {
		t.Errorf("the flipped set left out: AUROC %v, want it read against its labels", folds[3].Check.AUROC)
	}
	if _, err := CrossFit([]AnswerabilitySet{set("a", false)}); err == nil {
		t.Error("cross-fit of one set: no error")
	}
}
