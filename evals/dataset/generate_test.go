package dataset

import (
	"bytes"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func generated(t *testing.T) []Item {
	t.Helper()
	c, err := LoadCorpus("../corpus")
	require.NoError(t, err)
	items, err := Generate(c, Options{Seed: DefaultSeed, Tickets: DefaultTickets})
	require.NoError(t, err)
	return items
}

// TestFileIsGenerated: tickets.jsonl is exactly what the generator writes with the
// default seed, so the set is reproducible and nobody edited labels by hand.
func TestFileIsGenerated(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	require.NoError(t, WriteJSONL(&buf, generated(t)))
	want, err := os.ReadFile("../tickets.jsonl")
	require.NoError(t, err)
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatal("evals/tickets.jsonl differs from the generator's output: run `go run ./evals/dataset/cmd/gen` from the repository root")
	}
}

// TestWordingVaries checks the phrasing tables and how much of them the set uses.
func TestWordingVaries(t *testing.T) {
	t.Parallel()
	for _, it := range allIntents() {
		assert.GreaterOrEqual(t, len(it.EN), 8, "%s: English phrasings", it.ID)
		assert.GreaterOrEqual(t, len(it.Subjects), 4, "%s: subjects", it.ID)
		if len(it.DE) > 0 {
			assert.GreaterOrEqual(t, len(it.DE), 8, "%s: German phrasings", it.ID)
			assert.GreaterOrEqual(t, len(it.DeSubjects), 3, "%s: German subjects", it.ID)
		}
		all := append(slices.Clone(it.EN), it.DE...)
		slices.Sort(all)
		assert.Equal(t, len(all), len(slices.Compact(all)), "%s: duplicate phrasings", it.ID)
	}
	items := generated(t)
	used, bodies := map[string]bool{}, map[string]bool{}
	intents := map[string]int{}
	var styles, overlays, typos, remarks = map[string]int{}, map[string]int{}, 0, 0
	for _, it := range items {
		for _, p := range it.Meta.Phrasings {
			used[p] = true
		}
		intents[it.Meta.Intent]++
		styles[it.Meta.Style]++
		overlays[it.Meta.Overlay]++
		if it.Meta.Typos {
			typos++
		}
		if it.Meta.Remark {
			remarks++
		}
		bodies[it.Ticket.Messages[0].Body] = true
	}
	assert.GreaterOrEqual(t, len(used), 400, "distinct core phrasings used")
	assert.GreaterOrEqual(t, len(bodies), len(items)*99/100, "distinct opening messages (terse one-liners may coincide)")
	for _, it := range allIntents() {
		assert.Positive(t, intents[it.ID], "intent %s is in the set", it.ID)
	}
	for _, s := range []string{"terse", "normal", "rambling"} {
		assert.GreaterOrEqual(t, styles[s], 25, "%s tickets", s)
	}
	assert.GreaterOrEqual(t, overlays["injection"], 20, "prompt injections")
	assert.GreaterOrEqual(t, overlays["fake"], 20, "fake policies quoted")
	assert.GreaterOrEqual(t, typos, 50, "tickets with typos")
	assert.GreaterOrEqual(t, remarks, 15, "customers quoting stale values")
}

// TestUnanswerableReasons: every unanswerable ticket is one because nothing answers it:
// off-topic tickets' terms occur in no eligible version, gap tickets have no eligible
// version of their area. Generate enforces this; the test keeps it enforced.
func TestUnanswerableReasons(t *testing.T) {
	t.Parallel()
	c, err := LoadCorpus("../corpus")
	require.NoError(t, err)
	kinds := map[Kind]int{}
	for _, it := range generated(t) {
		kinds[it.Meta.Kind]++
		tk := it.Ticket
		eligible := c.EligibleAll(tk.UpdatedAt, tk.Account.Plan, tk.Account.Region)
		switch it.Meta.Kind {
		case KindAnswerable:
			assert.True(t, tk.Expect.Answerable)
		case KindGap:
			assert.False(t, tk.Expect.Answerable)
			for _, v := range eligible {
				assert.NotEqual(t, tk.Expect.Area, v.Area, "%s: gap ticket but %s is eligible", tk.TicketID, v.Ref())
			}
		case KindOffTopic:
			assert.False(t, tk.Expect.Answerable)
			for _, v := range eligible {
				for _, term := range it.intent().Absent {
					assert.False(t, containsWord(Text(v), term), "%s: %q in eligible %s", tk.TicketID, term, v.Ref())
				}
			}
		}
	}
	assert.GreaterOrEqual(t, kinds[KindGap], 25, "gap tickets (plan/region/time not covered)")
	assert.GreaterOrEqual(t, kinds[KindOffTopic], 50, "off-topic tickets")
}

func TestContainsWord(t *testing.T) {
	t.Parallel()
	assert.True(t, containsWord("Do you have an SLA?", "sla"))
	assert.False(t, containsWord("We translate invoices.", "sla"))
	assert.True(t, containsWord("put the account on hold now", "on hold"))
	assert.False(t, containsWord("Die Schnittstellen-Doku", "schnittstelle"))
}
