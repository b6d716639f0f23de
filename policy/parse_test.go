package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const knownFieldList = "doc_id, version, status, source, title, area, effective_from, effective_to, approved_at, plans, regions, locale, owner, fixed, audience, sections"

func TestParseRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		want []string // every message, in order; each line is one problem
	}{
		{"approved-no-effective-from.md", []string{
			`: field "effective_from" is required for an approved version: add an RFC 3339 time such as 2026-03-01T00:00:00Z`}},
		{"approved-no-plans.md", []string{
			`: field "plans" is required for an approved version: add a list of plans such as [pro, business], or ["*"] for every plan`}},
		{"superseded-no-regions.md", []string{
			`:10: field "regions" is required for a superseded version: add a list of regions such as [eu, uk], or ["*"] for every region`}},
		{"malformed-yaml.md", []string{
			`:9: has front matter that is not valid YAML (',' or ']' must be specified): fix the YAML between the two "---" lines`}},
		{"unquoted-wildcard.md", []string{
			`:8: has front matter that is not valid YAML (unexpected scalar value type): write the wildcard in quotes, as ["*"]: a bare * starts a YAML alias`}},
		{"yaml-tag.md", []string{ // go-yaml panics on this one; Parse must not
			`: has front matter that is not valid YAML: the YAML library failed on it (runtime error: invalid memory address or nil pointer dereference): fix the YAML between the two "---" lines; YAML tags such as !x are not part of the format`}},
		{"bad-date.md", []string{
			`:7: field "effective_from" has "2026-13-01", which is not a time: use an RFC 3339 time such as 2026-03-01T00:00:00Z, or a date such as 2026-03-01`}},
		{"effective-to-before-from.md", []string{
			`:8: field "effective_to" (2025-06-01T00:00:00Z) must be after effective_from (2026-03-01T00:00:00Z): set an end after the start, or remove effective_to to leave the version open-ended`}},
		{"approved-after-window.md", []string{
			`:9: field "approved_at" (2026-04-01T00:00:00Z) must be before effective_to (2026-03-01T00:00:00Z): correct the approval time, or move effective_to after it`}},
		{"unknown-field.md", []string{
			`:7: unknown field "efective_from": remove it or correct its name; the fields are ` + knownFieldList,
			`:10: unknown field "audiance": remove it or correct its name; the fields are ` + knownFieldList}},
		{"bad-status.md", []string{
			`:4: field "status" has "published": use one of draft, approved or superseded`}},
		{"bad-version.md", []string{
			`:3: field "version" has 4.5, which is not a whole number: use a whole number of 1 or more, such as 4`}},
		{"missing-required.md", []string{
			`:2: field "version" has 0: use a whole number of 1 or more, such as 4`,
			`:4: field "title" is required: add a title such as "Refunds on annual plans"`,
			`: field "doc_id" is required: add a lowercase slug path such as billing/refunds-annual (letters, digits, '/', '_' and '-')`,
			`: field "area" is required: add a policy area such as refunds`}},
		{"bad-doc-id.md", []string{
			`:2: field "doc_id" has "Billing/Refunds Annual", which is not a slug path: use a lowercase slug path such as billing/refunds-annual (letters, digits, '/', '_' and '-')`}},
		{"bad-source-locale-scope.md", []string{
			`:5: field "source" has "email": use one of wiki, helpcenter or macro`,
			`:10: field "regions" has "EU": use lowercase names: a list of regions such as [eu, uk], or ["*"] for every region`,
			`:11: field "locale" has "German": use a language code such as en or de`}},
		{"wrong-kind.md", []string{
			`:8: field "plans" has a value of the wrong kind: use a list of plans such as [pro, business], or ["*"] for every plan`}},
		{"no-front-matter.md", []string{
			`:1: does not start with YAML front matter: put a "---" line first, then the fields (doc_id, version, status, title, area, ...), then another "---" line`}},
		{"unclosed-front-matter.md", []string{
			`:1: has front matter that is never closed: add a "---" line after the last field, before the Markdown body`}},
		{"empty-body.md", []string{
			`: has no policy text after the front matter: write the policy as Markdown below the closing "---" line`}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join("testdata", "parse", tt.file)
			data, err := os.ReadFile(path)
			require.NoError(t, err)

			v, err := Parse(path, data)
			require.Error(t, err)
			assert.Nil(t, v)
			var want []string
			for _, msg := range tt.want {
				want = append(want, path+msg)
			}
			assert.Equal(t, want, strings.Split(err.Error(), "\n"))
			var perr *ParseError
			assert.True(t, errors.As(err, &perr), "callers can inspect a *ParseError")
		})
	}
}

