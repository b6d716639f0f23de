package evals

import (
	"cmp"
	"slices"

	"github.com/supportdraft/supportdraft/rubric"
)

// Metrics is one arm's figures (the system, or the similarity-only baseline). The first
// eleven keys are the eval's output contract (docs/architecture.md). A rate whose denominator is zero is reported
// as 0; Counts holds every numerator and denominator, so a reader can tell.
//
// Definitions (all judged by Assess, at each ticket's updated_at for its plan and region):
//
//   - unsupported_claim_rate: unsupported material sentences / material sentences, over
//     every draft's reply (see Assess for "material" and "supported").
//   - stale_source_rate: answers citing or bound to at least one version not eligible at
//     the ticket's instant for its plan and region / answers (drafts that did not abstain).
//     Zero by construction for the system; any occurrence is a metadata bug.
//   - useful_abstention_rate: abstentions on tickets labelled answerable=false /
//     abstentions on labelled tickets.
//   - citation_precision: cited versions that are in expect.cite / cited versions, over
//     answers to answerable tickets that have an expect.cite (micro-averaged, at
//     doc_id@version level).
//   - citation_recall: answerable tickets with an expect.cite where at least one cited
//     version is in it / those tickets (an abstention or failure cites nothing: a miss).
//     Any one expected version is enough, because wiki, help-center and macro versions
//     that say the same thing are all listed.
//   - must_include_rate: must_include facts found in the reply (dataset.Present) / all
//     must_include facts, over answerable tickets (an abstention states none).
//   - must_not_include_violations: tickets whose reply states a must_not_include fact.
type Metrics struct {
	Tickets                  int     `json:"tickets"`
	Drafted                  int     `json:"drafted"`
	Abstained                int     `json:"abstained"`
	UnsupportedClaimRate     float64 `json:"unsupported_claim_rate"`
	StaleSourceRate          float64 `json:"stale_source_rate"`
	UsefulAbstentionRate     float64 `json:"useful_abstention_rate"`
	CitationPrecision        float64 `json:"citation_precision"`
	CitationRecall           float64 `json:"citation_recall"`
	MustIncludeRate          float64 `json:"must_include_rate"`
	MustNotIncludeViolations int     `json:"must_not_include_violations"`
	// Failed counts tickets for which no draft was built (the workflow failed).
	Failed            int                        `json:"failed"`
	Counts            Counts                     `json:"counts"`
	Labels            map[string]int             `json:"labels"`
	PerArea           []AreaStats                `json:"per_area"`
	ConfidenceByLabel map[string]ConfidenceStats `json:"confidence_by_label"`
	// Calibration's figures (abstention_recall, confidence_auroc, …) sit beside the
	// contract's at the top level of the arm.
	Calibration
	// Rubric is the draft-quality rubric per criterion, in the rubric's order.
	Rubric []CriterionStats `json:"rubric"`
	Cases  []Case           `json:"cases"`
}

// CriterionStats is one rubric criterion over the drafts built: the mean score of those
// scored on it, how many fell short of 1, and how many nothing scored (human-sounding
// with the local judge), which are left out of the mean rather than counted as anything.
type CriterionStats struct {
	Criterion string  `json:"criterion"`
	Scored    int     `json:"scored"`
	NotScored int     `json:"not_scored"`
	Mean      float64 `json:"mean"`
	Flagged   int     `json:"flagged"`
}

// rubricStats summarises the rubric scores of the cases that built a draft.
func rubricStats(cases []Case) []CriterionStats {
	out := make([]CriterionStats, 0, len(rubric.Criteria))
	for _, name := range rubric.Criteria {
		st := CriterionStats{Criterion: name}
		sum := 0.0
		for _, c := range cases {
			if c.Failed() {
				continue
			}
			v := c.Rubric[name]
			if v == nil {
				st.NotScored++
				continue
			}
			st.Scored++
			sum += *v
			if *v < 1 {
				st.Flagged++
			}
		}
		if st.Scored > 0 {
			st.Mean = sum / float64(st.Scored)
		}
		out = append(out, st)
	}
	return out
}

