package local

import (
	"slices"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/llm/llmtest"
	"github.com/supportdraft/supportdraft/policy"
)

// practiceSections are sections of the practice corpus (Quokka Backup's billing policy,
// written outside the team), verbatim: the answerability tests read text nobody tuned
// the signals on.
func practiceSections(t *testing.T) []policy.Evidence {
	return llmtest.Evidence(t, "practice.json")
}

// practiceSection is the one practice section whose chunk ID ends in "#"+id.
func practiceSection(t *testing.T, id string) []policy.Evidence {
	t.Helper()
	return []policy.Evidence{llmtest.Section(t, practiceSections(t), id)}
}

// A section that shares a word of a question (a credit) but not what it is asked of (an
// outage) does not answer it: the unheld word weighs most, as no eligible section holds
// it. The same section answers a question about what it states.
func TestSubjectSupportNeedsTheHeavyWordsInOneSection(t *testing.T) {
	t.Parallel()
	idf := evidenceIDF(practiceSections(t))
	section := practiceSection(t, "paying-by-other-means")
	got := answerClauses([]string{"Do we get a credit on our invoice for the downtime last Tuesday?"}, section, idf)
	if len(got) != 1 || got[0].answered() || !slices.Contains(got[0].lacking, "downtim") || slices.Contains(got[0].lacking, "invoic") {
		t.Fatalf("downtime question over %s: %+v, want unanswered, lacking the downtime and not the invoice", section[0].ChunkID, got)
	}
	got = answerClauses([]string{"Can I pay my Solo invoice by bank transfer?"}, section, idf)
	if len(got) != 1 || !got[0].answered() {
		t.Fatalf("bank transfer question over %s: %+v, want answered", section[0].ChunkID, got)
	}
}

// A clause that asks how long is answered by a section that states a duration, or says
// when in words ("at the end of the current billing period"), and not by one that only
// says how.
func TestAnswerTypeFollowsTheQuestion(t *testing.T) {
	t.Parallel()
	idf := evidenceIDF(practiceSections(t))
	ask := []string{"How long do you keep our backups after we cancel?"}
	if got := answerClauses(ask, practiceSection(t, "how-to-cancel"), idf); len(got) != 1 || got[0].typed {
		t.Errorf("how long over the how-to-cancel section: %+v, want no duration found", got)
	}
	if got := answerClauses(ask, practiceSection(t, "your-backups-after-cancelling"), idf); len(got) != 1 || !got[0].answered() {
		t.Errorf("how long over the backups section: %+v, want answered (30 days)", got)
	}
	when := []string{"When does the downgrade to Solo happen?"}
	if got := answerClauses(when, practiceSection(t, "downgrades"), idf); len(got) != 1 || !got[0].answered() {
		t.Errorf("when over the downgrades section: %+v, want answered (at the end of the billing period)", got)
	}
}

// A reply that answers one clause of a message and not the other names the open one.
func TestExtractiveNamesTheClauseNoQuotedSectionAnswers(t *testing.T) {
	t.Parallel()
	d := answered(t, llm.Request{Subject: "payment", Evidence: practiceSections(t),
		Account: policy.Account{Plan: "solo", Region: "us"}, Messages: []llm.Message{{Author: "customer",
			Body: "Can I pay my Solo invoice by bank transfer? And is there a loyalty reward for long-time customers?"}}},
		"cards only", "the bank transfer answer")
	if len(d.Unanswered) != 1 || !strings.Contains(d.Unanswered[0].Question, "loyalty") || !strings.Contains(d.Note, "loyalty") {
		t.Errorf("unanswered %+v, note %q: want the loyalty question named", d.Unanswered, d.Note)
	}
}

// The noun of a "what …" phrase is what a clause asks about, not the way it asks: a
// question about a switching discount (help-center ticket wording) keeps "discount" in
// its subject, so a section on another discount is judged against it.
func TestWhatPhraseNounStaysInTheSubject(t *testing.T) {
	t.Parallel()
	for clause, want := range map[string]string{
		"Do you have a switching discount for customers coming from GA?": "discount",
		"What discount do nonprofits get on yearly billing?":             "discount",
	} {
		got := clauseTopicStems(clause)
		if !slices.Contains(got, want) {
			t.Errorf("clauseTopicStems(%q) = %v, want %q among them", clause, got, want)
		}
	}
	if got := clauseTopicStems("What's the deadline for the refund request?"); slices.Contains(got, "deadlin") {
		t.Errorf("asking words are still not the subject: %v", got)
	}
}

// A misspelt word is read as written when its stem matches nothing: the stemmer cuts
// "pyament" to "pya", too short for a one-typo match, while "pyament" is one swap from
// "payment" as the section writes it. A stopword with a letter doubled names nothing.
func TestMisspeltWordsAreReadAsWritten(t *testing.T) {
	t.Parallel()
	idf := evidenceIDF(practiceSections(t))
	section := practiceSection(t, "what-happens-to-the-account")
	got := answerClauses([]string{"What happens if the pyament still fails?"}, section, idf)
	if len(got) != 1 || !got[0].answered() || len(got[0].lacking) != 0 {
		t.Fatalf("misspelt payment over %s: %+v, want answered with nothing lacking", section[0].ChunkID, got)
	}
	if got := clauseTopicStems("Is thiss invoice froom May?"); !slices.Equal(got, []string{"invoic"}) {
		t.Errorf("clauseTopicStems = %v, want the invoice alone", got)
	}
}

// A word the section writes whole inside the customer's ("Education" in "educational") is
// held although their stems differ ("educ", "education").
func TestADerivedWordIsHeldByItsRoot(t *testing.T) {
	t.Parallel()
	section := []policy.Evidence{{ChunkID: "billing/discounts@1#education", Title: "Discounts", Area: "discounts",
		Text: "Education discount\nSchools and universities get 40% off any annual plan."}}
	idf := evidenceIDF(append(section, practiceSections(t)...))
	got := answerClauses([]string{"How much off do educational institutions get?"}, section, idf)
	if len(got) != 1 || !got[0].answered() || slices.Contains(got[0].lacking, "education") {
		t.Fatalf("educational over the education section: %+v, want answered, education held", got)
	}
}
