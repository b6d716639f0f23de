package evals

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/supportdraft/supportdraft/calibration"
	"github.com/supportdraft/supportdraft/llm/local"
)

// CalibrationSamples reads an eval JSON report (supportdraft eval --json) and returns the
// system arm's drafts as calibration samples (raw confidence, grounded or not) and the
// ticket set the report replayed. Failed drafts have no confidence and are left out.
func CalibrationSamples(path string) ([]calibration.Sample, string, error) {
	return samples(path, "drafts with a label", func(c Case) (calibration.Sample, bool) {
		return calibration.Sample{Raw: c.RawConfidence, Grounded: c.Label == LabelGrounded}, !c.Failed()
	})
}

// AnswerabilitySamples reads an eval JSON report and returns, for each labelled ticket
// the writer answered (the drafts the answerability model decides on: the drafter's
// other rules already abstained on the rest), its signals and the label's answerability,
// with the ticket set the report replayed: what `supportdraft calibrate --answerability`
// fits the answerability model on.
func AnswerabilitySamples(path string) ([]local.AnswerabilitySample, string, error) {
	return samples(path, "labelled drafts with signals", func(c Case) (local.AnswerabilitySample, bool) {
		if c.Answerable == nil || len(c.Signals) == 0 || c.Label == LabelAbstained || c.Failed() {
			return local.AnswerabilitySample{}, false
		}
		return local.AnswerabilitySample{Signals: c.Signals, Answerable: *c.Answerable}, true
	})
}

// casesReport is the part of an eval JSON report the fits read.
type casesReport struct {
	Cases []Case `json:"cases"`
	Run   struct {
		Tickets string `json:"tickets"`
	} `json:"run"`
}

// samples reads the eval report at path and returns the sample of each case sample keeps,
// with the ticket set the report replayed; a report where it keeps none is an error that
// names what was looked for.
func samples[S any](path, what string, sample func(Case) (S, bool)) ([]S, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("eval report %s: %w", path, err)
	}
	var rep casesReport
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, "", fmt.Errorf("eval report %s: %w", path, err)
	}
	var out []S
	for _, c := range rep.Cases {
		if s, ok := sample(c); ok {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, "", fmt.Errorf("eval report %s: no %s under cases", path, what)
	}
	return out, rep.Run.Tickets, nil
}
