package inbox

import "cmp"

// Report is the funnel over a set of messages, in the JSON shape `intake replay --json`
// prints (a fixed contract).
type Report struct {
	// Agent is the agent the messages were replayed as.
	Agent    string `json:"agent,omitempty"`
	Messages int    `json:"messages"`
	// Stages counts the messages each skipping stage stopped.
	Stages       StageCounts `json:"stages"`
	ForcedReview int         `json:"forced_review"` // drafted, forced to review
	Drafted      int         `json:"drafted"`       // every message that reached drafting, forced to review or not
	// The label figures are null for an unlabelled set.
	DecisionAccuracy *float64         `json:"decision_accuracy"`
	BucketAccuracy   *float64         `json:"bucket_accuracy"`
	GenuineDropped   *int             `json:"genuine_dropped"`
	Decisions        []ReportDecision `json:"decisions"`
	// Misses are the labelled messages decided otherwise than their label, for the table
	// `intake replay` prints; the JSON has every decision, and the labels are the input's.
	Misses []Miss `json:"-"`
}

// Miss is a labelled message whose decision or bucket differs from its label: what a
// support engineer reads to tune an agent's rules and cues to its own mail.
type Miss struct {
	MessageID string
	Want, Got string // decision, and bucket where labelled: "draft refunds", "skip not_billing"
	Reason    string // the funnel's reason for what it decided
}

// StageCounts are the messages stopped at each stage.
type StageCounts struct {
	Duplicate  int `json:"duplicate"`
	KillSwitch int `json:"kill_switch"`
	NotFirst   int `json:"not_first"`
	Automated  int `json:"automated"`
	RulesBlock int `json:"rules_block"`
	NoResponse int `json:"no_response"`
	NotBilling int `json:"not_billing"`
}

// ReportDecision is one message's decision; bucket is null when triage did not run.
type ReportDecision struct {
	MessageID string  `json:"message_id"`
	Decision  string  `json:"decision"`
	Stage     string  `json:"stage"`
	Bucket    *string `json:"bucket"`
	Reason    string  `json:"reason"`
}

// droppedAsNoise are the stages that declare a message needs nobody. A genuine message
// skipped there is dropped; one skipped as a follow-up (its rep has it), as not billing
// (routed to people), by the kill switch (people answer everything) or as a duplicate
// (the first copy was handled) still reaches a person.
var droppedAsNoise = map[string]bool{StageAutomated: true, StageRulesBlock: true, StageNoResponse: true}

// BuildReport counts decisions (one per message, in order) and, where messages carry
// labels, scores them: decision accuracy over labelled messages (draft, review and skip
// must match), bucket accuracy over those labelled with a bucket, and the genuine
// messages dropped as noise.
func BuildReport(msgs []*Message, decisions []Decision) Report {
	r := Report{Messages: len(decisions), Decisions: make([]ReportDecision, len(decisions))}
	labelled, right, bucketed, bucketRight, dropped := 0, 0, 0, 0, 0
	for i, d := range decisions {
		rd := ReportDecision{MessageID: d.MessageID, Decision: d.Decision, Stage: d.Stage, Reason: d.Reason}
		if d.Bucket != "" {
			b := d.Bucket
			rd.Bucket = &b
		}
		r.Decisions[i] = rd
		switch d.Decision {
		case DecisionReview:
			r.ForcedReview++
			r.Drafted++
		case DecisionDraft:
			r.Drafted++
		case DecisionSkip:
			r.Stages.count(d.Stage)
		}
		if i >= len(msgs) || msgs[i].Expect == nil {
			continue
		}
		e := msgs[i].Expect
		labelled++
		decided := e.Decision == d.Decision
		if decided {
			right++
		}
		want, got, sorted := e.Decision, d.Decision, true
		if e.Bucket != nil && *e.Bucket != "" {
			bucketed++
			sorted = *e.Bucket == d.Bucket
			if sorted {
				bucketRight++
			}
			want, got = want+" "+*e.Bucket, got+" "+cmp.Or(d.Bucket, "-")
		}
		if !decided || !sorted {
			r.Misses = append(r.Misses, Miss{MessageID: d.MessageID, Want: want, Got: got, Reason: d.Reason})
		}
		if e.Genuine && d.Decision == DecisionSkip && droppedAsNoise[d.Stage] {
			dropped++
		}
	}
	if labelled > 0 {
		r.DecisionAccuracy = ratio(right, labelled)
		r.GenuineDropped = &dropped
	}
	if bucketed > 0 {
		r.BucketAccuracy = ratio(bucketRight, bucketed)
	}
	return r
}

func (s *StageCounts) count(stage string) {
	switch stage {
	case StageDuplicate:
		s.Duplicate++
	case StageKillSwitch:
		s.KillSwitch++
	case StageNotFirst:
		s.NotFirst++
	case StageAutomated:
		s.Automated++
	case StageRulesBlock:
		s.RulesBlock++
	case StageNoResponse:
		s.NoResponse++
	case StageNotBilling:
		s.NotBilling++
	}
}

func ratio(n, d int) *float64 {
	v := float64(int(float64(n)/float64(d)*1000+0.5)) / 1000
	return &v
}
