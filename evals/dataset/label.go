package dataset

import "github.com/supportdraft/supportdraft/ticket"

// Labelled is one line of a replay set: a ticket revision in the help desk's format and,
// in a labelled set, the "expect" block that says what a good reply does. The label stays
// here, with the eval: nothing that drafts for agents ever sees it.
type Labelled struct {
	ticket.Ticket
	Expect *Expect `json:"expect,omitempty"`
}

// Expect is the label of a ticket, resolved against the corpus at the ticket's own
// updated_at, plan and region.
type Expect struct {
	Answerable     bool     `json:"answerable"`       // some eligible version answers the question
	Area           string   `json:"area"`             // policy area of the question
	Cite           []string `json:"cite"`             // doc_id@version of every answering version
	MustInclude    []string `json:"must_include"`     // facts a correct reply states
	MustNotInclude []string `json:"must_not_include"` // facts it must not state (stale, other region, fake)
}
