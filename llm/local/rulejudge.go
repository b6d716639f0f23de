package local

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"

	"github.com/supportdraft/supportdraft/llm"
)

// RuleJudge is the local judge: lexical rules that are exact where they can be (verbatim
// quotes, numbers) and conservative where they cannot (paraphrase). It never says
// "supports" for a sentence whose numbers the quote does not state, so a fabricated
// figure cannot pass it. The zero value is ready to use.
type RuleJudge struct{}

// Thresholds of the rules, as shares of a sentence's content words.
const (
	// mostlyCovered is how much of a sentence the quote (or the evidence) must contain
	// for the sentence to count as supported: more than half, so one added qualifier is
	// tolerated but a new idea is not.
	mostlyCovered = 0.6
	// sameTopic is how much of a sentence must appear in the quote before differing
	// numbers read as a contradiction rather than as two unrelated statements.
	sameTopic = 0.5
)

// JudgeClaim implements Judge. The rules, in order:
//   - quote found verbatim (whitespace-normalised, case-insensitive) in the chunk:
//     a number in the sentence that the quote states differently → contradicts;
//     a number the quote does not state at all → not_enough;
//     fewer than mostlyCovered of the sentence's content words in the quote → not_enough;
//     otherwise → supports.
//   - quote not in the chunk: never supports. The sentence is still compared with the
//     chunk's closest sentence, because a made-up quote must not hide that the real
//     policy states a different number → contradicts, else not_enough.
func (RuleJudge) JudgeClaim(_ context.Context, sentence, quote, chunkText string) (llm.Judgement, error) {
	sFacts := text.Quantities(sentence)
	sWords := text.ContentStems(sentence)

	if !containsQuote(chunkText, quote) {
		best, share := closestSentence(sWords, chunkText)
		if conflict := conflictingFacts(sFacts, text.Quantities(best)); len(conflict) > 0 && share >= sameTopic {
			return llm.Judgement{Verdict: llm.VerdictContradicts, Reasoning: fmt.Sprintf(
				"quote not found verbatim in the chunk; the chunk says %q, which states %s where the sentence states %s",
				best, joinFacts(text.Quantities(best)), joinFacts(conflict))}, nil
		}
		return llm.Judgement{Verdict: llm.VerdictNotEnough, Reasoning: "quote not found verbatim in the chunk (whitespace-normalised, case-insensitive), so it cannot support the sentence"}, nil
	}

	qFacts := text.Quantities(quote)
	share := coveredShare(sWords, text.StemSet(quote))
	if conflict := conflictingFacts(sFacts, qFacts); len(conflict) > 0 && share >= sameTopic {
		return llm.Judgement{Verdict: llm.VerdictContradicts, Reasoning: fmt.Sprintf(
			"quote is verbatim and on the same topic (%.0f%% of the sentence's words) but states %s where the sentence states %s",
			100*share, joinFacts(qFacts), joinFacts(conflict))}, nil
	}
	if missing := text.Missing(sFacts, qFacts); len(missing) > 0 {
		return llm.Judgement{Verdict: llm.VerdictNotEnough, Reasoning: fmt.Sprintf(
			"quote is verbatim but does not state %s, which the sentence states", joinFacts(missing))}, nil
	}
	if share < mostlyCovered {
		return llm.Judgement{Verdict: llm.VerdictNotEnough, Reasoning: fmt.Sprintf(
			"quote is verbatim but covers only %.0f%% of the sentence's content words (needs %.0f%%): %s not in the quote",
			100*share, 100*mostlyCovered, strings.Join(uncovered(sWords, text.StemSet(quote)), ", "))}, nil
	}
	reason := fmt.Sprintf("quote is verbatim in the chunk and covers %.0f%% of the sentence's content words", 100*share)
	if len(sFacts) > 0 {
		reason += "; every number (" + joinFacts(sFacts) + ") is in the quote"
	}
	return llm.Judgement{Verdict: llm.VerdictSupports, Reasoning: reason}, nil
}

// closestSentence returns the sentence of chunkText that covers most of words, and that share.
func closestSentence(words []string, chunkText string) (string, float64) {
	best, bestShare := "", -1.0
	for _, s := range text.SplitLines(chunkText) {
		if share := coveredShare(words, text.StemSet(s)); share > bestShare {
			best, bestShare = s, share
		}
	}
	return best, max(bestShare, 0)
}

func uncovered(words []string, have map[string]bool) []string {
	var out []string
	for _, w := range words {
		if !have[w] {
			out = append(out, w)
		}
	}
	return out
}

// Score implements Judge:
//   - faithfulness is the share of the reply's substantive sentences (greeting and closing
//     excluded) whose content words are mostly in the evidence and whose numbers all are;
//     a reply with no substantive sentence scores 0, because it says nothing worth sending;
//   - coverage is questionCoverage: per asking sentence, the share of what it asks about
//     that the reply's substantive sentences hold, halved when it asks for a number of a
//     kind the reply does not state;
//   - fit is the best retrieval score of the evidence, clamped to [0,1], or the best
//     lexical overlap of the question with a chunk when no evidence carries a score.
func (RuleJudge) Score(_ context.Context, question, reply string, evidence []policy.Evidence) (llm.Scores, error) {
	var corpus strings.Builder
	for _, ev := range evidence {
		corpus.WriteString(ev.Title + "\n" + ev.Text + "\n")
	}
	evWords, evFacts := text.StemSet(corpus.String()), text.Quantities(corpus.String())

	body := substantiveSentences(reply)
	faithful := 0
	for _, s := range body {
		if coveredShare(text.ContentStems(s), evWords) >= mostlyCovered && len(text.Missing(text.Quantities(s), evFacts)) == 0 {
			faithful++
		}
	}
	var sc llm.Scores
	if len(body) > 0 {
		sc.Faithfulness = float64(faithful) / float64(len(body))
	}
	q := text.ContentStems(question)
	sc.Coverage = questionCoverage(question, strings.Join(body, " "))

	scored := false
	for _, ev := range evidence {
		if ev.Score != 0 {
			scored = true
			sc.Fit = max(sc.Fit, clamp01(ev.Score))
		}
	}
	if !scored {
		for _, ev := range evidence {
			sc.Fit = max(sc.Fit, overlap(q, text.StemSet(ev.Title+"\n"+ev.Text)))
		}
	}
	return sc, nil
}

var (
	greetingLine = regexp.MustCompile(`(?i)^(hi|hello|hey|dear|hallo|liebe|lieber|good (morning|afternoon|evening)|guten (tag|morgen|abend))\b[^.!?]*[,!]?$`)
	closingLine  = regexp.MustCompile(`(?i)^(thanks|thank you|best|kind regards|regards|best regards|cheers|viele grüße|beste grüße|mit freundlichen grüßen|danke)\b`)
)

// substantiveSentences returns the reply's sentences without greeting, sign-off and the
// fixed closing lines: those are courtesy, not claims, and must not count for or against
// faithfulness.
func substantiveSentences(reply string) []string {
	var out []string
	for _, s := range text.SplitLines(reply) {
		words := len(strings.Fields(s))
		switch {
		case words <= 6 && greetingLine.MatchString(s),
			words <= 8 && closingLine.MatchString(s),
			s == closingEN, s == closingDE,
			s == llm.AbstainEN, s == llm.AbstainDE, // says no policy answers: nothing to be faithful to
			len(text.ContentStems(s)) == 0 && len(text.Quantities(s)) == 0:
			continue
		}
		out = append(out, s)
	}
	return out
}
