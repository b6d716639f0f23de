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
	rep, err := readCases(path)
	if err != nil {
		return nil, "", err
	}
	var out []calibration.Sample
	for _, c := range rep.Cases {
		if c.Failed() {
			continue
		}
		out = append(out, calibration.Sample{Raw: c.RawConfidence, Grounded: c.Label == LabelGrounded})
	}
	if len(out) == 0 {
		return nil, "", fmt.Errorf("eval report %s: no drafts with a label under cases", path)
	}
	return out, rep.Run.Tickets, nil
}

// AnswerabilitySamples reads an eval JSON report and returns, for each labelled ticket
// the writer answered (the drafts the answerability model decides on: the drafter's
// other rules already abstained on the rest), its signals and the label's answerability,
// with the ticket set the report replayed: what `supportdraft calibrate --answerability`
// fits the answerability model on.
func AnswerabilitySamples(path string) ([]local.AnswerabilitySample, string, error) {
	rep, err := readCases(path)
	if err != nil {
		return nil, "", err
	}
	var out []local.AnswerabilitySample
	for _, c := range rep.Cases {
		if c.Answerable == nil || len(c.Signals) == 0 || c.Label == LabelAbstained || c.Failed() {
			continue
		}
		out = append(out, local.AnswerabilitySample{Signals: c.Signals, Answerable: *c.Answerable})
	}
	if len(out) == 0 {
		return nil, "", fmt.Errorf("eval report %s: no labelled drafts with signals under cases", path)
	}
	return out, rep.Run.Tickets, nil
}

// casesReport is the part of an eval JSON report the fits read.
type casesReport struct {
	Cases []Case `json:"cases"`
	Run   struct {
		Tickets string `json:"tickets"`
	} `json:"run"`
}

func readCases(path string) (*casesReport, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("eval report %s: %w", path, err)
	}
	var rep casesReport
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("eval report %s: %w", path, err)
	}
	return &rep, nil
}
