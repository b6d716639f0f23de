// Package provenance answers the question to ask before anyone touches a prompt when a draft
// asserted a term nobody expected: where could it have come from? It searches every
// version of the corpus (drafts, superseded versions, every locale, the help center and
// the macros) by wording and by concept, and says which of the defects it is, because
// each needs a different fix:
//
//   - absent: nobody wrote it; the drafter invented it, and the guard must strike it;
//   - present but not eligible: it is written only where this account may not read it
//     (stale, draft, another plan, region or locale): a scoping or index problem;
//   - present and contradicted: an eligible version states another value for the same
//     term: fix it at the document, not in the prompt.
//
// A fourth answer, present and eligible, means the claim is grounded (Trace, the
// `supportdraft trace` command). The package also compares the account a draft was built
// for with the account now (CheckAccount): a correct policy applied to a stale entitlement
// is the other way a true-looking sentence goes wrong. It is pure: the command line reads
// the files and the store.
package provenance

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/statements"
	"github.com/supportdraft/supportdraft/text"
)

// Outcome is the one answer a trace gives.
type Outcome string

// The outcomes of a trace, from the seed's three defects plus the grounded case.
const (
	Absent              Outcome = "absent"               // no version states it
	PresentNotEligible  Outcome = "present_not_eligible" // stated only where the account may not read it
	PresentStale        Outcome = "present_stale"        // stated in versions the account could read once, retired since
	PresentContradicted Outcome = "present_contradicted" // an eligible version states another value
	PresentEligible     Outcome = "present_eligible"     // an eligible version states it: grounded
)

// Match is one sentence of the corpus that states the term.
type Match struct {
	Ref      string `json:"ref"`      // doc_id@version
	ChunkID  string `json:"chunk_id"` // doc_id@version#anchor
	Path     string `json:"path"`     // the file to fix
	Source   string `json:"source"`   // wiki | helpcenter | macro
	Status   string `json:"status"`   // draft | approved | superseded
	Locale   string `json:"locale"`
	Quote    string `json:"quote"`
	How      string `json:"how"` // what matched: wording, amounts, verbs, topic words
	Eligible bool   `json:"eligible"`
	WhyNot   string `json:"why_not"` // "" when eligible
	// Stale: the account could read this version once; it was superseded or expired since.
	Stale bool `json:"stale,omitempty"`
}

// SentReply is a reply the help desk reported sending, with its text.
type SentReply struct {
	TicketID  string    `json:"ticket_id"`
	Iteration int       `json:"iteration"`
	SentAt    time.Time `json:"sent_at"`
	Text      string    `json:"-"`
}

// SentMatch is a sentence of a sent reply that states the term: where it reached a customer.
type SentMatch struct {
	TicketID  string    `json:"ticket_id"`
	Iteration int       `json:"iteration"`
	SentAt    time.Time `json:"sent_at"`
	Quote     string    `json:"quote"`
	How       string    `json:"how"`
}

// Statement is a sentence of an eligible version that states another value for the term.
type Statement struct {
	Ref     string   `json:"ref"`
	ChunkID string   `json:"chunk_id"`
	Path    string   `json:"path"`
	Locale  string   `json:"locale"`
	Quote   string   `json:"quote"`
	Values  []string `json:"values"` // the values it states instead, e.g. ["14 days"]
}

// Reading is how trace understood the term: what it searches for.
type Reading struct {
	Amounts []string `json:"amounts"` // "30 days"; months are read as 30 days
	Verbs   []string `json:"verbs"`   // canonical commercial verbs
	Topic   []string `json:"topic"`   // content-word stems
}

// Result is a trace's answer.
type Result struct {
	Term               string      `json:"term"`
	ReadAs             Reading     `json:"read_as"`
	Account            Account     `json:"account"`
	Outcome            Outcome     `json:"outcome"`
	Explanation        string      `json:"explanation"`
	Remedy             string      `json:"remedy"`
	Matches            []Match     `json:"matches"`
	EligibleStatements []Statement `json:"eligible_statements"`
	Versions           int         `json:"versions_searched"`
	Sentences          int         `json:"sentences_searched"`
	// Sent lists the sentences of sent replies that state the term (with Trace's sent).
	Sent        []SentMatch `json:"sent"`
	RepliesRead int         `json:"sent_replies_searched"`
}

