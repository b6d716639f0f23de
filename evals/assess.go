package evals

import (
	"slices"
	"strconv"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/evals/dataset"
)

// The four QA labels a draft gets, as the design's reviewers use them.
const (
	// LabelGrounded: an answer whose every material sentence is backed by a cited chunk
	// eligible at the ticket's instant, that cites no ineligible version, states no
	// forbidden fact, states every must_include fact and cites an expected version.
	LabelGrounded = "grounded"
	// LabelIncomplete: nothing in it is wrong, but it misses what the customer needs: a
	// must_include fact is absent, no expected version is cited, or the ticket is one no
	// policy answers (the draft answered something else, and the agent must write it).
	LabelIncomplete = "incomplete"
	// LabelUnsupported: at least one material sentence is not backed by an eligible cited
	// chunk carrying its numbers, or the draft cites a version not eligible at the ticket's
	// instant, or it states a must_not_include fact. One such sentence is enough: it is
	// the failure a busy agent would send.
	LabelUnsupported = "unsupported"
	// LabelAbstained: the draft declined to answer. It is useful when the ticket's label
	// says no eligible policy answers the question (expect.answerable = false).
	LabelAbstained = "abstained"
)

// Labels lists the QA labels in the order reports show them.
var Labels = []string{LabelGrounded, LabelIncomplete, LabelUnsupported, LabelAbstained}

// Outcome is one ticket replayed in one arm: the draft record read back from the store,
// or the error that stopped it.
type Outcome struct {
	Ticket    *dataset.Labelled
	Iteration *drafts.Saved // nil when no draft was built
	Err       string
}

// Case is the eval's verdict on one draft, with the evidence for it, so a reader of the
// JSON can see why a ticket got its label. It holds no ticket text.
type Case struct {
	TicketID   string  `json:"ticket_id"`
	Area       string  `json:"area,omitempty"`
	Label      string  `json:"label,omitempty"`  // "" when the draft failed
	Useful     *bool   `json:"useful,omitempty"` // abstentions of labelled tickets only
	Confidence float64 `json:"confidence"`
	// RawConfidence is the confidence before calibration (drafts.Confidence): what
	// `supportdraft calibrate` fits a mapping on.
	RawConfidence float64 `json:"raw_confidence"`
	// Cited is every doc_id@version the answer relies on (not set for abstentions).
	Cited      []string `json:"cited,omitempty"`
	StaleCited []string `json:"stale_cited,omitempty"`
	// MaterialSentences counts the kept, flagged sentences of the reply.
	MaterialSentences    int      `json:"material_sentences"`
	UnsupportedSentences []string `json:"unsupported_sentences,omitempty"`
	FactsExpected        int      `json:"facts_expected"`
	FactsFound           int      `json:"facts_found"`
	MissingFacts         []string `json:"missing_facts,omitempty"`
	Violations           []string `json:"violations,omitempty"`
	// Reply and Note are the draft as the agent would see it, so a miss can be read
	// (which sentence was quoted, what the abstention note named) without a replay.
	Reply string `json:"reply,omitempty"`
	Note  string `json:"note,omitempty"`
	Error string `json:"error,omitempty"`
	// Rubric is the draft's quality score per rubric criterion; null for a criterion
	// nothing scored (human-sounding without a judge model).
	Rubric map[string]*float64 `json:"rubric,omitempty"`
	// Answerable is the label's answerability (nil for an unlabelled ticket) and Signals
	// what the writer read to decide it: the samples the answerability model is fitted on.
	Answerable *bool              `json:"answerable,omitempty"`
	Signals    map[string]float64 `json:"signals,omitempty"`

	expect        *dataset.Expect
	abstained     bool
	citesExpected bool
	citedExpected int // cited versions that are in expect.cite
}

// Failed reports whether no draft was built for the ticket.
func (c Case) Failed() bool { return c.Label == "" }

// Unanswerable reports whether the ticket's label says no eligible policy answers it.
func (c Case) Unanswerable() bool { return c.expect != nil && !c.expect.Answerable }

// Drafted reports whether the draft answers (was built and did not abstain).
func (c Case) Drafted() bool { return !c.Failed() && !c.abstained }

