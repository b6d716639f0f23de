package local

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// pick is one sentence chosen for the reply.
type pick struct {
	chunkID string
	text    string
	rank    int // chunk rank
	pos     int // sentence position in its chunk
	line    int // line of its chunk: a paragraph or list item
	score   float64
	extra   bool // from a chunk chosen for an open question
	sibling bool // from another section of a quoted document: it may only answer a clause
	title   bool // a subsection's title (subsections): quoted only before its first line
}

// pickSentences chooses up to maxQuoted sentences from the chosen chunks: those sharing
// the most question words, then presented best chunk first and in reading order inside a
// chunk, so the reply reads like the policy rather than a shuffled list. A sentence that
// shares only generic words ("plan", "account") with the question is never quoted, and
// neither are headings, questions, fragments of one or two words or sentences holding a
// template slot, which the guard would strike. When the customer
// asks how long, how much or when, sentences that state a number of that kind come first;
// a chunk chosen for an open question of the thread adds its best sentence, scored
// against that question; of parallel statements per plan or region, only the customer's.
// Each asking clause first claims the sentence that answers it best (clauseSentences),
// so the second question of a ticket is not crowded out by more sentences on the first.
func pickSentences(chunks []rankedChunk, scope accountScope, asks []string, idf text.IDF) []pick {
	var cands []pick
	for rank, rc := range chunks {
		q := rc.asked
		sentences, lines := text.SplitLinesNumbered(rc.ev.Text)
		fits := make([]scopeFit, len(sentences))
		ownSentence := false
		for i, s := range sentences {
			fits[i] = scope.fit(s)
			ownSentence = ownSentence || fits[i] == scopeOwn
		}
		heading := chunkHeading(rc.ev.Text)
		titles, under := subsections(rc.ev)
		// Every sentence of a chosen section shares its topic; the heading's words
		// count for each sentence, so "Bank transfer is available for ..." under
		// "Bank transfer" and a follow-up sentence are judged together.
		headWords := text.StemSet(rc.ev.Title + "\n" + heading)
		for pos, s := range sentences {
			if ownSentence && fits[pos] == scopeOther {
				continue // the same rule for another plan or region
			}
			s = withoutTrailingPointers(s)
			// The heading names the section; a heading of several sentences ("My payment
			// failed. What now?", a title cut short "… You can …") is not the policy's
			// statement either.
			if len(strings.Fields(s)) < 3 || (heading != "" && lines[pos] == 0) ||
				strings.HasSuffix(strings.TrimSpace(s), "?") || len(guard.Placeholders(s)) > 0 {
				continue // a template slot ("{LANG}", "%s") is struck by the guard whoever wrote it
			}
			words := text.StemSet(s)
			// The best section is quoted whole (its sentences are one answer); a second
			// one only where a sentence itself shares a word of substance.
			if rank > 0 && !sharesStrongWord(q.stems, words) && !statesKind(s, q.kinds) {
				continue
			}
			for st := range headWords {
				words[st] = true
			}
			// A FAQ section answers each question under a title of its own ("Can I
			// change the payment method?"): that title's words count for its answer.
			for st := range under[lines[pos]] {
				words[st] = true
			}
			score := weightedOverlap(q.stems, q.orderWeight, words)
			if statesKind(s, q.kinds) {
				score += 0.3
			}
			cands = append(cands, pick{chunkID: rc.ev.ChunkID, text: s, rank: rank, pos: pos, line: lines[pos], score: score,
				extra: rc.extra, sibling: rc.sibling, title: titles[lines[pos]]})
		}
	}
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].rank != cands[b].rank {
			return cands[a].rank < cands[b].rank
		}
		if cands[a].score != cands[b].score {
			return cands[a].score > cands[b].score
		}
		return cands[a].pos < cands[b].pos
	})
	var picks []pick
	seen := map[string]bool{}
	best := map[int]float64{}
	main := 0
	for _, c := range clauseSentences(cands, asks, idf) {
		if !c.extra && main == maxQuoted {
			continue
		}
		seen[text.Fold(c.text)] = true
		if _, ok := best[c.rank]; !ok {
			best[c.rank] = c.score
		}
		if !c.extra {
			main++
		}
		picks = append(picks, c)
	}
	for _, c := range cands {
		key := text.Fold(c.text)
		if c.sibling || seen[key] || (!c.extra && main == maxQuoted) {
			continue
		}
		if _, ok := best[c.rank]; ok && c.extra { // one sentence answers an open question
			continue
		}
		if b, ok := best[c.rank]; ok && c.rank > 0 && c.score < sentenceShare*b {
			continue
		}
		if _, ok := best[c.rank]; !ok {
			best[c.rank] = c.score
		}
		seen[key] = true
		if !c.extra {
			main++
		}
		picks = append(picks, c)
	}
	sort.SliceStable(picks, func(a, b int) bool {
		if picks[a].rank != picks[b].rank {
			return picks[a].rank < picks[b].rank
		}
		return picks[a].pos < picks[b].pos
	})
	return withoutDanglingTitles(picks)
}

