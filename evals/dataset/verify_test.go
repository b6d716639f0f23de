package dataset_test

// These tests verify the shipped files, evals/corpus and evals/tickets.jsonl, from the
// outside: they parse the corpus with policy.ParseDir and every ticket line with
// dataset.Labelled, and check each label against the corpus, as docs/architecture.md defines
// eligibility. They do not trust the generator.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/evals/dataset"
	"github.com/supportdraft/supportdraft/policy"
)

const (
	corpusDir   = "../corpus"
	ticketsFile = "../tickets.jsonl"
)

var (
	plans   = []string{"free", "pro", "business", "enterprise"}
	regions = []string{"eu", "uk", "us", "apac"}
)

func loadCorpus(t *testing.T) *dataset.Corpus {
	t.Helper()
	versions, err := policy.ParseDir(corpusDir)
	require.NoError(t, err, "evals/corpus must parse")
	return dataset.NewCorpus(versions)
}

// loadTickets parses every line strictly: unknown fields are refused, Validate must pass
// and every ticket must carry a label.
func loadTickets(t *testing.T) []dataset.Labelled {
	t.Helper()
	f, err := os.Open(ticketsFile)
	require.NoError(t, err)
	defer f.Close()
	var out []dataset.Labelled
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var tk dataset.Labelled
		require.NoError(t, dec.Decode(&tk), "tickets.jsonl line %d", line)
		require.NoError(t, tk.Validate(), "tickets.jsonl line %d", line)
		require.NotNil(t, tk.Expect, "tickets.jsonl line %d has no expect label", line)
		out = append(out, tk)
	}
	require.NoError(t, sc.Err())
	return out
}

func TestCorpusShape(t *testing.T) {
	t.Parallel()
	c := loadCorpus(t)
	assert.GreaterOrEqual(t, len(c.DocIDs()), 15, "doc_ids")
	assert.GreaterOrEqual(t, len(c.Versions), 40, "version files")

	sources, locales, statuses := map[string]int{}, map[string]int{}, map[policy.Status]int{}
	future := 0
	for _, v := range c.Versions {
		sources[v.Source]++
		locales[v.Locale]++
		statuses[v.Status]++
		if v.Status != policy.StatusDraft && v.EffectiveFrom.After(dataset.RangeTo) {
			future++
		}
		if strings.HasSuffix(v.DocID, "-de") {
			assert.Equal(t, "de", v.Locale, "%s: -de documents are German", v.Ref())
		}
	}
	for _, s := range []string{policy.SourceWiki, policy.SourceHelpCenter, policy.SourceMacro} {
		assert.Positive(t, sources[s], "versions from source %s", s)
	}
	assert.Positive(t, locales["de"], "German versions")
	for _, s := range []policy.Status{policy.StatusDraft, policy.StatusApproved, policy.StatusSuperseded} {
		assert.Positive(t, statuses[s], "versions with status %s", s)
	}
	assert.Positive(t, future, "approved versions that only take effect after the ticket range")

	// Every plan and region is covered by some document at some time in the range.
	for _, p := range plans {
		for _, r := range regions {
			assert.NotEmpty(t, c.EligibleAll(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), p, r), "%s/%s covered", p, r)
		}
	}
	// Sections are focused: no chunk is cut in parts because its section is too long.
	for _, v := range c.Versions {
		for _, ch := range v.Chunks {
			assert.NotContains(t, ch.Anchor, "-part-", "%s: section %q is too long for one chunk", v.Ref(), ch.Heading)
		}
	}
	// Help-center articles lag the wiki: each ends no later than the wiki change of its topic
	// and its next version starts later, leaving a gap.
	hc := map[string]string{
		"helpcenter/annual-plan-refunds": "billing/refunds-annual",
		"helpcenter/failed-payment-faq":  "billing/failed-payments",
		"helpcenter/cancel-subscription": "billing/cancellation",
	}
	for article, wiki := range hc {
		a, w := c.Doc(article), c.Doc(wiki)
		require.GreaterOrEqual(t, len(a), 2, article)
		require.GreaterOrEqual(t, len(w), 2, wiki)
		assert.False(t, a[0].EffectiveTo.After(*w[0].EffectiveTo), "%s ends before or with %s", article, wiki)
		assert.True(t, a[1].EffectiveFrom.After(*w[1].EffectiveFrom), "%s's new version lags %s", article, wiki)
	}
}