func TestParseDefaults(t *testing.T) {
	t.Parallel()
	march := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

	t.Run("locale, source and approved_at default; a bare date is midnight UTC", func(t *testing.T) {
		v := parseFixture(t, "parse/defaults.md")
		data, err := os.ReadFile("testdata/parse/defaults.md")
		require.NoError(t, err)
		sum := sha256.Sum256(data)

		assert.Equal(t, "billing/refunds-annual@4", v.Ref())
		assert.Equal(t, "billing/refunds-annual", DocOf(v.Ref()))
		assert.Equal(t, "billing/refunds-annual", DocOf("billing/refunds-annual"), "a reference without a version is its doc_id")
		assert.Equal(t, StatusApproved, v.Status)
		assert.Equal(t, "en", v.Locale)
		assert.Equal(t, SourceWiki, v.Source)
		assert.Equal(t, march, *v.EffectiveFrom)
		require.NotNil(t, v.ApprovedAt, "approved_at is stored filled in")
		assert.Equal(t, march, *v.ApprovedAt)
		assert.NotSame(t, v.EffectiveFrom, v.ApprovedAt, "changing one must not change the other")
		assert.Nil(t, v.EffectiveTo)
		assert.Equal(t, []string{"*"}, v.Regions)
		assert.Equal(t, "testdata/parse/defaults.md", v.Path)
		assert.Equal(t, hex.EncodeToString(sum[:]), v.ContentHash)
		assert.Equal(t, "## Refund window\n\nAnnual plans can be refunded in full within 14 days of purchase.\n", v.Body)
		assert.Equal(t, []Chunk{{
			ID: "billing/refunds-annual@4#refund-window", Anchor: "refund-window", Heading: "Refund window", Ord: 0,
			Text: "Refund window\nAnnual plans can be refunded in full within 14 days of purchase.", Audience: AudienceCustomers,
		}}, v.Chunks, "no fixed or audience: quotable, not fixed")
	})
	t.Run("every field as written, offsets normalised to UTC", func(t *testing.T) {
		v := parseFixture(t, "parse/full.md")
		assert.Equal(t, StatusSuperseded, v.Status)
		assert.Equal(t, SourceHelpCenter, v.Source)
		assert.Equal(t, "Rückerstattung bei Jahresabonnements", v.Title)
		assert.Equal(t, "refunds", v.Area)
		assert.Equal(t, march, *v.EffectiveFrom)
		assert.Equal(t, time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), *v.EffectiveTo)
		assert.Equal(t, time.Date(2026, 2, 20, 11, 40, 0, 0, time.UTC), *v.ApprovedAt)
		assert.Equal(t, []string{"pro", "business"}, v.Plans)
		assert.Equal(t, []string{"eu"}, v.Regions)
		assert.Equal(t, "de", v.Locale)
		assert.Equal(t, "billing-ops", v.Owner)
		assert.Equal(t, "billing/refunds-annual-de@2#rückerstattung", v.Chunks[0].ID)
	})
	t.Run("a draft needs no window or scope, and gets no approved_at", func(t *testing.T) {
		v := parseFixture(t, "parse/draft-crlf.md")
		assert.Equal(t, StatusDraft, v.Status)
		assert.Nil(t, v.EffectiveFrom)
		assert.Nil(t, v.ApprovedAt)
		assert.Equal(t, []string{}, v.Plans, "empty, not nil: the store's array columns are NOT NULL")
		assert.Equal(t, []string{}, v.Regions)
		assert.Equal(t, "Monthly charges\nMonthly charges are not refunded.", v.Chunks[0].Text, "CRLF files read like LF ones")
	})
}

