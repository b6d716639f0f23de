package dataset

import (
	"sync"
	"time"
)

// Intent is one kind of customer question: the documents that answer it, who asks it, its
// phrasings, and the facts a correct reply states. An intent without Facts is off-topic:
// nothing in the corpus answers it, and Absent lists terms no eligible version may contain.
type Intent struct {
	ID     string
	Area   string   // policy area of the question, as in the corpus's area field
	Docs   []string // documents that answer it, cited for every account they cover
	DeDocs []string // German documents, cited in addition for German-locale accounts
	Tracks []string // documents whose change alters the facts (preferred for change coverage)

	Plans, Regions []string  // accounts that ask it and are covered
	From, To       time.Time // updated_at window of the intent; zero for open
	Weight         float64   // relative frequency among answerable tickets (0 means 1)
	Overlay        bool      // fake policies and injections fit this question

	Subjects, EN   []string // English subjects and core phrasings
	DeSubjects, DE []string // German subjects and core phrasings (optional)

	Setup  func(c *Ctx)                     // chooses placeholders that facts depend on
	Facts  func(c *Ctx) (inc, exc []string) // must_include and must_not_include for this ticket
	Absent []string                         // off-topic: terms no eligible version may state
}

func (it *Intent) weight() float64 {
	if it.Weight == 0 {
		return 1
	}
	return it.Weight
}

// gap is a policy question asked by accounts no version covers (at least before a time):
// an unanswerable ticket for a reason other than topic.
type gap struct {
	intent         string
	plans, regions []string
	before         time.Time
}

var (
	paid      = []string{"pro", "business"}
	paidAll   = []string{"pro", "business", "enterprise"}
	allPlans  = []string{"free", "pro", "business", "enterprise"}
	notEnt    = []string{"free", "pro", "business"}
	allRegion = []string{"eu", "uk", "us", "apac"}
	euUK      = []string{"eu", "uk"}
	ent       = []string{"enterprise"}
)

func date(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// gaps are the uncovered combinations the set asks about.
var gaps = []gap{
	{intent: "refund-annual", plans: ent, regions: allRegion},
	{intent: "refund-renewal", plans: ent, regions: allRegion},
	{intent: "refund-monthly-partial", plans: ent, regions: allRegion},
	{intent: "refund-duplicate", plans: ent, regions: allRegion},
	{intent: "goodwill-credit", plans: ent, regions: allRegion},
	{intent: "seat-removal", plans: ent, regions: allRegion},
	{intent: "downgrade", plans: ent, regions: allRegion},
	{intent: "upgrade-proration", plans: ent, regions: allRegion},
	{intent: "cancel-how", plans: ent, regions: allRegion},
	{intent: "cancel-data", plans: ent, regions: allRegion},
	{intent: "price", plans: ent, regions: allRegion},
	{intent: "annual-discount", plans: ent, regions: allRegion},
	{intent: "nonprofit", plans: paid, regions: []string{"apac"}, before: date("2026-05-01T00:00:00Z")},
	{intent: "education", plans: paid, regions: []string{"apac"}, before: date("2026-05-01T00:00:00Z")},
	{intent: "nonprofit", plans: ent, regions: allRegion},
	{intent: "refund-timing", plans: ent, regions: allRegion},
	{intent: "trial-end", plans: ent, regions: allRegion},
}

var (
	intentsOnce sync.Once
	intentList  []*Intent
	intentIndex map[string]*Intent
)

// allIntents returns every intent, answerable ones first, in declaration order.
func allIntents() []*Intent {
	intentsOnce.Do(func() {
		intentList = append(answerableIntents(), offTopicIntents()...)
		intentIndex = map[string]*Intent{}
		for _, it := range intentList {
			intentIndex[it.ID] = it
		}
	})
	return intentList
}

func intentByID(id string) *Intent {
	allIntents()
	return intentIndex[id]
}

// fx is the facts of one version: what a reply states and what it must not.
type fx struct{ inc, exc []string }

// byVersion returns facts keyed by the eligible version of doc.
func byVersion(doc string, table map[int]fx) func(c *Ctx) (inc, exc []string) {
	return func(c *Ctx) (inc, exc []string) {
		f := table[c.V(doc)]
		return clone(f.inc), clone(f.exc)
	}
}

// same returns the same facts whatever version answers.
func same(inc ...string) func(c *Ctx) (inc, exc []string) {
	return func(*Ctx) ([]string, []string) { return clone(inc), []string{} }
}

func clone(s []string) []string { return append([]string{}, s...) }
