package dataset

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/policy"
)

// The ticket range of the shipped set: updated_at falls inside [RangeFrom, RangeTo).
var (
	RangeFrom = time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC)
	RangeTo   = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
)

// DefaultSeed and DefaultTickets reproduce the shipped evals/tickets.jsonl.
const (
	DefaultSeed    = 20260301
	DefaultTickets = 520
)

// Plans and Regions are every plan and region an account can have.
var (
	Plans   = []string{"free", "pro", "business", "enterprise"}
	Regions = []string{"eu", "uk", "us", "apac"}
)

// Options steer Generate.
type Options struct {
	Seed    uint64
	Tickets int
}

// Kind says why a ticket is answerable or not.
type Kind string

// The ticket kinds.
const (
	KindAnswerable Kind = "answerable" // an eligible version answers it
	KindGap        Kind = "gap"        // a real policy question, but no version covers this plan/region at this time
	KindOffTopic   Kind = "off-topic"  // nothing in the corpus covers the topic at all
)

// Meta is what the generator knows about a ticket beyond its label; it is not written to
// tickets.jsonl but lets tests and the stats check the mix.
type Meta struct {
	Intent    string
	Kind      Kind
	Phrasings []string // IDs of the core phrasings used, such as "refund-annual/en/3"
	Style     string   // terse | normal | rambling
	Typos     bool
	Overlay   string // "" | injection | fake
	Remark    bool   // the customer quotes a stale or future value
	Targeted  bool   // placed on one side of a policy change on purpose
}

// Item is one generated ticket with its metadata.
type Item struct {
	Ticket Labelled
	Meta   Meta
}

// Ctx is the state of one ticket being generated: the account, the instant, the versions
// eligible for it and the values chosen for placeholders.
type Ctx struct {
	T                    time.Time
	Plan, Region, Locale string
	P                    map[string]string // placeholder values, filled lazily
	r                    *rand.Rand
	corpus               *Corpus
	vers                 map[string]int
}

// V returns the eligible version of docID for this ticket, 0 when none is.
func (c *Ctx) V(docID string) int { return c.vers[docID] }

// German reports whether the account writes German.
func (c *Ctx) German() bool { return c.Locale == "de" }

// Pending returns the version of docID that is approved by now but not yet in force, or 0:
// a reply must not state its values yet.
func (c *Ctx) Pending(docID string) int {
	for _, v := range c.corpus.Doc(docID) {
		if v.Status == policy.StatusDraft || v.EffectiveFrom == nil || v.ApprovedAt == nil {
			continue
		}
		if !v.ApprovedAt.After(c.T) && v.EffectiveFrom.After(c.T) &&
			slices.ContainsFunc(v.Plans, func(p string) bool { return p == "*" || p == c.Plan }) &&
			slices.ContainsFunc(v.Regions, func(r string) bool { return r == "*" || r == c.Region }) {
			return v.Version
		}
	}
	return 0
}

func (c *Ctx) pick(list ...string) string { return list[c.r.IntN(len(list))] }

// slot is one ticket to make.
type slot struct {
	kind     Kind
	intent   *Intent
	gap      *gap
	german   bool
	multi    bool
	overlay  string
	targeted *target
}

// target places a ticket on one side of a change of one document: in the 20 days before
// edge (the old version's effective_to) or the 20 days from edge (the new version's
// effective_from).
type target struct {
	doc    string
	edge   time.Time
	before bool
}

