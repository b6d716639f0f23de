package inbox

import (
	"fmt"
	"sort"
	"strings"

	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// The triager reads a message on its own; the policy corpus reads it too. A message that
// shares several specific words with one eligible policy section ("stop being charged"
// beside "Cancelling stops the next charge") is very likely about what that section
// covers, whatever words the triager was written for. Ground weighs a triage answer with
// that evidence: a message the triager called not billing but the corpus answers is not
// skipped, it is drafted for review (the funnel cannot tell which reading is right), in
// the bucket the section's area and title name.

// TriageK is how many eligible sections a message is read against.
const TriageK = 10

// A section is evidence that a message is about what it covers when it shares at least
// minShared specific words with it (held by some retrieved sections, not all) and either
// holds minShare of the message's words by weight, shares manyShared specific words, or
// finds minShared of them in its document's title or its heading: a product question
// shares a word or two with billing policy ("backup", "workspace"), a chatty billing
// question several of the section's own ("charged", "billing period"), and a title or
// heading names what a section is about, as the lexical arm weighs it (title > heading >
// body), so two of its words rarely meet in a message by chance ("holder name" beside
// "Name mismatch" of "Failed and returned payouts").
const (
	minShare   = 0.5
	minShared  = 2
	manyShared = 3
)

// Query is the text of a message that retrieval reads for triage: its subject and its
// message proper (text.OwnText: no quoted mail, sign-off or signature).
func Query(m *Message) string {
	return m.Subject + "\n" + text.OwnText(m.Body)
}

// Ground weighs t against the eligible sections closest to the message (evidence), naming
// the bucket from the agent's set (nil: the default agent's).
func Ground(t *Triage, m *Message, evidence []policy.Evidence, buckets BucketSet) *Triage {
	if t == nil || !t.NeedsResponse || t.Bucket != BucketNotBilling || len(evidence) == 0 {
		return t
	}
	ev, share, shared := closestSection(Query(m), evidence)
	if len(shared) < minShared || (share < minShare && len(shared) < manyShared && titled(ev, shared) < minShared) {
		return t
	}
	out := *t
	out.Unsure = true
	if b := sectionBucket(ev, buckets); b != "" {
		out.Bucket = b
	}
	out.Reason = fmt.Sprintf("%s; but eligible policy %s holds %.0f%% of it (%s): drafted for review", t.Reason,
		ev.ChunkID, 100*share, strings.Join(shared, ", "))
	return &out
}

// closestSection returns the section that holds the largest weighted share of the
// message's words (inverse document frequency over the retrieved sections, so a word all
// of them hold counts least), that share, and the specific words it shares: those not
// every retrieved section holds.
func closestSection(query string, evidence []policy.Evidence) (policy.Evidence, float64, []string) {
	texts := make([]string, len(evidence))
	for i, ev := range evidence {
		texts[i] = ev.Title + "\n" + ev.Text
	}
	idf := text.NewIDF(texts)
	var stems []string
	seen := map[string]bool{}
	for _, st := range text.ContentStems(query) {
		if !seen[st] && len([]rune(st)) >= 4 {
			seen[st] = true
			stems = append(stems, st)
		}
	}
	var best policy.Evidence
	bestShare, bestShared := -1.0, []string(nil)
	for i, ev := range evidence {
		have := text.StemSet(texts[i])
		share, _ := idf.Held(stems, have, nil)
		if share <= bestShare {
			continue
		}
		var shared []string
		for _, st := range stems {
			if have[st] && idf.Weight(st) > 1 {
				shared = append(shared, st)
			}
		}
		best, bestShare, bestShared = ev, share, shared
	}
	sort.Strings(bestShared)
	return best, bestShare, bestShared
}

// titled counts the stems of shared that the section's document title or heading holds.
func titled(ev policy.Evidence, shared []string) int {
	names := ev.Title
	if line, _, _ := strings.Cut(ev.Text, "\n"); strings.HasSuffix(ev.ChunkID, "#"+policy.Slug(line)) {
		names += "\n" + line
	}
	have := text.StemSet(names)
	n := 0
	for _, st := range shared {
		if have[st] {
			n++
		}
	}
	return n
}

// sectionBucket is the bucket of buckets whose policy words the section's area and title
// share most; "" when none.
func sectionBucket(ev policy.Evidence, buckets BucketSet) string {
	have := text.StemSet(ev.Area + "\n" + ev.Title)
	best, bestN := "", 0
	for _, b := range buckets.topics() {
		n := 0
		for st := range text.StemSet(b.PolicyWords) {
			if have[st] {
				n++
			}
		}
		if n > bestN {
			best, bestN = b.Name, n
		}
	}
	return best
}
