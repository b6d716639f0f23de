package workflows_test

import "encoding/json"

// jsonRoundTrip copies an update result into out the way a client would decode it.
func jsonRoundTrip(in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