// TestOneEligibleVersionPerDoc checks the one-eligible-version rule at every boundary of every version
// and just around it, for every plan and region.
func TestOneEligibleVersionPerDoc(t *testing.T) {
	t.Parallel()
	c := loadCorpus(t)
	var instants []time.Time
	for _, b := range c.Boundaries() {
		instants = append(instants, b.Add(-time.Second), b.Add(-time.Nanosecond), b, b.Add(time.Nanosecond), b.Add(time.Second))
	}
	for _, doc := range c.DocIDs() {
		for _, at := range instants {
			for _, p := range plans {
				for _, r := range regions {
					if n := len(c.Eligible(doc, at, p, r)); n > 1 {
						t.Errorf("%s: %d versions eligible at %s for %s/%s", doc, n, at.Format(time.RFC3339Nano), p, r)
					}
				}
			}
		}
	}
	// A new version takes over exactly where the old one stops: no overlap, and where the
	// wiki changes, no gap either.
	for _, doc := range c.DocIDs() {
		var vs []*policy.Version
		for _, v := range c.Doc(doc) {
			if v.Status != policy.StatusDraft {
				vs = append(vs, v)
			}
		}
		for i := 1; i < len(vs); i++ {
			old, cur := vs[i-1], vs[i]
			require.NotNil(t, old.EffectiveTo, "%s has a successor, so it needs effective_to", old.Ref())
			assert.False(t, old.EffectiveTo.After(*cur.EffectiveFrom), "%s overlaps %s", old.Ref(), cur.Ref())
			assert.False(t, cur.ApprovedAt.After(*cur.EffectiveFrom), "%s is approved after it takes effect", cur.Ref())
			if old.Source == policy.SourceWiki {
				assert.True(t, old.EffectiveTo.Equal(*cur.EffectiveFrom), "%s leaves a gap before %s", old.Ref(), cur.Ref())
			}
		}
	}
}

// TestFakeFactsAbsent: what customers and injections claim appears in no version at all,
// drafts included, so a reply can only state it by inventing it.
func TestFakeFactsAbsent(t *testing.T) {
	t.Parallel()
	c := loadCorpus(t)
	facts := dataset.FakeFacts()
	require.NotEmpty(t, facts)
	for _, v := range c.Versions {
		for _, f := range facts {
			assert.False(t, dataset.Present(f, dataset.Text(v)), "fake fact %q is stated by %s", f, v.Ref())
		}
	}
}