// term is a parsed search term.
type term struct {
	norm    string
	verbs   []string
	amounts []statements.Amount
	topic   []string
}

func readTerm(phrase string, vocab *guard.Vocabulary) term {
	t := term{norm: text.Fold(phrase), verbs: vocab.Verbs(phrase)}
	for _, q := range text.Quantities(phrase) {
		t.amounts = append(t.amounts, statements.AmountOf(q))
	}
	topic := statements.ContentStems(phrase)
	for _, f := range vocab.Flags(phrase) {
		if f.Kind == guard.KindCommercial {
			for w := range statements.ContentStems(f.Match) {
				delete(topic, w) // "refund" is searched as a verb, in every language
			}
		}
	}
	t.topic = slices.Sorted(maps.Keys(topic))
	return t
}

// Trace searches versions for term and judges what it finds for account. A match is a
// sentence that states the term (see match); an eligible statement is a sentence of a
// version eligible for account that states another value for it (see restates). The
// outcome follows in this order:
//
//   - an eligible match, and an eligible statement from another document that can reach
//     the same account: present_contradicted (two live documents disagree);
//   - an eligible match: present_eligible;
//   - matches, none eligible, and an eligible statement: present_contradicted (the draft
//     repeated stale or out-of-scope text; current policy says otherwise);
//   - matches, none eligible, and no eligible statement: present_not_eligible;
//   - no match: absent (eligible statements are still listed, as what policy does say).
//
// A match in a version the account could read once (superseded or expired since, scope
// fitting) with no eligible match or statement is present_stale. sent are the replies the
// help desk reported sending: their sentences that state the term are listed, which says
// whether the term reached customers; they do not change the outcome.
func Trace(versions []*policy.Version, sent []SentReply, text string, account Account, vocab *guard.Vocabulary) (*Result, error) {
	t := readTerm(text, vocab)
	if len(t.amounts) == 0 && len(t.verbs) == 0 && len(t.topic) == 0 {
		return nil, fmt.Errorf("term %q has no number, duration, commercial verb or content word to search for: quote the claim from the draft, e.g. \"30-day refund window\"", text)
	}
	res := &Result{Term: text, Account: account, Versions: len(versions),
		ReadAs:  Reading{Amounts: []string{}, Verbs: nonNil(t.verbs), Topic: nonNil(t.topic)},
		Matches: []Match{}, EligibleStatements: []Statement{}, Sent: []SentMatch{}, RepliesRead: len(sent)}
	for _, r := range sent {
		for _, st := range statements.ReadText(r.Text, vocab) {
			if how, ok := t.match(st); ok {
				res.Sent = append(res.Sent, SentMatch{TicketID: r.TicketID, Iteration: r.Iteration, SentAt: r.SentAt, Quote: st.Text, How: how})
			}
		}
	}
	for _, a := range t.amounts {
		res.ReadAs.Amounts = append(res.ReadAs.Amounts, a.Describe())
	}

	wins := policy.Windows(versions)
	all := statements.Read(versions, vocab)
	res.Sentences = len(all)
	areas := map[string]bool{}
	eligibleDocs := map[string]bool{}      // documents with an eligible match
	var eligibleVersions []*policy.Version // their versions, to compare audiences
	for _, s := range all {
		how, ok := t.match(s)
		if !ok {
			continue
		}
		why := whyNot(s.Version, wins[s.Version], account)
		m := Match{Ref: s.Version.Ref(), ChunkID: s.Chunk.ID, Path: s.Version.Path, Source: s.Version.Source,
			Status: string(s.Version.Status), Locale: s.Version.Locale, Quote: s.Text, How: how,
			Eligible: len(why) == 0, WhyNot: strings.Join(why, "; "), Stale: retired(s.Version, wins[s.Version], account)}
		res.Matches = append(res.Matches, m)
		areas[s.Version.Area] = true
		if m.Eligible && !eligibleDocs[s.Version.DocID] {
			eligibleDocs[s.Version.DocID] = true
			eligibleVersions = append(eligibleVersions, s.Version)
		}
	}
	// otherDoc: an eligible statement from another document that can reach the same
	// account as an eligible match. Without --plan and --region, a US policy and an EU
	// policy are both "eligible" but never disagree in front of one customer.
	otherDoc := false
	for _, s := range all {
		if len(whyNot(s.Version, wins[s.Version], account)) > 0 {
			continue
		}
		if _, ok := t.match(s); ok {
			continue
		}
		values, ok := t.restates(s, areas)
		if !ok {
			continue
		}
		res.EligibleStatements = append(res.EligibleStatements, Statement{Ref: s.Version.Ref(), ChunkID: s.Chunk.ID,
			Path: s.Version.Path, Locale: s.Version.Locale, Quote: s.Text, Values: values})
		if !eligibleDocs[s.Version.DocID] && slices.ContainsFunc(eligibleVersions, func(v *policy.Version) bool { return sameAudience(v, s.Version) }) {
			otherDoc = true
		}
	}
	slices.SortStableFunc(res.Matches, func(a, b Match) int {
		switch {
		case a.Eligible == b.Eligible:
			return 0
		case a.Eligible:
			return -1
		}
		return 1
	})

	switch {
	case len(eligibleDocs) > 0 && otherDoc:
		res.Outcome = PresentContradicted
	case len(eligibleDocs) > 0:
		res.Outcome = PresentEligible
	case len(res.Matches) > 0 && len(res.EligibleStatements) > 0:
		res.Outcome = PresentContradicted
	case slices.ContainsFunc(res.Matches, func(m Match) bool { return m.Stale }):
		res.Outcome = PresentStale
	case len(res.Matches) > 0:
		res.Outcome = PresentNotEligible
	default:
		res.Outcome = Absent
	}
	res.Explanation, res.Remedy = advice(res.Outcome, len(eligibleDocs) > 0)
	if account.Plan == "" || account.Region == "" {
		res.Explanation += " Eligibility was judged for any plan or region not given: pass the customer's --plan and --region to judge it for them."
	}
	return res, nil
}

