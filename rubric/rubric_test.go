package rubric_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/rubric"
)

// helpCenterLine returns the line of a help-center page (evals/helpcenter: Plausible's
// public documentation, text nobody on this team wrote) that contains marker.
func helpCenterLine(t *testing.T, page, marker string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "evals", "helpcenter", "corpus", page+".v1.md"))
	require.NoError(t, err)
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, marker) {
			return line
		}
	}
	t.Fatalf("%s: no line holds %q", page, marker)
	return ""
}

// findings returns the criterion's findings, checking that each named span is where it says.
func findings(t *testing.T, reply string, res rubric.Result, criterion string) (*rubric.Score, []string) {
	t.Helper()
	s := res.Get(criterion)
	require.NotNil(t, s, criterion)
	var spans []string
	for _, f := range s.Findings {
		if f.Span != "" {
			require.Equal(t, f.Span, reply[f.Start:f.End], "%s: the span is where the finding says", criterion)
			spans = append(spans, f.Span)
		}
	}
	return s, spans
}

// letter wraps help-center text in the greeting and sign-off the default rubric wants, so
// a test of one criterion is not also a test of the layout.
func letter(body string) string {
	return "Hi,\n\n" + body + "\n\nBest regards."
}

func TestHelpCenterTextCatchesEachCriterion(t *testing.T) {
	r := rubric.Default()

	t.Run("forbidden phrase and tone marker", func(t *testing.T) {
		reply := letter(helpCenterLine(t, "google-search-console-integration", "nothing we can do"))
		res := r.Score(reply)
		s, spans := findings(t, reply, res, rubric.ForbiddenPhrases)
		assert.Equal(t, 0.0, s.Value(), "one forbidden phrase stops the reply")
		assert.Equal(t, []string{"nothing we can do"}, spans)
		tone, spans := findings(t, reply, res, rubric.Tone)
		assert.Less(t, tone.Value(), 1.0)
		assert.Greater(t, tone.Value(), 0.0, "only the sentence with the marker counts against it")
		assert.Equal(t, []string{"Unfortunately"}, spans)
	})

	t.Run("brand vocabulary", func(t *testing.T) {
		reply := letter(helpCenterLine(t, "2fa", "* Log in to your Plausible Analytics account") + "\n\n" +
			helpCenterLine(t, "sites-api", "Guest's e-mail address."))
		s, spans := findings(t, reply, r.Score(reply), rubric.BrandVocabulary)
		assert.Equal(t, 0.0, s.Value(), "every use of the vocabulary is a banned form")
		assert.Equal(t, []string{"Log in", "e-mail"}, spans)
		assert.Contains(t, s.Findings[0].Rule, `say "sign in", not "log in"`)
		assert.Contains(t, s.Findings[1].Rule, `say "email", not "e-mail"`)

		mixed := letter("You can sign in with your email. Then log in again.")
		s, _ = findings(t, mixed, r.Score(mixed), rubric.BrandVocabulary)
		assert.InDelta(t, 2.0/3, s.Value(), 1e-9, "two preferred uses, one banned")
	})

	t.Run("formatting", func(t *testing.T) {
		long := helpCenterLine(t, "google-analytics-import", "strict data retention limits")
		shout := helpCenterLine(t, "mediawiki-integration", "README.md")
		excited := helpCenterLine(t, "contribute", "Thank you for being interested")
		bold := helpCenterLine(t, "2fa", "**Account Settings**")
		reply := long + "\n\n" + shout + "\n\n" + excited + "\n\n" + bold
		s, spans := findings(t, reply, r.Score(reply), rubric.Formatting)
		var rules []string
		for _, f := range s.Findings {
			rules = append(rules, f.Rule)
		}
		all := strings.Join(rules, "\n")
		for _, want := range []string{"no greeting", "no sign-off", "sentence of 55 words (at most 40)", "word in capitals",
			"exclamation mark (at most 1)", "Markdown bold"} {
			assert.Contains(t, all, want)
		}
		assert.Contains(t, spans, "README")
		assert.Contains(t, spans, "!", "the second exclamation mark is named, the first allowed")
		assert.InDelta(t, 1.0/7, s.Value(), 1e-9, "six of the seven rules broken")
	})

	t.Run("human-sounding is left to a model", func(t *testing.T) {
		res := r.Score(letter("Thanks for asking."))
		s := res.Get(rubric.HumanSounding)
		assert.False(t, s.Scored(), "code never makes up a number for it")
		assert.Contains(t, s.NotScored, "judge model")
	})
}

