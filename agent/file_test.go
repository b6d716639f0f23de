package agent

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A file round-trips through Marshal and Parse, and every mistake is refused naming its
// field: an unknown or misspelt key is an error, never ignored.
func TestParse(t *testing.T) {
	good := "id: payments\nname: Payments operations\naddresses: [payments@example.com]\nreview_delay: 15m\n" +
		"buckets:\n  - name: payouts\n    policy_words: payouts payout\n    cues: {\"payout\": 3, \"settlement\": 2}\n" +
		"  - name: not_billing\n    policy_words: ''\n    cues: {\"password\": 2}\n" +
		"rules: [{action: review, phrases: [lawyer]}]\nhelpdesk:\n  url: https://desk.example.com/drafts\n  secret_env: PAY_SECRET\n"
	a, err := Parse([]byte(good))
	if err != nil {
		t.Fatalf("a valid file: %v", err)
	}
	if a.ID != "payments" || a.ReviewDelay != "15m" || a.HelpDesk.SecretEnv != "PAY_SECRET" || a.Buckets.Names()[0] != "payouts" {
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
	// The agents table keeps the settings as JSON: the buckets' cues keep their order and
	// weights, and the rules stay rules.
	data, err := json.Marshal(a.Settings)
	if err != nil {
		t.Fatal(err)
	}
	var stored Settings
	if err := json.Unmarshal(data, &stored); err != nil {
		t.Fatalf("the stored settings must read back: %v\n%s", err, data)
	}
	if !reflect.DeepEqual(stored.Buckets, a.Buckets) || !reflect.DeepEqual(stored.Rules, a.Rules) {
		t.Fatalf("JSON changed the settings:\n%+v\n%+v", stored, a.Settings)
	}
	if _, err := json.Marshal(Settings{Buckets: a.Buckets}); err != nil || !strings.Contains(string(data), `[["payout",3],["settlement",2]]`) {
		t.Fatalf("cues are stored as ordered pairs: %s", data)
	}

	for _, c := range []struct{ file, field string }{
		{good + "review_dealy: 1m\n", "review_dealy"},
		{"id: Payments\nname: P\n", "id:"},
		{"id: payments\nname: ' '\n", "name:"},
		{"id: payments\nname: P\naddresses: [\"Pay <p@example.com>\"]\n", "addresses[0]"},
		{"id: payments\nname: P\nrules_file: r.yaml\nrules: [{action: block, from: ['*@x.example']}]\n", "rules_file and rules"},
		{"id: payments\nname: P\nbuckets: [{name: a, policy_words: a, cues: {x: 1}}, {name: a, policy_words: a, cues: {y: 1}}]\n", "buckets"},
		{"id: payments\nname: P\nbuckets: [{name: a, policy_words: a, cues: {x: 0}}]\n", "cue"},
		{"id: payments\nname: P\nrules: [{action: maybe, phrases: [x]}]\n", "rules: rule 1"},
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

// The sample payments agent's file names its rules file relative to itself; LoadFile
// reads the rules into the agent, so the agents table holds them and no worker needs the
// file.
func TestLoadFileReadsItsRulesFile(t *testing.T) {
	a, err := LoadFile(filepath.Join("..", "evals", "agents", "payments", "agent.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if a.RulesFile != "" || len(a.Rules) == 0 {
		t.Fatalf("the rules file is read into the rules: %q, %d rules", a.RulesFile, len(a.Rules))
	}
	rules, err := a.IntakeRules()
	if err != nil || rules == nil {
		t.Fatalf("the rules check: %v", err)
	}
	if names := a.Buckets.Names(); len(names) < 3 || names[0] == "refunds" {
		t.Fatalf("the agent's own buckets: %v", names)
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Fatalf("a missing file is named: %v", err)
	}
}