// match reports whether s states the term, and how. A sentence states it when it has the
// term's wording, or every amount of the term (months read as days) and every commercial
// verb; a term with neither needs all its topic words in the sentence or its heading, one
// with amounts but no verb needs at least one topic word, so that "14 days" about
// suspension is not taken for a "14-day refund window" written without the verb, and one
// with verbs but no amount, or a subject of two words or more, needs half its topic words.
func (t term) match(s *statements.Statement) (string, bool) {
	if t.norm != "" && strings.Contains(text.Fold(s.Text), t.norm) {
		return "same wording", true
	}
	topic := s.TopicOverlap(t.topic)
	var how []string
	if len(t.amounts) == 0 && len(t.verbs) == 0 {
		if len(topic) < len(t.topic) {
			return "", false
		}
		return "words " + strings.Join(topic, ", "), true
	}
	for _, ta := range t.amounts {
		i := slices.IndexFunc(s.Amounts, ta.Same)
		if i < 0 {
			return "", false
		}
		how = append(how, s.Amounts[i].Describe())
	}
	for _, verb := range t.verbs {
		if !slices.Contains(s.Verbs, verb) {
			return "", false
		}
		how = append(how, "verb "+verb)
	}
	if len(t.verbs) == 0 && len(t.topic) > 0 && len(topic) == 0 {
		return "", false
	}
	// The verb alone is no match: "a refund for the hardware kit" is about the kit, and a
	// sentence on refunds of annual plans does not state it. A term needs half its
	// subject's words when it has no amount or names its subject in two words or more
	// ("60-day gift card refund" is not a 60-day refund of a plan).
	if (len(t.amounts) == 0 || len(t.topic) >= 2) && len(t.topic) > 0 && 2*len(topic) < len(t.topic) {
		return "", false
	}
	if len(topic) > 0 {
		how = append(how, "topic "+strings.Join(topic, ", "))
	}
	return strings.Join(how, "; "), true
}