// Counts are the numerators and denominators behind the rates.
type Counts struct {
	MaterialSentences    int `json:"material_sentences"`
	UnsupportedSentences int `json:"unsupported_sentences"`
	StaleAnswers         int `json:"stale_answers"`
	LabelledAbstentions  int `json:"labelled_abstentions"`
	UsefulAbstentions    int `json:"useful_abstentions"`
	CitedVersions        int `json:"cited_versions"`
	CitedExpected        int `json:"cited_expected"`
	RecallTickets        int `json:"recall_tickets"`
	RecallHits           int `json:"recall_hits"`
	FactsExpected        int `json:"facts_expected"`
	FactsFound           int `json:"facts_found"`
}

// AreaStats is the abstention rate of one policy area (expect.area): the figure the
// design says to watch weekly, because a rising rate usually means a policy gap.
type AreaStats struct {
	Area              string  `json:"area"`
	Tickets           int     `json:"tickets"`
	Answerable        int     `json:"answerable"`
	Abstained         int     `json:"abstained"`
	AbstentionRate    float64 `json:"abstention_rate"`
	UsefulAbstentions int     `json:"useful_abstentions"`
}

// ConfidenceStats is the mean confidence of the drafts with one label: a calibrated score
// is high for grounded drafts and low for unsupported ones and abstentions.
type ConfidenceStats struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
}

// unlabelledArea groups tickets without an expect block.
const unlabelledArea = "(unlabelled)"

// Summarise turns one arm's cases into its figures.
func Summarise(cases []Case) Metrics {
	m := Metrics{Tickets: len(cases), Labels: map[string]int{}, ConfidenceByLabel: map[string]ConfidenceStats{}, Cases: cases}
	for _, l := range Labels {
		m.Labels[l] = 0
	}
	k := &m.Counts
	confSum := map[string]float64{}
	areas := map[string]*AreaStats{}
	for _, c := range cases {
		switch {
		case c.Failed():
			m.Failed++
		case c.abstained:
			m.Abstained++
		default:
			m.Drafted++
		}
		if !c.Failed() {
			m.Labels[c.Label]++
			confSum[c.Label] += c.Confidence
			cs := m.ConfidenceByLabel[c.Label]
			cs.N++
			m.ConfidenceByLabel[c.Label] = cs
		}
		k.MaterialSentences += c.MaterialSentences
		k.UnsupportedSentences += len(c.UnsupportedSentences)
		if c.Drafted() && len(c.StaleCited) > 0 {
			k.StaleAnswers++
		}
		if len(c.Violations) > 0 {
			m.MustNotIncludeViolations++
		}
		area := areaOf(c)
		if areas[area] == nil {
			areas[area] = &AreaStats{Area: area}
		}
		as := areas[area]
		as.Tickets++
		if c.abstained {
			as.Abstained++
		}
		e := c.expect
		if e == nil {
			continue
		}
		if c.abstained {
			k.LabelledAbstentions++
			if !e.Answerable {
				k.UsefulAbstentions++
				as.UsefulAbstentions++
			}
		}
		if !e.Answerable {
			continue
		}
		as.Answerable++
		k.FactsExpected += c.FactsExpected
		k.FactsFound += c.FactsFound
		if len(e.Cite) == 0 {
			continue
		}
		k.RecallTickets++
		if c.citesExpected {
			k.RecallHits++
		}
		if c.Drafted() {
			k.CitedVersions += len(c.Cited)
			k.CitedExpected += c.citedExpected
		}
	}
	m.UnsupportedClaimRate = ratio(k.UnsupportedSentences, k.MaterialSentences)
	m.StaleSourceRate = ratio(k.StaleAnswers, m.Drafted)
	m.UsefulAbstentionRate = ratio(k.UsefulAbstentions, k.LabelledAbstentions)
	m.CitationPrecision = ratio(k.CitedExpected, k.CitedVersions)
	m.CitationRecall = ratio(k.RecallHits, k.RecallTickets)
	m.MustIncludeRate = ratio(k.FactsFound, k.FactsExpected)
	for l, cs := range m.ConfidenceByLabel {
		cs.Mean = confSum[l] / float64(cs.N)
		m.ConfidenceByLabel[l] = cs
	}
	for _, as := range areas {
		as.AbstentionRate = ratio(as.Abstained, as.Tickets)
		m.PerArea = append(m.PerArea, *as)
	}
	slices.SortFunc(m.PerArea, func(a, b AreaStats) int { return cmp.Compare(a.Area, b.Area) })
	m.Calibration = Calibrate(cases)
	m.Rubric = rubricStats(cases)
	return m
}

func areaOf(c Case) string {
	if c.expect == nil || c.expect.Area == "" {
		return unlabelledArea
	}
	return c.expect.Area
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}
