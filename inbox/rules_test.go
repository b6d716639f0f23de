package inbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseRulesRefusesMalformedFilesWithTheLine(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, yaml, want string }{
		{"unknown action", "rules:\n  - action: block\n    from: [\"*@a.example\"]\n  - action: deny\n    phrases: [x]\n", `line 4: rule 2: "action" is "deny"`},
		{"missing action", "rules:\n  - from: [\"*@a.example\"]\n", `line 2: rule 1: "action" is required`},
		{"never matches", "rules:\n  - action: review\n", `line 2: rule 1: needs "from" globs or "phrases"`},
		{"bad glob", "rules:\n  - action: block\n    from: [\"[a-@x.example\"]\n", `line 2: rule 1: "from" glob "[a-@x.example"`},
		{"unknown key", "rules:\n  - action: block\n    senders: [\"*@a.example\"]\n", "[3:5] unknown field \"senders\""},
		{"not a list", "rules: block\n", "[1:8]"},
		{"broken YAML", "rules:\n  - action: [block\n", "[2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseRules([]byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestLoadRulesNamesTheFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rules.yaml")
	if err := os.WriteFile(path, []byte("rules:\n  - action: nope\n    phrases: [x]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadRules(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("error %v should name %s and line 2", err, path)
	}
	if r, err := LoadRules(""); err != nil || len(r.Rules) != 0 {
		t.Fatalf("no file means no rules, got %v, %v", r, err)
	}
}

func TestRulesFirstMatchWins(t *testing.T) {
	t.Parallel()
	rules, err := ParseRules([]byte(`rules:
  - action: allow
    from: ["ceo@vip.example"]
  - action: block
    from: ["*@Spam.example", "sales-*@*.vendor.example"]
  - action: review
    phrases: ["Chargeback", "lawyer"]
`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ from, subject, body, want string }{
		{"x@spam.example", "hello", "hi", ActionBlock},
		{"X@SPAM.example", "hello", "hi", ActionBlock},
		{"sales-eu@mail.vendor.example", "deal", "hi", ActionBlock},
		{"ana@customer.example", "Dispute", "this is a CHARGEBACK", ActionReview},
		{"ana@customer.example", "My   lawyer", "x", ActionReview},
		{"ceo@vip.example", "chargeback", "lawyer", ActionAllow},
		{"ana@customer.example", "Refund", "please", ""},
	}
	for _, tc := range cases {
		r, why := rules.Match(&Message{From: Address{Email: tc.from}, Subject: tc.subject, Body: tc.body})
		got := ""
		if r != nil {
			got = r.Action
			if !strings.Contains(why, "line ") {
				t.Errorf("%s: reason %q should name the rule's line", tc.from, why)
			}
		}
		if got != tc.want {
			t.Errorf("%s %q: rule %q, want %q", tc.from, tc.subject, got, tc.want)
		}
	}
}

func TestFilters(t *testing.T) {
	t.Parallel()
	rules, err := ParseRules([]byte("rules:\n  - action: allow\n    from: [\"noreply@relay.example\"]\n  - action: block\n    from: [\"*@vendor.example\"]\n  - action: review\n    phrases: [lawyer]\n"))
	if err != nil {
		t.Fatal(err)
	}
	ooo := map[string]string{"Auto-Submitted": "auto-replied"}
	cases := []struct {
		name, from, body string
		headers          map[string]string
		outcome, stage   string
	}{
		{"blocked vendor", "sales@vendor.example", "demo?", nil, OutcomeSkip, StageRulesBlock},
		{"automated", "ana@customer.example", "away", ooo, OutcomeSkip, StageAutomated},
		{"review rule", "ana@customer.example", "my lawyer says", nil, OutcomeReview, StageRules},
		{"an automated mail mentioning a lawyer is still automated", "ana@customer.example", "lawyer", ooo, OutcomeSkip, StageAutomated},
		{"allow exempts from the automated check", "noreply@relay.example", "a customer asks", nil, OutcomePass, ""},
		{"plain mail", "ana@customer.example", "refund?", nil, OutcomePass, ""},
	}
	for _, tc := range cases {
		r := Filters(&Message{From: Address{Email: tc.from}, Subject: "x", Body: tc.body, Headers: tc.headers}, rules)
		if r.Outcome != tc.outcome || r.Stage != tc.stage {
			t.Errorf("%s: got %s/%s (%s), want %s/%s", tc.name, r.Outcome, r.Stage, r.Reason, tc.outcome, tc.stage)
		}
	}
}