// restates reports whether s speaks of the same term with another value, and returns the
// values it states instead. It needs a term named by more than its value, the term's verbs, an amount in the unit of one of the
// term's amounts, and the same topic: a topic word in the sentence or its heading, or the
// same policy area as a match (a German version shares no English words with the term).
func (t term) restates(s *statements.Statement, areas map[string]bool) ([]string, bool) {
	if len(t.amounts) == 0 || len(t.verbs) == 0 && len(t.topic) == 0 {
		return nil, false // a bare "14 days" names no term that another value could contradict
	}
	for _, verb := range t.verbs {
		if !slices.Contains(s.Verbs, verb) {
			return nil, false
		}
	}
	onTopic := len(s.TopicOverlap(t.topic)) > 0 || areas[s.Version.Area] ||
		(len(t.topic) == 0 && len(areas) == 0 && len(t.verbs) > 0)
	if !onTopic {
		return nil, false
	}
	var values []string
	for _, ta := range t.amounts {
		for _, a := range s.Amounts {
			if a.Unit == ta.Unit && !a.Same(ta) && !slices.Contains(values, a.Describe()) {
				values = append(values, a.Describe())
			}
		}
	}
	return values, len(values) > 0
}

// advice explains an outcome and says what to do about it, in the seed's words.
func advice(o Outcome, eligibleMatch bool) (explanation, remedy string) {
	switch o {
	case Absent:
		return "No version of any document (drafts, superseded versions, every locale, help center and macros) states this, by wording or by concept: nobody at the company wrote it, the drafter invented it.",
			"Do not add a prompt instruction: the guard strikes the sentence because no source carries it. If customers keep asking, write and approve the missing policy (`supportdraft gaps` lists what the corpus could not answer)."
	case PresentStale:
		return "The term is written only in versions this account could read once and that were superseded or expired since, and no eligible version states another value for it: the draft or the index is behind the policy.",
			"Rebuild the drafts that quote it (approving the newer version marks them stale) and check that the index holds the current version: `supportdraft policy list` shows which version is live."
	case PresentNotEligible:
		return "The term is written only in versions this account may not use at this time (stale, draft, or another plan, region or locale), and no eligible version states another value for it.",
			"This is a corpus scoping problem, not an invention: find out why the drafter could read these versions (retrieval filters, a stale index, wrong plans/regions/locale in the front matter), and retire or re-scope the document. Also check the account state the draft was given (--draft TICKET): a correct policy applied to a stale plan yields a false sentence built from true inputs."
	case PresentContradicted:
		if eligibleMatch {
			return "Two eligible documents disagree: one states this, another states a different value for the same term.",
				"Fix it at the document, not in the prompt: resolve the contradiction in the documents (`supportdraft policy lint` lists them) rather than tuning retrieval to prefer one, then re-import and confirm the index picked the change up."
		}
		return "The term is written only where this account may not use it (see why_not), and an eligible version states a different value for the same term: the draft repeated stale or out-of-scope text instead of current policy.",
			"Fix it at the document, not in the prompt: retire or correct the stale or out-of-scope copy (a help-center article, a regional page), re-import, and confirm the index picked the change up; check why retrieval could reach a version that is not eligible. A prompt instruction that overrides a document makes two sources of policy."
	}
	return "An eligible version states this: the claim is grounded in current policy for this account.",
		"Nothing to fix in the corpus. If the sentence was still wrong for the customer, check the account state the draft was built with (--draft TICKET): the plan or region may have changed since."
}

// sameAudience reports whether one account could be served both a and b: they share a
// plan, a region and the locale.
func sameAudience(a, b *policy.Version) bool {
	return len(policy.IntersectScope(a.Plans, b.Plans)) > 0 && len(policy.IntersectScope(a.Regions, b.Regions)) > 0 && strings.EqualFold(a.Locale, b.Locale)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
