package inbox

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/supportdraft/supportdraft/text"
)

// Classifier is the local, deterministic triage: weighted cue words per bucket of the
// agent's set, the subject counting double. It needs no network and answers in
// microseconds, so it runs as a local activity.
type Classifier struct {
	// Buckets is the agent's set; nil is the default agent's (billing).
	Buckets BucketSet
}

// Remote is false: the classifier runs in process.
func (Classifier) Remote() bool { return false }

// cue is a word or phrase that points at a bucket; Cues describes how one matches.
type cue struct {
	text   string
	weight int
}

// Triage scores the message against every bucket. A thank-you or FYI that asks nothing
// needs no response. A message whose off-topic cues (the BucketNotBilling entry: logins,
// bugs) outweigh its best bucket twice over, or that has only off-topic cues, is
// BucketNotBilling: not the agent's topic. A message with no cue at all, either way, is
// one the cue words cannot read ("Do you sponsor open-source projects?"): it is
// BucketNotBilling but Unsure, so the funnel drafts it for review instead of skipping it.
func (cl Classifier) Triage(_ context.Context, m *Message) (*Triage, error) {
	own := text.OwnText(m.Body)
	subject, body := normalise(m.Subject), normalise(own)
	if ack, why := acknowledgement(own, body); ack {
		return &Triage{NeedsResponse: false, Reason: why}, nil
	}
	best, bestScore, bestCue := "", 0, ""
	for _, b := range cl.Buckets.topics() {
		score, first := 0, ""
		for _, c := range b.Cues {
			n := 2*count(subject, c) + count(body, c)
			if n > 0 && first == "" && c.weight > 0 {
				first = strings.TrimPrefix(c.text, "*")
			}
			score += n * c.weight
		}
		if score > bestScore {
			best, bestScore, bestCue = b.Name, score, first
		}
	}
	off := 0
	for _, c := range cl.Buckets.offTopic() {
		off += (2*count(subject, c) + count(body, c)) * c.weight
	}
	if best == "" && off == 0 {
		return &Triage{NeedsResponse: true, Bucket: BucketNotBilling, Unsure: true, Reason: "no cue of any bucket, billing or not, in subject or body: the cue words cannot tell"}, nil
	}
	if best == "" || off > 2*bestScore {
		return &Triage{NeedsResponse: true, Bucket: BucketNotBilling, Reason: "no cue of this agent's buckets in subject or body"}, nil
	}
	return &Triage{NeedsResponse: true, Bucket: best, Reason: fmt.Sprintf("%s cue %q (score %d)", best, bestCue, bestScore)}, nil
}

// count is how often a cue occurs in normalised text (" word word ").
func count(text string, c cue) int {
	if strings.HasPrefix(c.text, "*") {
		return strings.Count(text, c.text[1:])
	}
	return strings.Count(text, " "+c.text)
}

// normalise lower-cases text's normalised form (text.Normalize: disguises removed) and
// turns every run of non-letters, non-digits into one space, with a space at each end,
// so cues match at word starts.
func normalise(s string) string {
	var b strings.Builder
	b.WriteByte(' ')
	space := true
	for _, r := range strings.ToLower(text.Normalize(s)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

var (
	// ackCues are thanks and confirmations in English and German.
	ackCues = []string{" thanks", " thank you", " thx", " cheers", " much appreciated", " appreciate it", " got it", " all good", " all sorted",
		" sorted now", " that fixed", " that worked", " works now", " working now", " resolved", " perfect", " great stuff", " received it",
		" danke", " vielen dank", " besten dank", " herzlichen dank", " hat geklappt", " hat funktioniert", " funktioniert wieder", " erledigt",
		" passt", " perfekt", " alles klar", " super "}
	// fyiCues say no answer is expected.
	fyiCues = []string{" fyi", " for your information", " for your records", " no action needed", " no need to reply", " no reply needed",
		" nur zur info", " zur info", " zur kenntnis", " kein handlungsbedarf", " keine antwort nötig"}
	// askCues mean the sender still wants something, whatever thanks surround it.
	askCues = []string{" please", " pls", " could you", " can you", " would you", " can we", " could we", " i need", " we need", " i want",
		" we want", " i would like", " we would like", " i d like", " we d like", " let me know", " still", " but ", " however", " not yet",
		" haven t", " hasn t", " didn t", " doesn t", " isn t", " wasn t", " how ", " when ", " why ", " where ", " which ",
		" bitte", " können sie", " könnten sie", " können wir", " ich möchte", " wir möchten", " ich brauche", " wir brauchen", " aber ",
		" noch nicht", " immer noch", " trotzdem", " leider", " wie ", " wann ", " warum ", " wo "}
)

// acknowledgement reports a short thank-you, confirmation or FYI that asks nothing: it
// needs no response. own is the message proper as written (for question marks), norm
// the same normalised.
func acknowledgement(own, norm string) (bool, string) {
	if strings.Contains(own, "?") || len(strings.Fields(norm)) > 60 {
		return false, ""
	}
	for _, c := range askCues {
		if strings.Contains(norm, c) {
			return false, ""
		}
	}
	for _, c := range ackCues {
		if strings.Contains(norm, c) {
			return true, fmt.Sprintf("a thank-you or confirmation (%q) that asks nothing", strings.TrimSpace(c))
		}
	}
	for _, c := range fyiCues {
		if strings.Contains(norm, c) {
			return true, fmt.Sprintf("for information only (%q), asks nothing", strings.TrimSpace(c))
		}
	}
	return false, ""
}