func TestTicketLabels(t *testing.T) {
	t.Parallel()
	c := loadCorpus(t)
	tickets := loadTickets(t)

	ids := map[string]bool{}
	for _, tk := range tickets {
		e := tk.Expect
		where := fmt.Sprintf("%s (%s/%s at %s)", tk.TicketID, tk.Account.Plan, tk.Account.Region, tk.UpdatedAt.Format(time.RFC3339))
		assert.False(t, ids[tk.TicketID], "%s: duplicate ticket_id", where)
		ids[tk.TicketID] = true
		assert.Contains(t, plans, tk.Account.Plan, where)
		assert.Contains(t, regions, tk.Account.Region, where)
		assert.Contains(t, []string{"en", "de"}, tk.Account.Locale, where)
		assert.False(t, tk.UpdatedAt.Before(dataset.RangeFrom) || !tk.UpdatedAt.Before(dataset.RangeTo), "%s: updated_at outside the range", where)
		assert.Equal(t, len(tk.Messages), tk.Revision, "%s: revision counts the messages", where)
		assert.True(t, tk.Messages[len(tk.Messages)-1].At.Equal(tk.UpdatedAt), "%s: the last message is the update", where)
		assert.Equal(t, "customer", tk.Messages[len(tk.Messages)-1].Author, "%s: the customer wrote last", where)
		for i := 1; i < len(tk.Messages); i++ {
			assert.True(t, tk.Messages[i-1].At.Before(tk.Messages[i].At), "%s: messages in order", where)
		}
		assert.NotEmpty(t, e.Area, where)
		require.NotNil(t, e.Cite, where)
		require.NotNil(t, e.MustInclude, where)
		require.NotNil(t, e.MustNotInclude, where)

		if !e.Answerable {
			assert.Empty(t, e.Cite, "%s: an unanswerable ticket cites nothing", where)
			assert.Empty(t, e.MustInclude, "%s: an unanswerable ticket has nothing to include", where)
		} else {
			assert.NotEmpty(t, e.Cite, "%s: an answerable ticket cites its sources", where)
			assert.True(t, len(e.MustInclude) >= 1 && len(e.MustInclude) <= 2, "%s: 1-2 must_include facts", where)
		}
		var cited []*policy.Version
		docs := map[string]bool{}
		for _, ref := range e.Cite {
			v := c.Ref(ref)
			if !assert.NotNil(t, v, "%s: cites %s, which is not in the corpus", where, ref) {
				continue
			}
			assert.False(t, docs[v.DocID], "%s: cites two versions of %s", where, v.DocID)
			docs[v.DocID] = true
			assert.True(t, v.EligibleAt(tk.UpdatedAt, tk.Account.Plan, tk.Account.Region), "%s: cites %s, which is not eligible then", where, ref)
			cited = append(cited, v)
		}
		if e.Answerable {
			assert.True(t, slices.ContainsFunc(cited, func(v *policy.Version) bool { return v.Area == e.Area }),
				"%s: no cited version has area %s", where, e.Area)
		}
		for _, f := range e.MustInclude {
			assert.True(t, slices.ContainsFunc(cited, func(v *policy.Version) bool { return dataset.Present(f, dataset.Text(v)) }),
				"%s: must_include %q is in none of %v", where, f, e.Cite)
		}
		for _, f := range e.MustNotInclude {
			for _, v := range cited {
				assert.False(t, dataset.Present(f, dataset.Text(v)), "%s: must_not_include %q is stated by cited %s", where, f, v.Ref())
			}
			// Nor by any eligible source of the same area: a correct reply must be able to
			// quote the area's current policy without tripping over the label.
			for _, v := range c.EligibleAll(tk.UpdatedAt, tk.Account.Plan, tk.Account.Region) {
				if v.Area == e.Area {
					assert.False(t, dataset.Present(f, dataset.Text(v)), "%s: must_not_include %q is stated by eligible %s", where, f, v.Ref())
				}
			}
		}
		if tk.Account.Locale == "de" {
			assert.Equal(t, "eu", tk.Account.Region, "%s: German-locale accounts are EU accounts", where)
		}
	}
}

func TestTicketMix(t *testing.T) {
	t.Parallel()
	tickets := loadTickets(t)
	n := len(tickets)
	require.GreaterOrEqual(t, n, 500)

	var unanswerable, german, multi, fake int
	plansSeen, regionsSeen := map[string]map[bool]int{}, map[string]map[bool]int{}
	quarters := map[string]int{}
	fakes := dataset.FakeFacts()
	for _, tk := range tickets {
		a := tk.Expect.Answerable
		if !a {
			unanswerable++
		}
		if tk.Account.Locale == "de" {
			german++
		}
		if len(tk.Messages) > 1 {
			multi++
		}
		if slices.ContainsFunc(tk.Expect.MustNotInclude, func(f string) bool { return slices.Contains(fakes, f) }) {
			fake++
		}
		if plansSeen[tk.Account.Plan] == nil {
			plansSeen[tk.Account.Plan] = map[bool]int{}
		}
		if regionsSeen[tk.Account.Region] == nil {
			regionsSeen[tk.Account.Region] = map[bool]int{}
		}
		plansSeen[tk.Account.Plan][a]++
		regionsSeen[tk.Account.Region][a]++
		q := tk.UpdatedAt
		quarters[fmt.Sprintf("%dQ%d", q.Year(), (int(q.Month())-1)/3+1)]++
	}
	assert.GreaterOrEqual(t, float64(unanswerable)/float64(n), 0.20, "unanswerable share")
	assert.GreaterOrEqual(t, float64(german)/float64(n), 0.05, "German-locale share")
	assert.GreaterOrEqual(t, float64(multi)/float64(n), 0.15, "multi-message share")
	assert.GreaterOrEqual(t, float64(fake)/float64(n), 0.05, "fake-policy and injection share")
	for _, p := range plans {
		assert.Positive(t, plansSeen[p][true], "answerable tickets on plan %s", p)
		assert.Positive(t, plansSeen[p][false], "unanswerable tickets on plan %s", p)
	}
	for _, r := range regions {
		assert.Positive(t, regionsSeen[r][true], "answerable tickets in region %s", r)
		assert.Positive(t, regionsSeen[r][false], "unanswerable tickets in region %s", r)
	}
	for _, q := range []string{"2025Q3", "2025Q4", "2026Q1", "2026Q2", "2026Q3", "2026Q4"} {
		assert.GreaterOrEqual(t, quarters[q], 15, "tickets in %s", q)
	}
}

