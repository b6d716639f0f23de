package policy

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helpCenterBilling is a help-center page nobody on the team wrote (evals/helpcenter), with
// marks added to its front matter.
func helpCenterBilling(t *testing.T, marks string) (string, []byte) {
	t.Helper()
	const path = "../evals/helpcenter/corpus/billing.v1.md"
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	head, body, ok := strings.Cut(string(data), "\nowner: plausible-docs\n")
	require.True(t, ok, "the page's front matter ends with its owner")
	return path, []byte(head + "\nowner: plausible-docs\n" + marks + body)
}

func chunkByAnchor(t *testing.T, v *Version, anchor string) Chunk {
	t.Helper()
	for _, c := range v.Chunks {
		if c.Anchor == anchor {
			return c
		}
	}
	t.Fatalf("no chunk %s", anchor)
	return Chunk{}
}

// A section can be marked for agents or as fixed wording under sections; the rest of the
// document keeps the document's marks (none: quotable, not fixed).
func TestParseSectionMarks(t *testing.T) {
	path, data := helpCenterBilling(t, "sections:\n  how-do-i-add-my-vat-number: {audience: agents}\n"+
		"  what-happens-if-i-exceed-my-pageview-limit:\n    fixed: true\n")
	v, err := Parse(path, data)
	require.NoError(t, err)
	vat := chunkByAnchor(t, v, "how-do-i-add-my-vat-number")
	assert.Equal(t, AudienceAgents, vat.Audience)
	assert.False(t, vat.Fixed)
	limit := chunkByAnchor(t, v, "what-happens-if-i-exceed-my-pageview-limit")
	assert.True(t, limit.Fixed)
	assert.Equal(t, AudienceCustomers, limit.Audience)
	other := chunkByAnchor(t, v, "what-payment-methods-do-you-accept")
	assert.False(t, other.Fixed)
	assert.Equal(t, AudienceCustomers, other.Audience)
}

// The document's marks hold for every section; a section may set its own.
func TestParseDocumentMarks(t *testing.T) {
	path, data := helpCenterBilling(t, "fixed: true\naudience: agents\nsections:\n  how-do-i-get-an-invoice: {audience: customers, fixed: false}\n")
	v, err := Parse(path, data)
	require.NoError(t, err)
	for _, c := range v.Chunks {
		if c.Anchor == "how-do-i-get-an-invoice" {
			assert.False(t, c.Fixed)
			assert.Equal(t, AudienceCustomers, c.Audience)
			continue
		}
		assert.True(t, c.Fixed, c.Anchor)
		assert.Equal(t, AudienceAgents, c.Audience, c.Anchor)
	}
}

// Unknown values, keys and anchors are refused, naming the file, the line and the field.
func TestParseMarksRefusals(t *testing.T) {
	for _, tc := range []struct{ marks, want string }{
		{"audience: staff\n", `billing.v1.md:13: field "audience" has "staff": use customers or agents`},
		{"fixed: yes\n", `billing.v1.md:13: field "fixed" has yes, which is not true or false`},
		{"sections:\n  no-such-section: {fixed: true}\n", `billing.v1.md:13: field "sections.no-such-section" names no section of this file: use one of the sections' anchors: is-the-billing-based-per-account-or-per-website, can-i-manage`},
		{"sections:\n  how-do-i-get-an-invoice: {fixd: true}\n", `field "sections.how-do-i-get-an-invoice.fixd" is not a section mark: remove it; a section sets only fixed and audience`},
		{"sections:\n  how-do-i-get-an-invoice: {audience: everyone}\n", `field "sections.how-do-i-get-an-invoice.audience" has "everyone": use customers or agents`},
		{"sections:\n  how-do-i-get-an-invoice: {fixed: 1}\n", `field "sections.how-do-i-get-an-invoice.fixed" has 1, which is not true or false`},
	} {
		t.Run(tc.marks, func(t *testing.T) {
			path, data := helpCenterBilling(t, tc.marks)
			_, err := Parse(path, data)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "../evals/helpcenter/corpus/billing.v1.md")
		})
	}
}