func TestParseDir(t *testing.T) {
	t.Parallel()
	t.Run("sorted by doc_id then version, hidden folders and other files skipped", func(t *testing.T) {
		versions, err := ParseDir("testdata/dir-ok")
		require.NoError(t, err)
		var refs, paths []string
		for _, v := range versions {
			refs = append(refs, v.Ref())
			paths = append(paths, v.Path)
		}
		assert.Equal(t, []string{"billing/cancellation@1", "billing/refunds@4", "billing/refunds@10"}, refs)
		assert.Equal(t, []string{"testdata/dir-ok/cancellation.md", "testdata/dir-ok/refunds/v4.md", "testdata/dir-ok/refunds/v10.md"}, paths)
	})
	t.Run("every problem in every file, duplicates naming both files", func(t *testing.T) {
		versions, err := ParseDir("testdata/dir-bad")
		require.Error(t, err)
		assert.Nil(t, versions, "import is all-or-nothing")
		assert.Equal(t, []string{
			`testdata/dir-bad/b-refunds-copy.md: declares billing/refunds@4, which testdata/dir-bad/a-refunds.md already declares: give one of the two files a new version number, or delete the copy`,
			`testdata/dir-bad/c-broken.md: field "plans" is required for an approved version: add a list of plans such as [pro, business], or ["*"] for every plan`,
		}, strings.Split(err.Error(), "\n"))
	})
	t.Run("an empty directory is refused", func(t *testing.T) {
		dir := t.TempDir()
		_, err := ParseDir(dir)
		assert.EqualError(t, err, dir+": no policy files (*.md) found: point to the corpus directory")
	})
	t.Run("ParseFile reads one file", func(t *testing.T) {
		v, err := ParseFile("testdata/dir-ok/refunds/v4.md")
		require.NoError(t, err)
		assert.Equal(t, "billing/refunds@4", v.Ref())
		_, err = ParseFile("testdata/dir-ok/refunds/v99.md")
		assert.ErrorIs(t, err, os.ErrNotExist)
	})
	t.Run("a missing directory is refused", func(t *testing.T) {
		_, err := ParseDir("testdata/no-such-dir")
		assert.ErrorIs(t, err, os.ErrNotExist)
		assert.ErrorContains(t, err, "testdata/no-such-dir")
	})
	t.Run("versions sort by number, not by file name", func(t *testing.T) {
		versions, err := ParseDir(filepath.Join("testdata", "dir-ok"))
		require.NoError(t, err)
		require.Len(t, versions, 3)
		assert.Equal(t, filepath.Join("testdata", "dir-ok", "refunds", "v10.md"), versions[2].Path)
	})
}

func TestEligibleAt(t *testing.T) {
	t.Parallel()
	at := func(s string) *time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		require.NoError(t, err)
		return &tm
	}
	approved := func(edit func(v *Version)) *Version {
		v := &Version{Status: StatusApproved, EffectiveFrom: at("2026-03-01T00:00:00Z"),
			Plans: []string{"pro", "business"}, Regions: []string{"eu", "uk"}}
		edit(v)
		return v
	}
	tests := []struct {
		name         string
		v            *Version
		t            string
		plan, region string
		want         bool
	}{
		{"approved, in window and scope", approved(func(v *Version) {}), "2026-04-02T10:05:00Z", "pro", "eu", true},
		{"draft never, even in window", approved(func(v *Version) { v.Status = StatusDraft }), "2026-04-02T10:05:00Z", "pro", "eu", false},
		{"draft without a window", &Version{Status: StatusDraft, Plans: []string{"*"}, Regions: []string{"*"}}, "2026-04-02T10:05:00Z", "pro", "eu", false},
		{"approved_at still in the future", approved(func(v *Version) { v.ApprovedAt = at("2026-05-01T00:00:00Z") }), "2026-04-02T10:05:00Z", "pro", "eu", false},
		{"approved_at passed", approved(func(v *Version) { v.ApprovedAt = at("2026-04-01T00:00:00Z") }), "2026-04-02T10:05:00Z", "pro", "eu", true},
		{"effective_from is inclusive", approved(func(v *Version) {}), "2026-03-01T00:00:00Z", "pro", "eu", true},
		{"one second before effective_from", approved(func(v *Version) {}), "2026-02-28T23:59:59Z", "pro", "eu", false},
		{"effective_to is exclusive", approved(func(v *Version) { v.EffectiveTo = at("2026-09-01T00:00:00Z") }), "2026-09-01T00:00:00Z", "pro", "eu", false},
		{"just before effective_to", approved(func(v *Version) { v.EffectiveTo = at("2026-09-01T00:00:00Z") }), "2026-08-31T23:59:59Z", "pro", "eu", true},
		{"superseded inside its window", approved(func(v *Version) {
			v.Status, v.EffectiveTo = StatusSuperseded, at("2026-09-01T00:00:00Z")
		}), "2026-06-01T00:00:00Z", "business", "uk", true},
		{"superseded after its window", approved(func(v *Version) {
			v.Status, v.EffectiveTo = StatusSuperseded, at("2026-09-01T00:00:00Z")
		}), "2026-10-01T00:00:00Z", "business", "uk", false},
		{"plan not in scope", approved(func(v *Version) {}), "2026-04-02T10:05:00Z", "enterprise", "eu", false},
		{"region not in scope", approved(func(v *Version) {}), "2026-04-02T10:05:00Z", "pro", "us", false},
		{"every plan", approved(func(v *Version) { v.Plans = []string{"*"} }), "2026-04-02T10:05:00Z", "free", "eu", true},
		{"every region", approved(func(v *Version) { v.Regions = []string{"*"} }), "2026-04-02T10:05:00Z", "pro", "apac", true},
		{"wildcard plan, region still checked", approved(func(v *Version) { v.Plans = []string{"*"} }), "2026-04-02T10:05:00Z", "pro", "us", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.v.EligibleAt(*at(tt.t), tt.plan, tt.region))
		})
	}
}

