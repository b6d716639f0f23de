package local

import (
	"strings"
	"sync"

	"github.com/supportdraft/supportdraft/guard"
	"github.com/supportdraft/supportdraft/policy"
)

// Policies often state one rule per plan or region side by side: "On Solo, uploads pause;
// on Team, storage above the quota is billed", or a section of prices per region. The
// customer's plan and region say which of them is theirs, so of two parallel statements
// the drafter quotes the one about the customer. Likewise a section about annual plans
// does not answer a question about a monthly one. Both are read with the guard's subject
// vocabulary, so the drafter and the guard agree on what a sentence is about.

// vocabulary is the guard's default vocabulary, parsed once.
var vocabulary = sync.OnceValues(guard.DefaultVocabulary)

// scopeFit is whose plan or region a text is about.
type scopeFit int

const (
	scopeNeutral scopeFit = iota // names no plan or region
	scopeOwn                     // names the account's plan or region
	scopeOther                   // names plans or regions, none of them the account's
)

// accountScope reads texts against one account's plan and region.
type accountScope struct {
	reader       *guard.ScopeReader // nil: nothing is read as scoped
	plan, region string
}

// newAccountScope reads scopes with the plan names the evidence uses.
func newAccountScope(account policy.Account, evidence []policy.Evidence) accountScope {
	sc := accountScope{plan: strings.ToLower(account.Plan), region: strings.ToLower(account.Region)}
	v, err := vocabulary()
	if err != nil {
		return sc
	}
	texts := make([]string, len(evidence))
	for i, ev := range evidence {
		texts[i] = ev.Title + "\n" + ev.Text
	}
	r := v.ScopeReader(texts)
	sc.reader = &r
	return sc
}

// fit says whose plan or region s is about.
func (a accountScope) fit(s string) scopeFit {
	if a.reader == nil {
		return scopeNeutral
	}
	sc := a.reader.Of(s)
	switch {
	case len(sc.Plans)+len(sc.Regions) == 0:
		return scopeNeutral
	case sc.Plans[a.plan] || sc.Regions[a.region]:
		return scopeOwn
	}
	return scopeOther
}

// topics returns the subject terms of s other than plans and regions (billing period,
// item, customer segment, tax), with their class.
func (a accountScope) topics(s string) map[string]string {
	if a.reader == nil {
		return nil
	}
	return a.reader.Of(s).Topics
}

// otherSubject reports whether a section is about another subject than the question: for
// some class, both name terms and share none (a question about a monthly plan and a
// section on annual plans; a nonprofit and a school). Items (seats, storage, backups…)
// do not count: one question often names one item while asking about another ("how is
// overage billed, and how long do you keep our backups?").
func otherSubject(asked, section map[string]string) bool {
	for _, class := range asked {
		if class != itemClass && namesClass(section, class) && !sharesClass(asked, section, class) {
			return true
		}
	}
	return false
}

// itemClass is the class of subjects.txt that names what is billed.
const itemClass = "item"

func namesClass(terms map[string]string, class string) bool {
	for _, c := range terms {
		if c == class {
			return true
		}
	}
	return false
}

// sharesClass reports whether asked and section name a common term of class.
func sharesClass(asked, section map[string]string, class string) bool {
	for t, c := range asked {
		if c == class && section[t] == class {
			return true
		}
	}
	return false
}

// otherScopeShare scales the relevance of a section headed for another plan or region
// ("Prices in the UK") when another section is headed for the account's ("Prices in the
// EU"), and of a section whose title and heading name another subject than the question.
const otherScopeShare = 0.5