// Assess judges one outcome against the eval's own view of the corpus, at the ticket's
// updated_at for its plan and region, whatever instant the draft claims to be bound to:
// a replay that drafted at the wrong time must show as stale.
//
// A material sentence is one the guard flagged (numbers, durations, commercial verbs,
// eligibility, promises, legal positions) and kept in the reply. It is supported when one
// of the chunks the draft cites for it (the guard's source for that sentence, or a chunk of
// any claim that survived the checks) is eligible at the ticket's instant for the ticket's
// plan and region, and that chunk's text carries every quantity of the sentence (by
// text.Quantities key, so "fourteen days" = "14 days", "one month" ≠ "30 days"). The
// draft's own verdicts are not trusted: a similarity-only baseline passes its own guard
// by quoting a superseded chunk, and this is where it shows.
func Assess(o Outcome, src *Sources) Case {
	t := o.Ticket
	c := Case{TicketID: t.TicketID, expect: t.Expect}
	if t.Expect != nil {
		c.Area = t.Expect.Area
		c.Answerable = &t.Expect.Answerable
		if t.Expect.Answerable {
			c.FactsExpected = len(t.Expect.MustInclude)
			c.MissingFacts = slices.Clone(t.Expect.MustInclude)
		}
	}
	r := o.Iteration
	if r == nil {
		c.Error = o.Err
		return c
	}
	at, account := t.UpdatedAt, t.Account.Eligibility()
	c.Confidence, c.abstained = r.Confidence, r.Abstained
	c.Reply, c.Note, c.Signals = r.Reply, r.Note, r.Signals
	c.RawConfidence = drafts.Confidence(r.Scores, r.Unsupported)
	if r.Rubric != nil {
		c.Rubric = map[string]*float64{}
		for _, sc := range r.Rubric.Scores {
			c.Rubric[sc.Criterion] = sc.Score
		}
	}

	claimChunks := supportedChunks(r)
	for _, s := range r.Sentences {
		if !s.Kept || !s.Flagged {
			continue
		}
		c.MaterialSentences++
		keys := sentenceKeys(s.Text)
		backed := false
		for _, id := range appendUnique(claimChunks, s.SourceID) {
			if src.ChunkEligible(id, at, account) && src.Carries(id, keys) {
				backed = true
				break
			}
		}
		if !backed {
			c.UnsupportedSentences = append(c.UnsupportedSentences, s.Text)
		}
	}
	if !r.Abstained {
		c.Cited = citedVersions(r, claimChunks, src)
		for _, ref := range c.Cited {
			if !src.VersionEligible(ref, at, account) {
				c.StaleCited = append(c.StaleCited, ref)
			}
		}
	}
	if e := t.Expect; e != nil {
		for _, ref := range c.Cited {
			if slices.Contains(e.Cite, ref) {
				c.citedExpected++
			}
		}
		c.citesExpected = c.citedExpected > 0
		c.MissingFacts = nil
		if e.Answerable {
			for _, f := range e.MustInclude {
				if dataset.Present(f, r.Reply) {
					c.FactsFound++
				} else {
					c.MissingFacts = append(c.MissingFacts, f)
				}
			}
		}
		for _, f := range e.MustNotInclude {
			if dataset.Present(f, r.Reply) {
				c.Violations = append(c.Violations, f)
			}
		}
	}
	c.Label, c.Useful = label(c)
	return c
}

// label applies the QA rule, worst finding first: abstained, else unsupported, else
// incomplete, else grounded. Without an expect block only grounded, unsupported and
// abstained (usefulness unknown) can be told apart.
func label(c Case) (string, *bool) {
	if c.abstained {
		if c.expect == nil {
			return LabelAbstained, nil
		}
		useful := !c.expect.Answerable
		return LabelAbstained, &useful
	}
	if len(c.UnsupportedSentences) > 0 || len(c.StaleCited) > 0 || len(c.Violations) > 0 {
		return LabelUnsupported, nil
	}
	if e := c.expect; e != nil {
		if !e.Answerable || c.FactsFound < c.FactsExpected || (len(e.Cite) > 0 && !c.citesExpected) {
			return LabelIncomplete, nil
		}
	}
	return LabelGrounded, nil
}

// supportedChunks are the chunks of the claims that survived every check: what the reply
// cites.
func supportedChunks(r *drafts.Saved) []string {
	var out []string
	for _, cl := range r.Claims {
		if cl.Supported() {
			for _, id := range cl.ChunkIDs {
				out = appendUnique(out, id)
			}
		}
	}
	return out
}

// citedVersions is every version an answer relies on: those it is bound to, those of its
// surviving claims, and those the guard used to keep a sentence. Sorted.
func citedVersions(r *drafts.Saved, claimChunks []string, src *Sources) []string {
	var out []string
	for _, b := range r.Bound {
		out = appendUnique(out, b.DocID+"@"+strconv.Itoa(b.Version))
	}
	for _, id := range claimChunks {
		out = appendUnique(out, src.VersionOf(id))
	}
	for _, s := range r.Sentences {
		if s.Kept && s.SourceID != "" {
			out = appendUnique(out, src.VersionOf(s.SourceID))
		}
	}
	slices.Sort(out)
	return out
}

// appendUnique appends v to a copy-safe list unless it is empty or already there.
func appendUnique(list []string, v string) []string {
	if v == "" || slices.Contains(list, v) {
		return list
	}
	return append(slices.Clip(list), v)
}