// TestSampleCorpus pins what demos and evals rely on in corpus/sample: it parses, and at
// any instant each doc_id has at most one eligible version for an account.
func TestSampleCorpus(t *testing.T) {
	t.Parallel()
	versions, err := ParseDir("../corpus/sample")
	require.NoError(t, err)
	byRef := map[string]*Version{}
	byDoc := map[string][]*Version{}
	for _, v := range versions {
		byRef[v.Ref()] = v
		byDoc[v.DocID] = append(byDoc[v.DocID], v)
	}
	plans := []string{"free", "pro", "business", "enterprise"}
	regions := []string{"eu", "uk", "us", "apac"}

	t.Run("at 2026-11-30 exactly the current version is eligible where it applies", func(t *testing.T) {
		now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
		current := map[string]int{ // 0: nothing in force
			"billing/cancellation":              1,
			"billing/failed-payments":           1, // v2 is approved but effective only in 2027
			"billing/invoices-vat":              1,
			"billing/proration":                 1,
			"billing/refunds-annual":            4, // v3 superseded, v5 a draft
			"billing/refunds-annual-de":         1,
			"billing/refunds-annual-us-apac":    1,
			"billing/refunds-monthly":           1,
			"helpcenter/annual-plan-refunds":    0, // the lagging article ended with v3 of the wiki
			"macros/chargeback-acknowledgement": 1,
		}
		require.Len(t, byDoc, len(current), "a new sample doc needs a line here")
		for doc, want := range current {
			require.Contains(t, byDoc, doc)
			for _, plan := range plans {
				for _, region := range regions {
					var got []int
					for _, v := range byDoc[doc] {
						if v.EligibleAt(now, plan, region) {
							got = append(got, v.Version)
						}
					}
					cur := byRef[fmt.Sprintf("%s@%d", doc, want)]
					if cur != nil && inScope(cur.Plans, plan) && inScope(cur.Regions, region) {
						assert.Equal(t, []int{want}, got, "%s for %s/%s", doc, plan, region)
					} else {
						assert.Empty(t, got, "%s for %s/%s", doc, plan, region)
					}
				}
			}
		}
	})
	t.Run("never two versions of one doc eligible at once", func(t *testing.T) {
		var instants []time.Time
		for _, v := range versions {
			for _, tm := range []*time.Time{v.EffectiveFrom, v.EffectiveTo, v.ApprovedAt} {
				if tm != nil {
					instants = append(instants, *tm, tm.Add(-time.Second))
				}
			}
		}
		for _, at := range instants {
			for doc, vs := range byDoc {
				for _, plan := range plans {
					for _, region := range regions {
						n := 0
						for _, v := range vs {
							if v.EligibleAt(at, plan, region) {
								n++
							}
						}
						assert.LessOrEqual(t, n, 1, "%s for %s/%s at %s", doc, plan, region, at)
					}
				}
			}
		}
	})
	t.Run("the cases the corpus exists to show", func(t *testing.T) {
		v3, v4, v5 := byRef["billing/refunds-annual@3"], byRef["billing/refunds-annual@4"], byRef["billing/refunds-annual@5"]
		require.NotNil(t, v3)
		require.NotNil(t, v4)
		require.NotNil(t, v5)
		assert.Equal(t, StatusSuperseded, v3.Status)
		assert.Contains(t, v3.Chunks[1].Text, "within 30 days")
		assert.Contains(t, v4.Chunks[1].Text, "within 14 days")
		assert.Equal(t, StatusDraft, v5.Status)
		assert.Contains(t, v5.Chunks[1].Text, "within 21 days")
		assert.True(t, v3.EligibleAt(time.Date(2026, 2, 28, 12, 0, 0, 0, time.UTC), "pro", "eu"), "replay of an old ticket")

		future := byRef["billing/failed-payments@2"]
		require.NotNil(t, future)
		assert.True(t, future.EligibleAt(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), "pro", "us"))
		assert.False(t, byRef["billing/failed-payments@1"].EligibleAt(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), "pro", "us"))

		assert.Equal(t, "de", byRef["billing/refunds-annual-de@1"].Locale)
		assert.Equal(t, SourceHelpCenter, byRef["helpcenter/annual-plan-refunds@1"].Source)
		assert.Contains(t, byRef["helpcenter/annual-plan-refunds@1"].Chunks[0].Text, "30 days")
		assert.Equal(t, SourceMacro, byRef["macros/chargeback-acknowledgement@1"].Source)
		for _, v := range versions {
			n := len(v.Chunks)
			assert.True(t, n >= 3 && n <= 7, "%s has %d chunks; keep docs to 3-6 sections", v.Ref(), n)
		}
	})
}
