package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/embedding"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/ticket"
)

// emb is the embedder the store tests import with; its name is what Eligible filters on.
var emb = embedding.NewHashing(256)

// proEU is the account most store tests ask as: a Pro customer in the EU, in English.
var proEU = policy.Account{Plan: "pro", Region: "eu", Locale: "en"}

// query asks text as a draft does, embedded with emb: for proEU at at, k deep.
func query(t testing.TB, text string, at time.Time, k int) store.Query {
	t.Helper()
	vec, err := emb.Embed(context.Background(), []string{text})
	require.NoError(t, err)
	return store.Query{At: at, Account: proEU, Text: text, Vector: vec[0], Embedder: emb.Name(), K: k}
}

// file describes one policy file in the corpus format. Empty fields are left out of the
// front matter, so a test states only what its case is about.
type file struct {
	doc      string
	version  int
	status   string // default approved
	from     string // effective_from
	to       string // effective_to
	approved string // approved_at
	plans    string // YAML flow list, default ["*"]
	regions  string // YAML flow list, default ["*"]
	locale   string
	title    string // default: the doc and version
	body     string // default: two sections naming the doc and version
}

// markdown renders f as a policy file: front matter, then a Markdown body.
func (f file) markdown() string {
	status := f.status
	if status == "" {
		status = "approved"
	}
	plans, regions := f.plans, f.regions
	if plans == "" {
		plans = `["*"]`
	}
	if regions == "" {
		regions = `["*"]`
	}
	title := f.title
	if title == "" {
		title = fmt.Sprintf("%s v%d", f.doc, f.version)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "---\ndoc_id: %s\nversion: %d\nstatus: %s\nsource: wiki\ntitle: %s\narea: refunds\n",
		f.doc, f.version, status, title)
	for _, kv := range [][2]string{{"effective_from", f.from}, {"effective_to", f.to}, {"approved_at", f.approved}, {"locale", f.locale}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, "%s: %s\n", kv[0], kv[1])
		}
	}
	fmt.Fprintf(&b, "plans: %s\nregions: %s\nowner: billing-ops\n---\n", plans, regions)
	body := f.body
	if body == "" {
		body = fmt.Sprintf("## Refund window\n\nVersion %d of %s: annual plans are refunded within %d days.\n\n"+
			"## How to ask\n\nWrite to billing support with the invoice number.\n", f.version, f.doc, 7*f.version)
	}
	b.WriteString(body)
	return b.String()
}

// parse builds the version the way an import does: policy.Parse on the file's bytes.
func (f file) parse(t testing.TB) *policy.Version {
	t.Helper()
	path := fmt.Sprintf("%s/v%d.md", f.doc, f.version)
	v, err := policy.Parse(path, []byte(f.markdown()))
	require.NoError(t, err, "fixture %s must parse", path)
	return v
}

func parseAll(t testing.TB, files ...file) []*policy.Version {
	t.Helper()
	out := make([]*policy.Version, len(files))
	for i, f := range files {
		out[i] = f.parse(t)
	}
	return out
}

func mustImport(t testing.TB, s *store.Store, files ...file) *store.ImportResult {
	t.Helper()
	res, err := s.Import(context.Background(), parseAll(t, files...), emb)
	require.NoError(t, err)
	return res
}

// readyDraft is the first iteration of a ready draft for revision 1 of ticketID, for a pro
// account in the EU, made at `at`: the draft row most store tests start from.
func readyDraft(ticketID, reply string, at time.Time) *drafts.Saved {
	return &drafts.Saved{TicketID: ticketID, Iteration: 1, Revision: 1, Status: drafts.StatusReady, EligibleAt: at,
		Account: proEU, Reply: reply, CreatedAt: at}
}

// saveProThenBusiness saves two revisions of ticketID at `at`: the first from a Pro
// customer in the EU, the second after that customer moved to Business.
func saveProThenBusiness(t testing.TB, s *store.Store, ticketID string, at time.Time) {
	t.Helper()
	for rev, plan := range []string{"pro", "business"} {
		require.NoError(t, s.SaveTicket(context.Background(), &ticket.Ticket{TicketID: ticketID, Revision: rev + 1, UpdatedAt: at, Channel: "email",
			Subject: "Refund", Account: ticket.Account{ID: "A-1", Plan: plan, Region: "eu", Locale: "en"},
			Messages: []ticket.Message{{Author: "customer", At: at, Body: "Can I get a refund?"}}}))
	}
}

// ts parses an RFC 3339 instant for test tables.
func ts(t testing.TB, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err)
	return at
}

// counts returns the number of rows in each policy table: what an all-or-nothing import
// must leave exactly as it found it when it fails.
func counts(t testing.TB, s *store.Store) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"documents", "versions", "chunks", "approvals"} {
		var n int
		require.NoError(t, s.Pool().QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n))
		out[table] = n
	}
	return out
}

// storedVersion is a version's row as the store holds it now, after any supersession.
type storedVersion struct {
	Status      string
	From, To    *time.Time
	ApprovedAt  *time.Time
	ContentHash string
	Body        string
	Xmin        string
}

func stored(t testing.TB, s *store.Store, doc string, version int) storedVersion {
	t.Helper()
	var r storedVersion
	err := s.Pool().QueryRow(context.Background(), `
		SELECT status, effective_from, effective_to, approved_at, content_hash, body, xmin::text
		FROM versions WHERE doc_id = $1 AND version = $2`, doc, version).
		Scan(&r.Status, &r.From, &r.To, &r.ApprovedAt, &r.ContentHash, &r.Body, &r.Xmin)
	require.NoError(t, err, "%s@%d must be stored", doc, version)
	return r
}

// overlappingPairs lists every pair of non-draft versions of one document whose eligible
// windows overlap: the state the schema promises can never exist.
func overlappingPairs(t testing.TB, s *store.Store) []string {
	t.Helper()
	return testdb.Column[string](t, context.Background(), s.Pool(), `
		SELECT a.doc_id || '@' || a.version || ' and @' || b.version
		FROM versions a JOIN versions b ON a.doc_id = b.doc_id AND a.version < b.version
		WHERE a.status <> 'draft' AND b.status <> 'draft' AND a.eligible_window && b.eligible_window`)
}

// currentVersions is the version numbers of doc among the versions eligible at `at` for
// plan and region: one at most (the schema allows no more).
func currentVersions(t testing.TB, s *store.Store, doc string, at time.Time, plan, region string) []int {
	t.Helper()
	eligible, err := s.EligibleVersions(context.Background(), at, plan, region)
	require.NoError(t, err)
	var out []int
	for _, v := range eligible {
		if v.DocID == doc {
			out = append(out, v.Version)
		}
	}
	return out
}

// twoDocuments is a scratch store holding documents a and b at version 1 and a at version
// 2: two versions of one document beside another, what the term statistics' tests count.
func twoDocuments(t *testing.T) *store.Store {
	t.Helper()
	s, _ := testdb.New(t)
	mustImport(t, s, file{doc: "a", version: 1, from: "2025-01-01T00:00:00Z"}, file{doc: "b", version: 1, from: "2025-01-01T00:00:00Z"})
	mustImport(t, s, file{doc: "a", version: 2, from: "2026-01-01T00:00:00Z"})
	return s
}
