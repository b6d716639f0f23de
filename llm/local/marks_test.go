package local_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/llm/local"
	"github.com/supportdraft/supportdraft/policy"
)

// The writer never quotes a section marked audience: agents in its front matter, on a
// help-center page nobody on the team wrote: the same question is answered from that
// section when it is not marked, and not from it when it is.
func TestExtractiveNeverQuotesASectionForAgents(t *testing.T) {
	t.Parallel()
	const path = "../../evals/helpcenter/corpus/billing.v1.md"
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	head, body, _ := strings.Cut(string(data), "\nowner: plausible-docs\n")
	const vat = "plausible/billing@1#how-do-i-add-my-vat-number"
	question := "I forgot to add our VAT number at checkout. How do I add my VAT number now?"
	for _, marks := range []string{"", "sections:\n  how-do-i-add-my-vat-number: {audience: agents}\n"} {
		v, err := policy.Parse(path, []byte(head+"\nowner: plausible-docs\n"+marks+body))
		require.NoError(t, err)
		var ev []policy.Evidence
		for _, c := range v.Chunks {
			ev = append(ev, policy.Evidence{ChunkID: c.ID, DocID: v.DocID, Version: v.Version, Title: v.Title, Source: v.Source,
				Area: v.Area, Text: c.Text, Score: 0.5, Fixed: c.Fixed, Audience: c.Audience})
		}
		d, err := local.Extractive{}.Write(context.Background(), llmtest.CustomerRequest("VAT number", question, llmtest.ProEU, ev))
		require.NoError(t, err)
		var cited []string
		for _, c := range d.Claims {
			cited = append(cited, c.ChunkIDs...)
		}
		if marks == "" {
			assert.Contains(t, cited, vat, "unmarked, the section answers the question: %s", d.Reply)
			continue
		}
		assert.NotContains(t, cited, vat, "marked for agents, it is never quoted: %s", d.Reply)
		assert.NotContains(t, d.Reply, "Add address & VAT Number")
	}
}