// Generate builds the labelled ticket set. The same corpus, seed and count give the same
// tickets, byte for byte.
func Generate(c *Corpus, opt Options) ([]Item, error) {
	if opt.Tickets <= 0 {
		opt.Tickets = DefaultTickets
	}
	r := rand.New(rand.NewPCG(opt.Seed, 0x5d5eed))
	g := &generator{c: c, r: r, decks: map[string]*deck{}}
	if err := g.checkIntents(); err != nil {
		return nil, err
	}
	slots, err := g.plan(opt.Tickets)
	if err != nil {
		return nil, err
	}
	items := make([]Item, 0, len(slots))
	for i := range slots {
		it, err := g.make(&slots[i])
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	slices.SortStableFunc(items, func(a, b Item) int { return a.Ticket.UpdatedAt.Compare(b.Ticket.UpdatedAt) })
	for i := range items {
		items[i].Ticket.TicketID = fmt.Sprintf("T-%05d", 10001+i)
	}
	return items, nil
}

type generator struct {
	c     *Corpus
	r     *rand.Rand
	decks map[string]*deck
}

// deck deals indices 0..n-1 in shuffled rounds, so every phrasing is used before any
// repeats.
type deck struct {
	n    int
	left []int
}

func (g *generator) deal(key string, n int) int {
	d := g.decks[key]
	if d == nil {
		d = &deck{n: n}
		g.decks[key] = d
	}
	if len(d.left) == 0 {
		d.left = g.r.Perm(d.n)
	}
	i := d.left[0]
	d.left = d.left[1:]
	return i
}

// checkIntents refuses intents whose tables cannot work.
func (g *generator) checkIntents() error {
	seen := map[string]bool{}
	var errs []error
	for _, it := range allIntents() {
		if seen[it.ID] {
			errs = append(errs, fmt.Errorf("intent %s declared twice", it.ID))
		}
		seen[it.ID] = true
		if len(it.EN) < 8 {
			errs = append(errs, fmt.Errorf("intent %s: %d English phrasings, want at least 8", it.ID, len(it.EN)))
		}
		if len(it.DE) > 0 && len(it.DE) < 8 {
			errs = append(errs, fmt.Errorf("intent %s: %d German phrasings, want 0 or at least 8", it.ID, len(it.DE)))
		}
		for _, d := range append(slices.Clone(it.Docs), it.DeDocs...) {
			if len(g.c.Doc(d)) == 0 {
				errs = append(errs, fmt.Errorf("intent %s: document %s is not in the corpus", it.ID, d))
			}
		}
		if it.Facts == nil && len(it.Absent) == 0 {
			errs = append(errs, fmt.Errorf("intent %s: off-topic intents need Absent terms", it.ID))
		}
	}
	for _, gp := range gaps {
		if intentByID(gp.intent) == nil {
			errs = append(errs, fmt.Errorf("gap names unknown intent %s", gp.intent))
		}
	}
	return errors.Join(errs...)
}

// The mix of the set, as shares of all tickets.
const (
	shareOffTopic  = 0.15
	shareGap       = 0.09
	shareGerman    = 0.085
	shareMulti     = 0.21
	shareInjection = 0.05
	shareFake      = 0.05
)

// plan decides what each ticket is before any text is written.
func (g *generator) plan(n int) ([]slot, error) {
	var slots []slot
	// 1. Both sides of every policy change inside the range, once each, on purpose.
	for _, tg := range g.targets() {
		it := g.intentForDoc(tg.doc)
		if it == nil {
			return nil, fmt.Errorf("no intent cites %s, so its change cannot be covered", tg.doc)
		}
		tg := tg
		slots = append(slots, slot{kind: KindAnswerable, intent: it, targeted: &tg, german: strings.HasSuffix(tg.doc, "-de")})
	}
	nOff := int(math.Round(float64(n) * shareOffTopic))
	nGap := int(math.Round(float64(n) * shareGap))
	nAns := n - nOff - nGap - len(slots)
	if nAns < 0 {
		return nil, fmt.Errorf("%d tickets are too few for %d targeted ones", n, len(slots))
	}
	// 2. Answerable tickets by intent weight, every intent at least twice.
	var answerable, offTopic []*Intent
	for _, it := range allIntents() {
		if it.Facts != nil {
			answerable = append(answerable, it)
		} else {
			offTopic = append(offTopic, it)
		}
	}
	for i, k := range allocate(answerable, nAns, 2) {
		for range k {
			slots = append(slots, slot{kind: KindAnswerable, intent: answerable[i]})
		}
	}
	for i, k := range allocate(offTopic, nOff, 3) {
		for range k {
			slots = append(slots, slot{kind: KindOffTopic, intent: offTopic[i]})
		}
	}
	for i := range nGap {
		gp := &gaps[i%len(gaps)]
		slots = append(slots, slot{kind: KindGap, intent: intentByID(gp.intent), gap: gp})
	}
	g.r.Shuffle(len(slots), func(i, j int) { slots[i], slots[j] = slots[j], slots[i] })

	// 3. German accounts: the targeted -de tickets, then a draw among slots that can be German.
	nDe := int(math.Round(float64(n) * shareGerman))
	for i := range slots {
		if slots[i].german {
			nDe--
		}
	}
	for _, i := range g.r.Perm(len(slots)) {
		if nDe <= 0 {
			break
		}
		if s := &slots[i]; !s.german && s.targeted == nil && canBeGerman(s) {
			s.german = true
			nDe--
		}
	}
	// 4. Multi-message threads and overlays.
	for k, i := range g.r.Perm(len(slots)) {
		if float64(k) >= float64(n)*shareMulti {
			break
		}
		slots[i].multi = true
	}
	nInj, nFake := int(math.Round(float64(n)*shareInjection)), int(math.Round(float64(n)*shareFake))
	for _, i := range g.r.Perm(len(slots)) {
		s := &slots[i]
		if !s.intent.Overlay || s.kind == KindOffTopic {
			continue
		}
		switch {
		case nInj > 0:
			s.overlay, nInj = "injection", nInj-1
		case nFake > 0:
			s.overlay, nFake = "fake", nFake-1
		}
	}
	return slots, nil
}

// canBeGerman reports whether a slot may be a German-locale (EU) account.
func canBeGerman(s *slot) bool {
	if len(s.intent.DE) == 0 {
		return false
	}
	switch s.kind {
	case KindGap:
		return slices.Contains(s.gap.regions, "eu")
	case KindAnswerable:
		return slices.Contains(s.intent.Regions, "eu")
	}
	return true
}

// allocate splits total over intents by weight (largest remainder), at least min each.
func allocate(intents []*Intent, total, minEach int) []int {
	out := make([]int, len(intents))
	left := total - minEach*len(intents)
	if left < 0 {
		left = 0
	}
	var sum float64
	for _, it := range intents {
		sum += it.weight()
	}
	type rem struct {
		i int
		f float64
	}
	var rems []rem
	used := 0
	for i, it := range intents {
		exact := float64(left) * it.weight() / sum
		out[i] = minEach + int(exact)
		used += int(exact)
		rems = append(rems, rem{i, exact - math.Floor(exact)})
	}
	slices.SortStableFunc(rems, func(a, b rem) int { return cmp.Compare(b.f, a.f) })
	for k := 0; k < left-used; k++ {
		out[rems[k%len(rems)].i]++
	}
	return out
}

// targets lists, for every document whose version changes inside the range, a window just
// before the old version ends and one just after the new one starts.
func (g *generator) targets() []target {
	var out []target
	for _, doc := range g.c.DocIDs() {
		var vs []*policy.Version
		for _, v := range g.c.Doc(doc) {
			if v.Status != policy.StatusDraft {
				vs = append(vs, v)
			}
		}
		for i := 1; i < len(vs); i++ {
			old, cur := vs[i-1], vs[i]
			if old.EffectiveTo == nil || !inRange(*old.EffectiveTo) || !inRange(*cur.EffectiveFrom) {
				continue
			}
			out = append(out, target{doc: doc, edge: *old.EffectiveTo, before: true}, target{doc: doc, edge: *cur.EffectiveFrom})
		}
	}
	return out
}

func inRange(t time.Time) bool { return !t.Before(RangeFrom) && t.Before(RangeTo) }

// intentForDoc picks the intent that exercises a document's change: one that tracks the
// document if any, else any that cites it.
func (g *generator) intentForDoc(doc string) *Intent {
	var tracking, citing []*Intent
	for _, it := range allIntents() {
		if it.Facts == nil {
			continue
		}
		if slices.Contains(it.Tracks, doc) {
			tracking = append(tracking, it)
		}
		if slices.Contains(it.Docs, doc) || slices.Contains(it.DeDocs, doc) {
			citing = append(citing, it)
		}
	}
	if strings.HasSuffix(doc, "-de") {
		tracking = slices.DeleteFunc(tracking, func(it *Intent) bool { return len(it.DE) == 0 })
		citing = slices.DeleteFunc(citing, func(it *Intent) bool { return len(it.DE) == 0 })
	}
	switch {
	case len(tracking) > 0:
		return tracking[g.r.IntN(len(tracking))]
	case len(citing) > 0:
		return citing[g.r.IntN(len(citing))]
	}
	return nil
}

// weights make the account mix look like a real customer base.
var (
	planWeight   = map[string]float64{"free": 0.8, "pro": 1.0, "business": 0.85, "enterprise": 0.6}
	regionWeight = map[string]float64{"eu": 1.0, "uk": 0.55, "us": 0.9, "apac": 0.6}
)

func (g *generator) weighted(list []string, w map[string]float64) string {
	var sum float64
	for _, s := range list {
		sum += w[s]
	}
	x := g.r.Float64() * sum
	for _, s := range list {
		x -= w[s]
		if x < 0 {
			return s
		}
	}
	return list[len(list)-1]
}

// make writes one ticket for a slot.
func (g *generator) make(s *slot) (Item, error) {
	it := s.intent
	for attempt := 0; attempt < 200; attempt++ {
		c := &Ctx{r: g.r, corpus: g.c, P: map[string]string{}, vers: map[string]int{}, Locale: "en"}
		if s.german {
			c.Locale = "de"
		}
		g.account(s, c)
		g.instant(s, c)
		if !c.T.Before(RangeTo) || c.T.Before(RangeFrom) {
			continue
		}
		cite, err := g.resolve(it, c)
		if err != nil {
			return Item{}, err
		}
		exp := Expect{Area: it.Area, Cite: []string{}, MustInclude: []string{}, MustNotInclude: []string{}}
		switch s.kind {
		case KindAnswerable:
			if len(cite) == 0 || (s.targeted != nil && !slices.ContainsFunc(cite, func(ref string) bool { return strings.HasPrefix(ref, s.targeted.doc+"@") })) {
				continue // outside the intent's coverage at this instant: draw again
			}
			if it.Setup != nil {
				it.Setup(c)
			}
			inc, exc := it.Facts(c)
			exp.Answerable, exp.Cite, exp.MustInclude, exp.MustNotInclude = true, cite, inc, exc
		case KindGap:
			if len(cite) > 0 {
				return Item{}, fmt.Errorf("gap %s for %s/%s at %s resolves to %v", it.ID, c.Plan, c.Region, c.T.Format(time.RFC3339), cite)
			}
			if it.Setup != nil {
				it.Setup(c)
			}
		case KindOffTopic:
			if it.Setup != nil {
				it.Setup(c)
			}
		}
		item := Item{Meta: Meta{Intent: it.ID, Kind: s.kind, Overlay: s.overlay, Targeted: s.targeted != nil}}
		g.write(s, c, &item, &exp)
		exp.MustNotInclude = dedupe(exp.MustNotInclude)
		item.Ticket.Expect = &exp
		if err := g.check(&item, c); err != nil {
			return Item{}, err
		}
		return item, nil
	}
	return Item{}, fmt.Errorf("intent %s (%s): no account and instant found that fit", it.ID, s.kind)
}

// account chooses plan and region.
func (g *generator) account(s *slot, c *Ctx) {
	plans, regions := s.intent.Plans, s.intent.Regions
	switch s.kind {
	case KindGap:
		plans, regions = s.gap.plans, s.gap.regions
	case KindOffTopic:
		plans, regions = Plans, Regions
	}
	if s.targeted != nil {
		plans = scoped(plans, g.c.Doc(s.targeted.doc), func(v *policy.Version) []string { return v.Plans })
		regions = scoped(regions, g.c.Doc(s.targeted.doc), func(v *policy.Version) []string { return v.Regions })
	}
	if s.german {
		regions = []string{"eu"}
	}
	c.Plan = g.weighted(plans, planWeight)
	c.Region = g.weighted(regions, regionWeight)
}

// scoped keeps the values some version of the document covers.
func scoped(list []string, vs []*policy.Version, scope func(*policy.Version) []string) []string {
	var out []string
	for _, x := range list {
		for _, v := range vs {
			if sc := scope(v); slices.Contains(sc, x) || slices.Contains(sc, "*") {
				out = append(out, x)
				break
			}
		}
	}
	if len(out) == 0 {
		return list
	}
	return out
}

// instant chooses updated_at: inside the slot's target window, before a gap's cut-off, or
// for ordinary tickets half the time near a change of the intent's documents.
func (g *generator) instant(s *slot, c *Ctx) {
	from, to := RangeFrom, RangeTo
	it := s.intent
	if !it.From.IsZero() && it.From.After(from) {
		from = it.From
	}
	if !it.To.IsZero() && it.To.Before(to) {
		to = it.To
	}
	switch {
	case s.targeted != nil:
		span := 20 * 24 * time.Hour
		if g.r.IntN(3) == 0 {
			span = 3 * time.Hour // hug the boundary: minutes, not days
		}
		from, to = s.targeted.edge, s.targeted.edge.Add(span)
		if s.targeted.before {
			from, to = s.targeted.edge.Add(-span), s.targeted.edge
		}
	case s.kind == KindGap && !s.gap.before.IsZero():
		to = s.gap.before
	case s.kind == KindAnswerable && g.r.Float64() < 0.45:
		if b := g.boundariesOf(it, from, to); len(b) > 0 {
			center := b[g.r.IntN(len(b))]
			spread := 25 * 24 * time.Hour
			if g.r.IntN(5) == 0 {
				spread = 3 * time.Hour
			}
			from2, to2 := center.Add(-spread), center.Add(spread)
			if from2.After(from) {
				from = from2
			}
			if to2.Before(to) {
				to = to2
			}
		}
	}
	span := to.Sub(from)
	if span <= time.Minute {
		c.T = from
		return
	}
	c.T = from.Add(time.Duration(g.r.Int64N(int64(span/time.Minute))) * time.Minute)
}

// boundariesOf lists the change instants of an intent's documents within [from, to).
func (g *generator) boundariesOf(it *Intent, from, to time.Time) []time.Time {
	var out []time.Time
	for _, d := range append(slices.Clone(it.Docs), it.DeDocs...) {
		for _, v := range g.c.Doc(d) {
			if v.Status == policy.StatusDraft {
				continue
			}
			for _, t := range []*time.Time{v.EffectiveFrom, v.EffectiveTo} {
				if t != nil && !t.Before(from) && t.Before(to) {
					out = append(out, *t)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	return slices.CompactFunc(out, func(a, b time.Time) bool { return a.Equal(b) })
}

// resolve finds the versions of the intent's documents eligible for the ticket: the cite.
func (g *generator) resolve(it *Intent, c *Ctx) ([]string, error) {
	docs := slices.Clone(it.Docs)
	if c.German() {
		docs = append(docs, it.DeDocs...)
	}
	var cite []string
	for _, d := range docs {
		v, err := g.c.version(d, c.T, c.Plan, c.Region)
		if err != nil {
			return nil, err
		}
		if v > 0 {
			c.vers[d] = v
			cite = append(cite, fmt.Sprintf("%s@%d", d, v))
		}
	}
	return cite, nil
}

// check verifies a ticket's label against the corpus before it is kept; the tests repeat
// the label checks from the written file.
func (g *generator) check(item *Item, c *Ctx) error {
	t, e := &item.Ticket, item.Ticket.Expect
	fail := func(format string, args ...any) error {
		return fmt.Errorf("intent %s, %s/%s/%s at %s: %s", item.Meta.Intent, c.Plan, c.Region, c.Locale,
			c.T.Format(time.RFC3339), fmt.Sprintf(format, args...))
	}
	if err := t.Validate(); err != nil {
		return fail("%v", err)
	}
	var cited []*policy.Version
	for _, ref := range e.Cite {
		cited = append(cited, g.c.Ref(ref))
	}
	if e.Answerable {
		if len(e.MustInclude) == 0 || len(e.MustInclude) > 2 {
			return fail("must_include has %d facts, want 1 or 2", len(e.MustInclude))
		}
		for _, f := range e.MustInclude {
			if !slices.ContainsFunc(cited, func(v *policy.Version) bool { return Present(f, Text(v)) }) {
				return fail("must_include %q is in none of %v", f, e.Cite)
			}
		}
	}
	// A fact a reply must not state may not be stated by any eligible source of the area
	// either, or a correct reply could trip over it.
	for _, v := range g.c.EligibleAll(c.T, c.Plan, c.Region) {
		if v.Area != e.Area && !slices.Contains(e.Cite, v.Ref()) {
			continue
		}
		for _, f := range e.MustNotInclude {
			if Present(f, Text(v)) {
				return fail("must_not_include %q is stated by eligible %s", f, v.Ref())
			}
		}
	}
	switch item.Meta.Kind {
	case KindGap:
		for _, v := range g.c.EligibleAll(c.T, c.Plan, c.Region) {
			if v.Area == e.Area {
				return fail("gap ticket, but %s (area %s) is eligible", v.Ref(), v.Area)
			}
		}
	case KindOffTopic:
		for _, v := range g.c.EligibleAll(c.T, c.Plan, c.Region) {
			for _, term := range item.intent().Absent {
				if containsWord(Text(v), term) {
					return fail("off-topic term %q occurs in eligible %s", term, v.Ref())
				}
			}
		}
	}
	return nil
}

func (it Item) intent() *Intent { return intentByID(it.Meta.Intent) }

func dedupe(list []string) []string {
	out := []string{}
	for _, s := range list {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