// The local drafter's own shape of reply keeps every rule of the default rubric.
func TestDraftShapedReplyScoresOne(t *testing.T) {
	reply := "Hi,\n\nAnnual Pro and Business plans can be refunded in full within 14 days of the purchase date or the renewal date.\n\nIf anything is unclear, just reply to this email."
	res := rubric.Default().Score(reply)
	assert.Equal(t, "billing-default@1", res.Rubric)
	for _, c := range []string{rubric.ForbiddenPhrases, rubric.BrandVocabulary, rubric.Formatting, rubric.Tone} {
		s := res.Get(c)
		assert.True(t, s.Scored(), c)
		assert.Equal(t, 1.0, s.Value(), "%s: %+v", c, s.Findings)
		assert.Equal(t, rubric.ByCode, s.By)
	}
}

// A banned form that differs from the preferred one only in case is matched as written.
func TestCaseOnlyBrandForm(t *testing.T) {
	r, err := rubric.Parse("brand.yaml", []byte("name: brand\nbrand_vocabulary:\n  - preferred: Supportdraft\n    banned: [SupportDraft]\n"))
	require.NoError(t, err)
	reply := "Supportdraft drafts it. SupportDraft sends nothing."
	s, spans := findings(t, reply, r.Score(reply), rubric.BrandVocabulary)
	assert.Equal(t, []string{"SupportDraft"}, spans)
	assert.Equal(t, 0.5, s.Value())
}

// A judge model's reading joins the result: alone where code could not score, the lower of
// the two where both did.
func TestAddModel(t *testing.T) {
	res := rubric.Default().Score(letter("Unfortunately the window has closed."))
	res.AddModel(rubric.HumanSounding, 0.7, "Reads like a form letter.")
	res.AddModel(rubric.Tone, 0.9, "")
	h := res.Get(rubric.HumanSounding)
	assert.Equal(t, 0.7, h.Value())
	assert.Equal(t, rubric.ByModel, h.By)
	assert.Empty(t, h.NotScored)
	assert.Equal(t, "judge model: Reads like a form letter.", h.Findings[0].Rule)
	tone := res.Get(rubric.Tone)
	assert.Equal(t, rubric.ByCodeModel, tone.By)
	assert.InDelta(t, 2.0/3, tone.Value(), 1e-9, "code found the marker in one of three sentences: the lower reading stands")
}

func TestLoad(t *testing.T) {
	r, err := rubric.Load("")
	require.NoError(t, err)
	assert.Equal(t, "billing-default", r.Name)

	dir := t.TempDir()
	path := filepath.Join(dir, "team.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: team\nversion: 3\nforbidden_phrases: [no way]\n"), 0o600))
	r, err = rubric.Load(path)
	require.NoError(t, err)
	assert.Equal(t, "team@3", r.ID())
	assert.Equal(t, path, r.File())

	_, err = rubric.Load(filepath.Join(dir, "missing.yaml"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing.yaml")
}

// Every bad file is refused with the file and the field named.
func TestBadRubricFiles(t *testing.T) {
	tests := []struct{ name, yaml, field string }{
		{"unknown key", "name: x\nforbiden_phrases: [a]\n", "forbiden_phrases"},
		{"wrong type", "name: x\nformatting:\n  max_sentence_words: many\n", "max_sentence_words"},
		{"no name", "forbidden_phrases: [a]\n", `"name"`},
		{"empty phrase", "name: x\nforbidden_phrases: [ok, \"  \"]\n", "forbidden_phrases[1]"},
		{"phrase without words", "name: x\ntone:\n  avoid: [\"!!\"]\n", "tone.avoid[0]"},
		{"term without banned forms", "name: x\nbrand_vocabulary:\n  - preferred: email\n", "brand_vocabulary[0].banned"},
		{"banned is the preferred", "name: x\nbrand_vocabulary:\n  - preferred: email\n    banned: [email]\n", "brand_vocabulary[0].banned[0]"},
		{"negative limit", "name: x\nformatting:\n  max_paragraph_sentences: -2\n", "formatting.max_paragraph_sentences"},
		{"negative exclamations", "name: x\nformatting:\n  max_exclamations: -1\n", "formatting.max_exclamations"},
	}
	dir := t.TempDir()
	for i, tc := range tests {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml")
		require.NoError(t, os.WriteFile(path, []byte(tc.yaml), 0o600), i)
		_, err := rubric.Load(path)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), path, "%s: the file is named", tc.name)
		assert.Contains(t, err.Error(), tc.field, "%s: the field is named", tc.name)
	}
}
