// Package text is the one place that reads natural-language text: a mail's message proper
// (OwnText: no quoted mail, no sign-off or signature), sentences, quantities
// (numbers, durations, money, percentages, number words, English and German), words and
// their stems, stopwords and the German→English billing glossary. The drafter, the judge,
// the guard, trace, the hashing embedder and the eval all read text through it, so the
// guard cannot see a sentence or a number differently from the drafter whose output it
// checks. Everything here is lexical and deterministic: the same input always reads the
// same way, and a person can predict how.
package text
