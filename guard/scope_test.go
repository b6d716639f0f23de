package guard

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScopeReaderReadsPlansRegionsAndSubjects(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	r := v.ScopeReader([]string{"The Starter and Growth plans include 50 GB."})

	sc := r.Of("On Growth, monthly storage above the quota is billed in the UK at £4 per GB.")
	assert.Equal(t, map[string]bool{"growth": true}, sc.Plans)
	assert.Equal(t, map[string]bool{"uk": true}, sc.Regions)
	assert.Equal(t, "period", sc.Topics["monthly"])

	assert.Empty(t, r.Of("Plans grow with the growth of the team.").Plans, "a plan name counts only where it is capitalised")
	assert.Empty(t, r.Of("Write to us for help.").Regions, "the pronoun us is not a region")
	assert.Empty(t, r.Of("Let Us Know.").Regions, "a capitalised pronoun is not a region")
	assert.Equal(t, map[string]bool{"us": true, "apac": true}, r.Of("Prices in the US and APAC").Regions, "the country is written in capitals")
	assert.Empty(t, r.Of("Refunds go back to the card.").Topics)
}
