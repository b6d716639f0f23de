package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/agent"
)

// `agent create --file` stores the file's agent, `show` prints it back in the same format,
// `update --file` replaces it and `list` names every agent, billing first. Mistakes are
// usage errors that name the file and field: an unknown key, an ID that is not the
// command's, a rule the intake would refuse. Not parallel: it sets DATABASE_URL.
func TestAgentCommands(t *testing.T) {
	scratchDB(t)
	file := filepath.Join("testdata", "agents", "payments.yaml")

	if out, err, code := run(t, newAgentCmd(), "create", "payments", "--file", file); code != 0 {
		t.Fatalf("agent create: exit %d: %v\n%s", code, err, out)
	}
	if _, err, code := run(t, newAgentCmd(), "create", "payments", "--name", "Again"); code != 2 || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("creating an agent twice: exit %d, %v", code, err)
	}
	shown, err, code := run(t, newAgentCmd(), "show", "payments")
	if code != 0 {
		t.Fatalf("agent show: exit %d: %v", code, err)
	}
	want, err := agent.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got, err := agent.Parse([]byte(shown))
	if err != nil {
		t.Fatalf("show prints a file Parse reads: %v\n%s", err, shown)
	}
	if got.Name != want.Name || strings.Join(got.Addresses, ",") != strings.Join(want.Addresses, ",") || len(got.Rules) != 2 ||
		len(got.Buckets) != 2 || got.ReviewThreshold != 0.85 || got.HelpDesk.SecretEnv != "PAYMENTS_HELPDESK_SECRET" || got.Slack.Channel != "C0PAYMENTS" {
		t.Fatalf("show printed another agent than the file:\n%s", shown)
	}

	edited := filepath.Join(t.TempDir(), "payments.yaml")
	writeFixture(t, edited, strings.Replace(shown, "name: Payments operations", "name: Payments and payouts", 1))
	if _, err, code := run(t, newAgentCmd(), "update", "payments", "--file", edited); code != 0 {
		t.Fatalf("agent update: exit %d: %v", code, err)
	}
	list, _, code := run(t, newAgentCmd(), "list")
	if code != 0 || !strings.Contains(list, "billing") || !strings.Contains(list, "Payments and payouts") ||
		strings.Index(list, "billing") > strings.Index(list, "payments") {
		t.Fatalf("agent list: exit %d:\n%s", code, list)
	}

	for _, c := range []struct{ name, body, args, want string }{
		{"unknown key", "id: payments\nname: P\nreview_dealy: 1m\n", "update payments", "review_dealy"},
		{"another ID", "id: billing\nname: P\n", "update payments", `"billing"`},
		{"a rule the intake refuses", "id: payments\nname: P\nrules: [{action: shout, phrases: [x]}]\n", "update payments", "rules:"},
		{"no such agent", "id: refunds\nname: R\n", "update refunds", "does not exist"},
	} {
		bad := filepath.Join(t.TempDir(), "bad.yaml")
		writeFixture(t, bad, c.body)
		_, err, code := run(t, newAgentCmd(), append(strings.Fields(c.args), "--file", bad)...)
		if code != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want a usage error naming %s, got exit %d: %v", c.name, c.want, code, err)
		}
	}
}

// `policy import --agent ID` adds the versions to that agent's corpus only; an agent that
// does not exist is a usage error and nothing is imported. Not parallel: it sets
// DATABASE_URL.
func TestPolicyImportForOneAgent(t *testing.T) {
	s := scratchDB(t)
	dir := t.TempDir()
	writeFixture(t, filepath.Join(dir, "payouts", "v1.md"), `---
doc_id: payouts
version: 1
status: approved
source: wiki
title: Payout schedule
area: payouts
effective_from: 2026-01-01T00:00:00Z
approved_at: 2026-01-01T00:00:00Z
plans: ["*"]
regions: ["*"]
owner: payments-ops
---
## When payouts arrive

Payouts reach the bank account two business days after the charge settles.
`)
	if _, err, code := run(t, newPolicyCmd(), "import", "--agent", "payments", dir); code != 2 || !strings.Contains(err.Error(), "no such agent") {
		t.Fatalf("import for a missing agent: exit %d, %v", code, err)
	}
	if _, err, code := run(t, newAgentCmd(), "create", "payments", "--name", "Payments operations"); code != 0 {
		t.Fatalf("agent create: exit %d: %v", code, err)
	}
	if out, err, code := run(t, newPolicyCmd(), "import", "--agent", "payments", dir); code != 0 {
		t.Fatalf("policy import --agent payments: exit %d: %v\n%s", code, err, out)
	}
	ctx := context.Background()
	for _, c := range []struct {
		agent string
		want  int
	}{{"payments", 1}, {"billing", 0}} {
		var n int
		if err := s.DB().QueryRow(agent.With(ctx, c.agent), `SELECT count(*) FROM versions WHERE doc_id = 'payouts'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != c.want {
			t.Errorf("%s sees %d versions of payouts, want %d", c.agent, n, c.want)
		}
	}
}

func writeFixture(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
