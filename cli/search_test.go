package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/internal/testenv"
)

// TestSearchCommand searches the sample corpus on real Postgres, as a QA lead would. Not
// parallel: it sets DATABASE_URL.
func TestSearchCommand(t *testing.T) {
	_, url := testenv.StoreURL(t)
	t.Setenv("DATABASE_URL", url)
	t.Setenv("SUPPORTDRAFT_EMBEDDER", "hashing")
	t.Setenv("SUPPORTDRAFT_EMBEDDING_DIMS", "256")

	t.Run("a question, as a table: the eligible version first, each arm's rank shown", func(t *testing.T) {
		out := mustRun(t, newSearchCmd(), "--query", "refund of an annual plan", "--plan", "pro", "--region", "eu", "--at", "2026-11-30")
		lines := strings.Split(out, "\n")
		var header, first string
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), "rank") && i+1 < len(lines) {
				header, first = l, lines[i+1]
			}
		}
		if got := strings.Fields(header); strings.Join(got, " ") != "rank score vec lex doc chunk" {
			t.Errorf("want a column per arm, got %q", got)
		}
		if !strings.Contains(first, "billing/refunds-annual@4#") {
			t.Errorf("the first hit must be the eligible refunds-annual@4:\n%s", out)
		}
		if f := strings.Fields(first); len(f) < 8 || f[6] != "1" {
			t.Errorf("the first hit's document must be the document arm's first:\n%s", out)
		}
		if strings.Contains(out, "refunds-annual@3#") || strings.Contains(out, "refunds-annual@5#") {
			t.Errorf("a superseded or draft version was listed:\n%s", out)
		}
	})

	t.Run("a multi-question ticket as JSON: one query per question, arm ranks and fused ranks", func(t *testing.T) {
		ticket := `{"ticket_id": "T-1", "revision": 1, "updated_at": "2026-11-29T09:13:00Z",
			"account": {"id": "A-1", "plan": "pro", "region": "eu", "locale": "en"}, "channel": "email", "subject": "Two questions",
			"messages": [{"author": "customer", "at": "2026-11-29T09:13:00Z",
			"body": "Can I get a refund on my annual plan? And what happens when my card payment fails?"}]}`
		path := filepath.Join(t.TempDir(), "ticket.json")
		if err := os.WriteFile(path, []byte(ticket), 0o600); err != nil {
			t.Fatal(err)
		}
		out := mustRun(t, newSearchCmd(), "--ticket", path, "--at", "2026-11-30", "-k", "8", "--json")
		var got searchOutput
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if len(got.Queries) != 3 {
			t.Errorf("want the whole ticket and each of its two questions, got %q", got.Queries)
		}
		if got.Account.Plan != "pro" || got.Account.Region != "eu" {
			t.Errorf("the account comes from the ticket: %+v", got.Account)
		}
		if len(got.Hits) == 0 || len(got.Hits) > 8 {
			t.Fatalf("want 1 to 8 hits, got %d", len(got.Hits))
		}
		docs := map[string]bool{}
		for i, h := range got.Hits {
			docs[h.DocID] = true
			if h.Rank != i+1 {
				t.Errorf("hit %d has fused rank %d", i, h.Rank)
			}
			if h.VectorRank == 0 && h.TextRank == 0 && h.DocRank == 0 {
				t.Errorf("%s was ranked by no arm", h.ChunkID)
			}
		}
		if !docs["billing/refunds-annual"] || !docs["billing/failed-payments"] {
			t.Errorf("each question must bring its own document, got %v", docs)
		}
	})

	t.Run("a region no policy names is noted, with the regions policies name", func(t *testing.T) {
		out := mustRun(t, newSearchCmd(), "--query", "refund of an annual plan", "--plan", "pro", "--region", "eu-west", "--at", "2026-11-30")
		assertPrints(t, out, `note: no published policy names region "eu-west" (they name `, "eu, ", "only policies for every region apply")
		if strings.Contains(out, "names plan") {
			t.Errorf("plan pro is named by the sample policies:\n%s", out)
		}
		var got searchOutput
		out = mustRun(t, newSearchCmd(), "--query", "refund", "--plan", "pro", "--region", "eu", "--at", "2026-11-30", "--json")
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if len(got.Notes) != 0 {
			t.Errorf("pro in the eu is named by the sample policies, got notes %q", got.Notes)
		}
	})

	t.Run("bad input is a usage error that says what to do", func(t *testing.T) {
		for _, args := range [][]string{{}, {"--query", "x"}, {"--query", "x", "--plan", "pro", "--region", "eu", "-k", "0"},
			{"--query", "x", "--plan", "pro", "--region", "eu", "--at", "yesterday"},
			{"--query", "x", "--plan", "Pro", "--region", "eu"}} {
			_, err, code := run(t, newSearchCmd(), args...)
			if code != 2 {
				t.Errorf("%q: want a usage error, got %v (exit %d)", args, err, code)
			}
		}
	})
}

// TestPolicyListNotesUnnamedRegion: policy list, asked for a region no sample policy names,
// says so before its table, where only the versions for every region are marked eligible.
// Not parallel: it sets DATABASE_URL.
func TestPolicyListNotesUnnamedRegion(t *testing.T) {
	_, url := testenv.StoreURL(t)
	t.Setenv("DATABASE_URL", url)
	out := mustRun(t, newPolicyListCmd(), "--plan", "pro", "--region", "eu-west")
	assertPrints(t, out, `note: no published policy names region "eu-west"`, "ELIGIBLE")
	if out = mustRun(t, newPolicyListCmd(), "--plan", "pro", "--region", "eu"); strings.Contains(out, "note:") {
		t.Errorf("pro in the eu is named by the sample policies:\n%s", out)
	}
	if _, err, code := run(t, newPolicyListCmd(), "--region", "EU"); code != 2 {
		t.Errorf("--region EU: want a usage error (names are lowercase), got %v (exit %d)", err, code)
	}
}
