package guard

// Scope is what a text is about, as the guard binds commitments to subjects: the plan
// names it uses (read from the sources), the region terms of subjects.txt, and its other
// subject terms (billing period, item, customer segment, tax) with their class.
type Scope struct {
	Plans   map[string]bool   // lower-case plan names ("pro", "team")
	Regions map[string]bool   // canonical region terms ("eu", "uk", "us", "apac")
	Topics  map[string]string // canonical term → class ("annual" → "period", "seat" → "item")
}

// ScopeReader reads the scope of sentences against the plan names a set of sources uses.
// The local drafter uses it to prefer, of two parallel statements ("On Solo, …" and "On
// Team, …"), the one about the customer's own plan and region, and to rank a section
// about another subject than the question's (annual plans for a monthly one) lower.
type ScopeReader struct {
	v     *Vocabulary
	names map[string]string
}

// ScopeReader returns a reader for sentences of the given source texts.
func (v *Vocabulary) ScopeReader(sources []string) ScopeReader {
	return ScopeReader{v: v, names: v.planNames(sources)}
}

// Of returns what s is about: the plans, regions and other subject terms it names.
func (r ScopeReader) Of(s string) Scope {
	sc := Scope{Plans: map[string]bool{}, Regions: map[string]bool{}, Topics: map[string]string{}}
	for term, class := range r.v.subjectsOf(s, r.names) {
		switch class {
		case classPlanName:
			sc.Plans[term] = true
		case classRegion:
			sc.Regions[term] = true
		default:
			sc.Topics[term] = class
		}
	}
	return sc
}
