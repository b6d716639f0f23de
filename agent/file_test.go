package agent

import (
	"strings"
	"testing"
)

// A file round-trips through Marshal and Parse, and every mistake is refused naming its
// field: an unknown or misspelt key is an error, never ignored.
func TestParse(t *testing.T) {
	good := "id: payments\nname: Payments operations\naddresses: [payments@example.com]\nreview_delay: 15m\n" +
		"buckets:\n  - name: payouts\n    phrases: [payout]\nhelpdesk:\n  url: https://desk.example.com/drafts\n  secret_env: PAY_SECRET\n"
	a, err := Parse([]byte(good))
	if err != nil {
		t.Fatalf("a valid file: %v", err)
	}
	if a.ID != "payments" || a.ReviewDelay != "15m" || a.HelpDesk.SecretEnv != "PAY_SECRET" || a.Buckets[0].Phrases[0] != "payout" {
		t.Fatalf("fields read: %+v", a)
	}
	out, err := a.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(out)
	if err != nil {
		t.Fatalf("Marshal's output must parse: %v\n%s", err, out)
	}
	if again.Name != a.Name || again.HelpDesk.URL != a.HelpDesk.URL || len(again.Addresses) != 1 {
		t.Fatalf("round trip changed the agent: %+v", again)
	}

	for _, c := range []struct{ file, field string }{
		{good + "review_dealy: 1m\n", "review_dealy"},
		{"id: Payments\nname: P\n", "id:"},
		{"id: payments\nname: ' '\n", "name:"},
		{"id: payments\nname: P\naddresses: [\"Pay <p@example.com>\"]\n", "addresses[0]"},
		{"id: payments\nname: P\nrules_file: r.yaml\nrules: [{action: block, from: ['*@x.example']}]\n", "rules_file and rules"},
		{"id: payments\nname: P\nbuckets: [{name: a, phrases: [x]}, {name: a, phrases: [y]}]\n", "buckets[1].name"},
		{"id: payments\nname: P\nreview_delay: soon\n", "review_delay"},
		{"id: payments\nname: P\nreview_threshold: 1.5\n", "review_threshold"},
		{"id: payments\nname: P\nhelpdesk: {url: desk.example.com}\n", "helpdesk.url"},
		{"id: payments\nname: P\nhelpdesk: {url: 'https://d.example', secret_env: ''}\n", "helpdesk.secret_env"},
		{"id: payments\nname: P\nslack: {channel: ''}\n", "slack.channel"},
		{"id: payments\nname: P\nslack: {channel: C1, token: xoxb}\n", "token"},
	} {
		_, err := Parse([]byte(c.file))
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%q: want an error naming %s, got %v", c.file, c.field, err)
		}
	}
}
