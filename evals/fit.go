package evals

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/supportdraft/supportdraft/calibration"
)

// CalibrationSamples reads an eval JSON report (supportdraft eval --json) and returns the
// system arm's drafts as calibration samples (raw confidence, grounded or not) and the
// ticket set the report replayed. Failed drafts have no confidence and are left out.
func CalibrationSamples(path string) ([]calibration.Sample, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("eval report %s: %w", path, err)
	}
	var rep struct {
		Cases []Case `json:"cases"`
		Run   struct {
			Tickets string `json:"tickets"`
		} `json:"run"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, "", fmt.Errorf("eval report %s: %w", path, err)
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
