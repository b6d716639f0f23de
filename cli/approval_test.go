package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// versionFile writes one approved version file for pro/eu refunds and returns its path.
func versionFile(t *testing.T, dir, docID string, version int, source, body string) string {
	t.Helper()
	path := filepath.Join(dir, strings.ReplaceAll(docID, "/", "-")+".md")
	front := "---\ndoc_id: " + docID + "\nversion: " + string(rune('0'+version)) + "\nstatus: approved\nsource: " + source +
		"\ntitle: Refunds\narea: refunds\neffective_from: 2026-01-01T00:00:00Z\napproved_at: 2025-12-20T10:00:00Z\n" +
		"plans: [pro]\nregions: [eu]\nlocale: en\nowner: billing-ops\n---\n# Refunds\n\n## Window\n" + body + "\n"
	if err := os.WriteFile(path, []byte(front), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A version contradicting an approved one for the same accounts is refused with both
// sides named; an accepted contradiction is recorded and listed; --supersedes retires the
// other document in the same transaction; lint reads the store. Not parallel: it sets
// DATABASE_URL.
func TestApprovalRefusesContradictions(t *testing.T) {
	s := scratchDB(t)
	dir := t.TempDir()
	ctx := context.Background()
	wiki := versionFile(t, dir, "billing/refunds-annual", 1, "wiki", "Annual plans can be refunded within 21 days of purchase.")
	if _, err, code := run(t, newPolicyCmd(), "approve", wiki); err != nil {
		t.Fatalf("first approval: exit %d: %v", code, err)
	}

	help := versionFile(t, dir, "helpcenter/refunds", 1, "helpcenter", "Annual plans can be refunded within 30 days of purchase.")
	cmd := newPolicyCmd()
	_, err, code := run(t, cmd, "approve", help)
	if err == nil || code != 1 || !strings.Contains(err.Error(), "1 contradiction") {
		t.Fatalf("a contradicting approval must be refused: exit %d, %v", code, err)
	}
	stderr := cmd.ErrOrStderr().(interface{ String() string }).String()
	assertPrints(t, stderr, "helpcenter/refunds@1#window", "billing/refunds-annual@1#window", "30 days", "21 days")
	var n int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM versions WHERE doc_id = 'helpcenter/refunds'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("nothing may be imported: %d rows, %v", n, err)
	}

	for _, bad := range [][]string{{"--accept-contradiction", "  "}, {"--supersedes", "Not A Doc"}} {
		_, err, code := run(t, newPolicyCmd(), append([]string{"approve"}, append(bad, help)...)...)
		if code != 2 || err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("%v: want a usage error naming the flag, got exit %d: %v", bad, code, err)
		}
	}

	reason := "legal approved both until the help center article is rewritten"
	if _, err, code := run(t, newPolicyCmd(), "approve", "--accept-contradiction", reason, help); err != nil {
		t.Fatalf("accepted approval: exit %d: %v", code, err)
	}
	out, err, _ := run(t, newPolicyCmd(), "contradictions")
	if err != nil || !strings.Contains(out, reason) || !strings.Contains(out, "helpcenter/refunds@1#window 30 days vs billing/refunds-annual@1#window 21 days") {
		t.Fatalf("policy contradictions must list the accepted one: %v\n%s", err, out)
	}
	out, err, code = run(t, newPolicyCmd(), "lint")
	if code != 1 || !strings.Contains(err.Error(), "the policy store") || !strings.Contains(out, "disagree on refund (days)") {
		t.Fatalf("lint without DIR reads the store: exit %d, %v\n%s", code, err, out)
	}

	macro := versionFile(t, dir, "macros/refunds", 1, "macro", "Annual plans can be refunded within 45 days of purchase.")
	later, _ := os.ReadFile(macro)
	if err := os.WriteFile(macro, []byte(strings.Replace(string(later), "effective_from: 2026-01-01", "effective_from: 2026-06-01", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err, code := run(t, newPolicyCmd(), "approve", "--supersedes", "billing/refunds-annual", "--supersedes", "helpcenter/refunds", macro); err != nil {
		t.Fatalf("superseding approval: exit %d: %v", code, err)
	}
	var open int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM versions WHERE doc_id IN ('billing/refunds-annual', 'helpcenter/refunds')
		AND status = 'superseded' AND effective_to IS NOT NULL`).Scan(&open); err != nil || open != 2 {
		t.Fatalf("both superseded documents are retired: %d, %v", open, err)
	}
	if _, err, code := run(t, newPolicyCmd(), "lint"); err != nil {
		t.Fatalf("nothing contradicts after the supersession: exit %d, %v", code, err)
	}
}
