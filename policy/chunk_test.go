package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseFixture parses a file under testdata/ and fails the test on any error.
func parseFixture(t *testing.T, name string) *Version {
	t.Helper()
	path := filepath.Join("testdata", name)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	v, err := Parse(path, data)
	require.NoError(t, err)
	return v
}

// chunkView is a chunk without its derived fields, so expectations stay readable.
type chunkView struct {
	Anchor, Heading, Text string
}

func TestChunks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		want []chunkView
	}{
		{"headings.md", []chunkView{
			{"refunds-on-annual-plans", "Refunds on annual plans", "Refunds on annual plans\nAnnual plans can be refunded."},
			{"refund-window", "Refund window", "Refund window\nThe window is 14 days."},
			{"counting-days", "Counting days", "Counting days\nDays are calendar days.\n" +
				"Weekends and holidays\nWeekends count as days.\nTime zones\nThe invoice date is in UTC."},
			{"setext-heading", "Setext heading", "Setext heading\nUnderlined headings are headings too."},
		}},
		{"intro.md", []chunkView{
			{"intro", "", "This policy applies to annual plans. It replaces version 3."},
			{"intro-1", "Intro", "Intro\nA heading that slugs to the intro anchor."},
		}},
		{"no-intro.md", []chunkView{ // comments, rules and pictures are not text; a bare heading has nothing to cite
			{"how-to-cancel", "How to cancel", "How to cancel\nOpen Settings."},
		}},
		{"duplicates.md", []chunkView{
			{"faq", "FAQ", "FAQ\nFirst."},
			{"faq-1", "FAQ", "FAQ\nSecond."},
			{"faq-2", "FAQ", "FAQ\nThird."},
			{"faq-1-1", "FAQ 1", "FAQ 1\nFourth."},
			{"section", "???", "???\nPunctuation only."},
		}},
		{"lists.md", []chunkView{
			{"who-is-eligible", "Who is eligible", "Who is eligible\n" +
				"The request must meet all of these:\n" +
				"- It comes from the account owner or a billing admin.\n" +
				"- The charge is for an annual plan:\n" +
				"  - Pro, or\n" +
				"  - Business.\n" +
				"- It arrives within 14 days. A request sent on day 14 still counts.\n" +
				"To ask for a refund:\n" +
				"- Open Settings.\n" +
				"- Choose Billing."},
		}},
		{"tables.md", []chunkView{
			{"refund-windows", "Refund windows", "Refund windows\n" +
				"Region: EU; Plan: Pro; Window: 14 days\n" +
				"Region: US; Plan: Business (https://example.com/business); Window: 30 days\n" +
				"Windows are counted in calendar days."},
			{"plans-compared", "Plans compared", "Plans compared\n" +
				"Refund window; Pro: 14 days; Business: 30 days\n" +
				"Seats; Business: 50 (more on request)"},
		}},
		{"inline.md", []chunkView{
			{"wording", "Wording", "Wording\n" +
				"Refunds are always paid to the original card (details (https://example.com/refunds)), see REFUND-14. " +
				"The window is 14 days *from the invoice* & not from sign-up — see the chart. " +
				"Write to billing@example.com or https://example.com/help.Raw HTML is dropped. " +
				"Ask billing (billing@example.com), read the FAQ or open https://example.com/form."},
		}},
		{"html.md", []chunkView{ // an exported article, and HTML inside Markdown: comments, scripts and struck text go
			{"refund-policy", "Refund policy", "Refund policy\n" +
				"Annual plans can be refunded within 14 days. Use the refund form (https://example.com/refund) or billing help."},
			{"monthly-plans", "Monthly plans", "Monthly plans\nMonthly plans are not refunded.\nCredits are not given.\n" +
				"- Cancel before renewal.\n- Downgrade instead."},
			{"windows-by-region", "Windows by region", "Windows by region\nRefund windows differ by region:\nRegion: EU; Window: 14 days"},
		}},
		{"admonitions.md", []chunkView{ // a callout's markers are not text; its title is
			{"refunds", "Refunds", "Refunds\nAnnual plans can be refunded.\nRefunds take 5 days to arrive.\n" +
				"Save money\nSwitch to annual billing.\nBefore you cancel\nExport your data first.\nRefunds go to the original card."},
		}},
		{"german.md", []chunkView{
			{"rückerstattung-bei-jahresabonnements", "Rückerstattung bei Jahresabonnements",
				"Rückerstattung bei Jahresabonnements\nInnerhalb von 14 Tagen, z. B. nach dem Kauf."},
			{"wer-hat-anspruch", "Wer hat Anspruch?", "Wer hat Anspruch?\nDie Kontoinhaberin."},
			{"größe--maße-der-übersicht", "Größe & Maße der Übersicht", "Größe & Maße der Übersicht\nNichts."},
			{"rückerstattung-bei-jahresabonnements-1", "Rückerstattung bei Jahresabonnements",
				"Rückerstattung bei Jahresabonnements\nDoppelte Überschrift."},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			v := parseFixture(t, filepath.Join("chunk", tt.file))
			var got []chunkView
			for i, c := range v.Chunks {
				assert.Equal(t, i, c.Ord, "ord of %s", c.Anchor)
				assert.Equal(t, ChunkID(v.DocID, 1, c.Anchor), c.ID)
				got = append(got, chunkView{c.Anchor, c.Heading, c.Text})
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestChunksLongSections(t *testing.T) {
	t.Parallel()
	v := parseFixture(t, "chunk/long.md")
	var anchors []string
	for _, c := range v.Chunks {
		anchors = append(anchors, c.Anchor)
	}
	require.Equal(t, []string{"what-is-refunded", "what-is-refunded-part-2", "accepted-cases", "rates-by-region"}, anchors)

	t.Run("parts stay under the limit and end on a sentence", func(t *testing.T) {
		for _, c := range v.Chunks[:2] {
			assert.LessOrEqual(t, utf8.RuneCountInString(c.Text), maxChunkRunes, c.Anchor)
			assert.True(t, strings.HasPrefix(c.Text, "What is refunded\n"), "every part starts with the heading: %s", c.Anchor)
			assert.True(t, strings.HasSuffix(c.Text, "."), "part %s ends mid-sentence: %q", c.Anchor, c.Text[len(c.Text)-20:])
			assert.Equal(t, "What is refunded", c.Heading)
		}
	})
	t.Run("no text is lost or reordered", func(t *testing.T) {
		start := strings.Index(v.Body, "## What is refunded") + len("## What is refunded")
		source := v.Body[start:strings.Index(v.Body, "## Accepted cases")]
		parts := strings.TrimPrefix(v.Chunks[0].Text, "What is refunded\n") + " " +
			strings.TrimPrefix(v.Chunks[1].Text, "What is refunded\n")
		assert.Equal(t, strings.Join(strings.Fields(source), " "), strings.Join(strings.Fields(parts), " "))
		assert.Contains(t, v.Chunks[0].Text, "e.g. Pro with 10 seats costs €99.90 per month.", "no split inside a sentence")
	})
	t.Run("a list or table longer than the limit stays whole", func(t *testing.T) {
		list, table := v.Chunks[2], v.Chunks[3]
		assert.Greater(t, utf8.RuneCountInString(list.Text), maxChunkRunes)
		assert.Equal(t, 13, strings.Count(list.Text, "\n"), "heading, then 13 items")
		assert.Greater(t, utf8.RuneCountInString(table.Text), maxChunkRunes)
		assert.Equal(t, 20, strings.Count(table.Text, "\n"), "heading, then 20 rows, each with its header")
	})
}

// A chunk names the lines of its text that title a subsection, so the drafter never
// quotes "Weekends and holidays" as a statement; a part of a long section names only its
// own.
func TestChunksNameTheirSubheadings(t *testing.T) {
	t.Parallel()
	v := parseFixture(t, "chunk/headings.md")
	subheadings := map[string][]string{}
	for _, c := range v.Chunks {
		subheadings[c.Anchor] = c.Subheadings
	}
	assert.Equal(t, map[string][]string{"refunds-on-annual-plans": nil, "refund-window": nil,
		"counting-days": {"Weekends and holidays", "Time zones"}, "setext-heading": nil}, subheadings)

	long := "## FAQ\n\n#### First question\n\n" + strings.Repeat("The first answer is long. ", 50) +
		"\n\n#### Second question\n\nThe second answer is short."
	chunks := chunkBody("test/faq", 1, long)
	require.Len(t, chunks, 2)
	assert.Equal(t, []string{"First question"}, chunks[0].Subheadings)
	assert.Equal(t, []string{"Second question"}, chunks[1].Subheadings)

	// A title in bold is one too, alone or on the line above its text; a sentence in bold
	// is a statement.
	bold := chunkBody("test/cancel", 1, "## After cancelling\n\n**Once the billing period ends**\n\nThe dashboard is locked.\n\n"+
		"**Refunds are final.**\n\nSome **words** in bold.\n\n**Your data**\nIt is kept for a month.\n\n"+
		"**Exports stay possible for a year**\n\n## Resubscribing\n\nDashboards unlock.")
	require.Len(t, bold, 2)
	assert.Equal(t, []string{"Once the billing period ends", "Your data"}, bold[0].Subheadings,
		"a bold line that ends its section is its last statement, not a title")
	assert.Equal(t, "After cancelling\nOnce the billing period ends\nThe dashboard is locked.\nRefunds are final.\n"+
		"Some words in bold.\nYour data\nIt is kept for a month.\nExports stay possible for a year", bold[0].Text)
}

func TestSlug(t *testing.T) {
	t.Parallel()
	tests := []struct{ heading, want string }{
		{"Refund window", "refund-window"},
		{"  Refunds on annual plans  ", "refunds-on-annual-plans"},
		{"Refunds & credits", "refunds--credits"},
		{"What about monthly plans?", "what-about-monthly-plans"},
		{"14-day window (EU/UK)", "14-day-window-euuk"},
		{"snake_case stays", "snake_case-stays"},
		{"Rückerstattung", "rückerstattung"},
		{"Größe & Maße", "größe--maße"},
		{"Ärger über Überweisungen", "ärger-über-überweisungen"},
		{"Café résumé", "café-résumé"},
		{"Refunds 💸", "refunds-"},
		{"???", ""},
	}
	for _, tt := range tests {
		t.Run(tt.heading, func(t *testing.T) {
			assert.Equal(t, tt.want, Slug(tt.heading))
		})
	}
}