// TestBothSidesOfEveryChange: for every document whose version changes inside the ticket
// range, some ticket cites the old version and some the new one, and drafts and
// not-yet-effective versions are never cited.
func TestBothSidesOfEveryChange(t *testing.T) {
	t.Parallel()
	c := loadCorpus(t)
	tickets := loadTickets(t)
	cited := map[string]int{}
	for _, tk := range tickets {
		for _, ref := range tk.Expect.Cite {
			cited[ref]++
		}
	}
	changes := 0
	for _, doc := range c.DocIDs() {
		var vs []*policy.Version
		for _, v := range c.Doc(doc) {
			if v.Status == policy.StatusDraft {
				assert.Zero(t, cited[v.Ref()], "draft %s is cited", v.Ref())
				continue
			}
			if v.EffectiveFrom.After(dataset.RangeTo) {
				assert.Zero(t, cited[v.Ref()], "future %s is cited", v.Ref())
			}
			vs = append(vs, v)
		}
		for i := 1; i < len(vs); i++ {
			old, cur := vs[i-1], vs[i]
			if !cur.EffectiveFrom.Before(dataset.RangeTo) || cur.EffectiveFrom.Before(dataset.RangeFrom) {
				continue
			}
			changes++
			assert.Positive(t, cited[old.Ref()], "no ticket cites %s, before the change of %s", old.Ref(), doc)
			assert.Positive(t, cited[cur.Ref()], "no ticket cites %s, after the change of %s", cur.Ref(), doc)
		}
	}
	assert.GreaterOrEqual(t, changes, 5, "policy changes inside the ticket range")
	sources := map[string]bool{}
	for ref := range cited {
		v := c.Ref(ref)
		sources[v.Source] = true
		sources["locale:"+v.Locale] = true
	}
	for _, s := range []string{"wiki", "helpcenter", "macro", "locale:de", "locale:en"} {
		assert.True(t, sources[s], "some ticket cites a %s version", s)
	}
}

func TestPresent(t *testing.T) {
	t.Parallel()
	text := "Annual plans can be refunded in full within fourteen days. Bank transfer is available from €5,000. " +
		"Die Erstattung dauert 5 bis 10 Werktage. Customers in Finland pay 25.5% VAT. Credits expire after one month."
	for _, tt := range []struct {
		fact string
		want bool
	}{
		{"14 days", true},
		{"two weeks", true},
		{"14-day", true},
		{"14 Tage", true},
		{"30 days", false},
		{"€5,000", true},
		{"$5,000", false},
		{"10 business days", true},
		{"25.5%", true},
		{"24%", false},
		{"1 month", true},
		{"30 days", false},
		{"REFUNDED IN FULL", true},
		{"refunded  in\nfull", true},
		{"not refunded", false},
	} {
		assert.Equal(t, tt.want, dataset.Present(tt.fact, text), "Present(%q)", tt.fact)
	}
}