// withoutDanglingTitles drops a subsection's title that the subsection's first line does
// not follow in the reply. Before it, the title says when or for what the line holds
// ("Once the billing period ends. Your dashboard is locked."); alone, it reads as a
// statement the company makes ("The payment for the marketplace subscription fails.").
func withoutDanglingTitles(picks []pick) []pick {
	var out []pick
	for i, p := range picks {
		followed := i+1 < len(picks) && picks[i+1].chunkID == p.chunkID && picks[i+1].line == p.line+1
		if p.title && !followed {
			continue
		}
		out = append(out, p)
	}
	return out
}

// subsections reads a chunk's text line by line against its Subheadings: titles are the
// lines that title a subsection ("How to cancel your subscription" or a FAQ's "The payment
// fails" above its answer names what follows, not something the company states), and
// under holds, for each line, the topic words of the title it stands under (nil before
// the first), one map per subsection.
func subsections(ev policy.Evidence) (titles map[int]bool, under []map[string]bool) {
	lines := strings.Split(ev.Text, "\n")
	titles, under = map[int]bool{}, make([]map[string]bool, len(lines))
	var words map[string]bool
	for i, line := range lines {
		if slices.Contains(ev.Subheadings, line) {
			titles[i], words = true, topicWords(line)
		}
		under[i] = words
	}
	return titles, under
}

// sentenceShare is how close to a chunk's best sentence another must score to be quoted too.
const sentenceShare = 0.6

// clauseSentences returns, for each asking clause in turn, the candidate that answers it
// best and is not claimed yet. A sentence answers a clause by the share of the clause's
// words of substance it holds, each weighted by its rarity over the evidence (so "invoice"
// in a billing knowledge base counts less than "PayPal"), and by stating a number of the
// kind the clause asks for. Only the sentence's own words count: the heading already
// chose the section. A clause no sentence holds a word of claims nothing; ties go to the
// better section, then to the sentence sharing more of the whole question. Only the
// sections always quoted claim (the best one and those chosen for an open question), and
// the other sections of the best ones' documents (siblingSections), so a claim never adds
// a document the reply would not cite anyway.
func clauseSentences(cands []pick, asks []string, idf text.IDF) []pick {
	var out []pick
	claimed := map[int]bool{}
	own := make([]map[string]bool, len(cands))
	for i, c := range cands {
		own[i] = text.StemSet(c.text)
	}
	for _, a := range asks {
		stems := clauseTopicStems(a)
		if len(stems) == 0 {
			continue
		}
		kinds := askedKinds(a)
		bestAt, bestScore := -1, 0.0
		for i, c := range cands {
			if claimed[i] || (c.rank > 0 && !c.extra && !c.sibling) {
				continue
			}
			share, _ := idf.Held(stems, own[i], nil)
			if share == 0 {
				continue
			}
			score := share
			if kinds != 0 && statesKind(c.text, kinds) {
				score += kindBonus
			}
			if score > bestScore {
				bestAt, bestScore = i, score
			}
		}
		if bestAt < 0 {
			continue
		}
		for _, i := range paragraphOf(cands, bestAt) {
			if !claimed[i] {
				claimed[i] = true
				out = append(out, cands[i])
			}
		}
	}
	return out
}

// maxParagraph is the most sentences a paragraph may hold to be quoted whole for the
// sentence of it that answers a clause.
const maxParagraph = 2

// paragraphOf returns the candidate at i with the other candidates of its paragraph or
// list item when that holds at most maxParagraph sentences: a short paragraph is one
// statement ("One month after locking, Plausible stops collecting data. Any data it sends
// will be dropped from that point."), and its other sentence often holds the number or
// the condition the answering one leans on.
func paragraphOf(cands []pick, i int) []int {
	var same []int
	for j, c := range cands {
		if c.chunkID == cands[i].chunkID && c.line == cands[i].line && c.rank == cands[i].rank {
			same = append(same, j)
		}
	}
	if len(same) > maxParagraph {
		return []int{i}
	}
	return same
}

// kindBonus is what stating the kind of number a clause asks for adds to a sentence's
// share of the clause's words: as much as the clause's main word.
const kindBonus = 0.5

// withoutTrailingPointers cuts the sentences that only point elsewhere (pointsElsewhere)
// off the end of a quotable unit, which a list item keeps whole ("… using SAML 2.0. See SSO
// documentation."): what is left is still the chunk's own text, from its start. A unit
// that is all pointers leaves nothing.
func withoutTrailingPointers(s string) string {
	sentences := text.Split(s)
	for len(sentences) > 0 && pointsElsewhere(sentences[len(sentences)-1].Text) {
		sentences = sentences[:len(sentences)-1]
	}
	if len(sentences) == 0 {
		return ""
	}
	return strings.TrimSpace(s[:sentences[len(sentences)-1].End])
}

// pointsElsewhere reports whether a sentence only sends the reader to another page ("See
// SSO documentation.", "For more details, contact us.", "Weitere Informationen finden Sie
// unter Rechnungen.") without the address to follow: help centres write them as links,
// and a knowledge base converted to text keeps the link's words but not where it led, so
// quoted they state nothing the customer can act on. A pointer that holds its address
// ("See this: https://…") is kept.
func pointsElsewhere(s string) bool {
	return pointer.MatchString(strings.TrimSpace(s)) && !strings.Contains(s, "://")
}

var pointer = regexp.MustCompile(`^(?i:see|refer to|read (?:the|our|more)|learn more|more on|more info|for more (?:information|info|details)|check out|click here|siehe|klicken sie hier|weitere informationen|mehr (?:dazu|informationen))\b`)
