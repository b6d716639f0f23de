package guard

import (
	"maps"
	"slices"
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// Reported actions. Policy says what the company may do ("annual plans can be refunded
// within 14 days"); it never says that it was done for this customer. A sentence that
// reports a billing action as done ("I've refunded your last payment", "the late fee has
// been waived", "your refund is on its way") tells the customer the company has acted,
// and no source can back that, however well it backs the action itself. What is reported
// as done is read in a clause holding a commercial word or a thing of the account
// (accountThings), by its form: a perfect or past of the company ("I've", "we have",
// "I"/"we" + a past verb), a passive of something of the customer's ("has been", "was",
// "is being", "on its way"), or their German forms ("ich habe … erstattet", "wurde
// gutgeschrieben"). A clause that is a condition or a relative clause reports nothing
// ("once your refund has been processed", "a refund that has been issued"), nor does a
// negated or questioned one, nor one whose verb is about the ticket rather than the
// account ("I've passed your refund request on", "I've noted").

// companySubjects are the subjects that make an active past the company's own act.
var companySubjects = map[string]bool{
	"i": true, "we": true, "team": true, "colleague": true, "colleagues": true, "department": true,
	"ich": true, "wir": true,
}

// perfects are the auxiliaries of a perfect: "have refunded", "has been reversed".
var perfects = map[string]bool{"have": true, "has": true, "had": true, "i've": true, "we've": true,
	"i’ve": true, "we’ve": true, "habe": true, "haben": true, "hat": true}

// pasts open a past passive ("was refunded") or a present one in progress ("is being
// processed"); "wurde" and "worden" are the German.
var pasts = map[string]bool{"was": true, "were": true, "wurde": true, "wurden": true, "worden": true}

// fillers stand between an auxiliary and its verb without changing what is reported.
var fillers = map[string]bool{
	"already": true, "just": true, "now": true, "also": true, "since": true, "successfully": true, "fully": true,
	"manually": true, "went": true, "being": true, "personally": true, "gone": true, "ahead": true, "and": true,
	"bereits": true, "schon": true, "gerade": true, "soeben": true, "jetzt": true, "nun": true, "auch": true,
}

// ticketVerbs act on the ticket or the conversation, not on the account: "I've passed
// your refund request to billing" reports nothing the company owes.
var ticketVerbs = map[string]bool{
	"noted": true, "passed": true, "forwarded": true, "escalated": true, "flagged": true, "logged": true,
	"received": true, "asked": true, "requested": true, "checked": true, "reviewed": true, "looked": true,
	"seen": true, "read": true, "raised": true, "opened": true, "created": true, "submitted": true,
	"explained": true, "mentioned": true, "attached": true, "included": true, "reached": true, "contacted": true,
	"emailed": true, "replied": true, "answered": true, "confirmed": true, "investigated": true, "verified": true,
	"found": true, "noticed": true, "tried": true, "attempted": true, "wanted": true, "hoped": true, "shared": true,
	"copied": true, "told": true, "informed": true, "advised": true, "recorded": true, "documented": true,
	"been": true, "had": true, "got": true, "listed": true, "described": true, "outlined": true, "linked": true,
	"charged": true, "billed": true, "asking": true, "used": true, "based": true, "needed": true,
	"weitergeleitet": true, "geprüft": true, "erhalten": true, "notiert": true, "gesehen": true,
}

// adminVerbs keep an account's records, not what it holds: "I've updated the billing
// email on your account" and "I've sent you a copy of your invoice" report work on the
// ticket. Beside a commercial word they still report ("I've sent your refund").
var adminVerbs = map[string]bool{
	"updated": true, "sent": true, "resent": true, "emailed": true, "mailed": true, "verified": true,
	"saved": true, "changed": true, "edited": true, "renamed": true, "merged": true, "added": true,
}

// irregularDone are past participles that do not end in "-ed".
var irregularDone = map[string]bool{
	"sent": true, "made": true, "put": true, "given": true, "gave": true, "done": true, "set": true,
	"paid": true, "taken": true, "took": true, "brought": true, "undone": true,
}

// reportsDone returns the words of body (read as a) that report a billing action as done
// for the customer, or "" if it reports none (see the comment above). It reads only
// clauses with a commercial word (v.matches) or a thing of the account (accountThings).
func (v *Vocabulary) reportsDone(body string, a analysis) string {
	if strings.HasSuffix(strings.TrimSpace(body), "?") || !mayReport(body) {
		return ""
	}
	words := scopedWords(body)
	// Clauses holding a commercial word (true) or only a thing of the account (false):
	// in those, a simple past passive is what happened to the account ("the car was
	// returned on Tuesday"), not what the company did.
	billing := map[int]bool{}
	for _, w := range words {
		if accountThings[text.Stem(lowerWord(body[w.start:w.end]))] {
			billing[w.clause] = false
		}
	}
	if len(a.verbs) > 0 {
		for _, m := range v.matches(body) {
			if m.kind == KindCommercial {
				billing[clauseAt(words, m.start)] = true
			}
		}
	}
	for clause := range slices.Sorted(maps.Keys(billing)) {
		var in []scoped
		for _, w := range words {
			if w.clause == clause {
				in = append(in, w)
			}
		}
		if said := reportIn(body, in, billing[clause]); said != "" {
			return said
		}
	}
	return ""
}

// accountThings are what a customer's account holds (stems): "I've unlocked your
// workspace" and "your projects have been restored" report acts on the account as surely
// as a refund does.
var accountThings = text.StemSet("account plan subscription invoice bill payment charge fee seat workspace " +
	"balance order booking membership deposit dashboard project licence license tier trial credit")

// mayReport reports whether body holds an auxiliary or "I"/"we" with a past form after
// it, or "on its way": a sentence without one reports nothing done, and is not read
// clause by clause. German auxiliaries pass, as their participle closes the clause.
func mayReport(body string) bool {
	fields := plainWords(body)
	for i, w := range fields {
		switch {
		case w == "way" && i > 0 && (fields[i-1] == "its" || fields[i-1] == "their"):
			return true
		case w == "habe" || w == "haben" || w == "hat" || pasts[w] && isGerman(fields):
			return true
		case perfects[w] || pasts[w] || companySubjects[w] || w == "being" || w == "now":
			for j := i + 1; j < len(fields) && j <= i+4; j++ {
				if isDone(fields[j]) {
					return true
				}
				if !fillers[fields[j]] && fields[j] != "been" {
					break
				}
			}
		}
	}
	return false
}

// reportedBy reports whether a source reports the same as done itself, in a sentence of
// its own: a notice that says "we have refunded every affected customer" backs a reply
// quoting it, as an answer written in the first person does.
func (v *Vocabulary) reportedBy(done string, sources []checkedSource) bool {
	done = strings.ToLower(done)
	for _, s := range sources {
		for _, u := range s.units {
			if strings.Contains(strings.ToLower(u.text), done) && strings.EqualFold(v.reportsDone(u.text, u.analysis), done) {
				return true
			}
		}
	}
	return false
}

// reportIn finds a report of a done action in the words of one clause; a simple past
// passive ("was reversed") counts only in a clause with a commercial word.
func reportIn(body string, in []scoped, commercial bool) string {
	lower := make([]string, len(in))
	for i, w := range in {
		lower[i] = lowerWord(body[w.start:w.end])
	}
	// A German clause that opens with its verb is a condition: "Wurde dieselbe Verlängerung
	// doppelt abgebucht, erstatten wir …" (if it was charged twice).
	if len(lower) == 0 || conditionWords[lower[0]] || conditionOpeners[lower[0]] || lower[0] == "nachdem" ||
		isGerman(lower) && (pasts[lower[0]] || perfects[lower[0]]) {
		return ""
	}
	for i, w := range lower {
		if relativeAt(lower, i) {
			return "" // "a refund that has been issued": the clause is about refunds in general
		}
		if in[i].negated {
			continue
		}
		if i > 0 && modals[lower[i-1]] {
			continue // "may have already been deleted" says what may have happened
		}
		var verb int
		switch {
		case perfects[w] && companyBefore(lower, i):
			verb = doneAfter(lower, i+1)
		case perfects[w] && nextIs(lower, i, "been") && customersThing(lower[:i]), commercial && pasts[w] && customersThing(lower[:i]):
			verb = doneAfter(lower, i+1)
		case companySubjects[w] && (i+1 < len(lower)):
			verb = pastAfter(lower, i+1)
		case (w == "is" || w == "are") && (nextIs(lower, i, "being") || i+1 < len(lower) && lower[i+1] == "now") && customersThing(lower[:i]):
			verb = doneAfter(lower, i+1) // "is being processed", "is now cancelled"
		case (w == "is" || w == "are") && onItsWay(lower, i+1):
			verb = slices.Index(lower[i:], "way") + i
		}
		if verb > 0 && verb < len(lower) && !in[verb].negated && (commercial || !adminVerbs[lower[verb]]) {
			return body[in[i].start:in[verb].end]
		}
	}
	return ""
}

// modals before a perfect make it a guess, not a report.
var modals = map[string]bool{"may": true, "might": true, "could": true, "should": true, "would": true, "must": true}

// thingsOfTheCustomer are the words that make a passive about this customer's account:
// "your refund has been issued", "the charge was reversed", "it has been waived". A
// passive of things in general ("multiple projects were launched and deleted") reports
// nothing done for the customer.
var thingsOfTheCustomer = map[string]bool{
	"your": true, "you": true, "it": true, "this": true, "that": true, "the": true, "these": true, "those": true,
	"ihr": true, "ihre": true, "ihren": true, "ihrem": true, "ihres": true, "sie": true, "es": true, "die": true,
	"der": true, "das": true,
}

// customersThing reports whether the subject words before a passive name something of
// the customer's.
func customersThing(subject []string) bool {
	return slices.ContainsFunc(subject, func(w string) bool { return thingsOfTheCustomer[w] })
}

// relativeAt reports whether lower[i] opens a relative clause ("refunds that have been
// issued", "charges which were"): after a noun, not after a verb of saying ("I can confirm
// that your refund has been issued" reports it). German relative pronouns are its
// articles too, so they are not read.
func relativeAt(lower []string, i int) bool {
	switch lower[i] {
	case "which", "who":
		return i > 0
	case "that":
		return i > 0 && !sayingVerbs[lower[i-1]]
	}
	return false
}

// sayingVerbs take a "that" clause that is what they say, not a relative clause.
var sayingVerbs = map[string]bool{
	"confirm": true, "see": true, "saw": true, "know": true, "say": true, "said": true, "tell": true,
	"note": true, "check": true, "checked": true, "verify": true, "verified": true, "ensure": true, "sure": true,
	"glad": true, "happy": true, "pleased": true, "afraid": true, "sorry": true, "confirmed": true, "can": true,
}

// companyBefore reports whether the perfect at lower[i] is the company's: "I've", "we
// have", "our billing team has", "habe ich", "haben wir".
func companyBefore(lower []string, i int) bool {
	w := lower[i]
	if strings.HasPrefix(w, "i'") || strings.HasPrefix(w, "i’") || strings.HasPrefix(w, "we'") || strings.HasPrefix(w, "we’") {
		return true
	}
	return i > 0 && companySubjects[lower[i-1]] || i+1 < len(lower) && (lower[i+1] == "ich" || lower[i+1] == "wir")
}

// doneAfter returns the index of the past participle that completes the auxiliary before
// from (skipping fillers and "been"), or 0 if none does. German participles close the
// clause, so in German it is any participle-shaped word after the auxiliary.
func doneAfter(lower []string, from int) int {
	for j := from; j < len(lower); j++ {
		w := lower[j]
		switch {
		case fillers[w] || w == "been" || w == "ich" || w == "wir":
			continue
		case isDone(w):
			return j
		case isGerman(lower) && germanParticiple(w):
			return j
		case isGerman(lower):
			continue
		}
		return 0
	}
	return 0
}

// pastAfter returns the index of a past verb right after the subject ("I refunded", "we
// already credited"), or 0.
func pastAfter(lower []string, from int) int {
	for j := from; j < len(lower); j++ {
		if fillers[lower[j]] {
			continue
		}
		if isDone(lower[j]) {
			return j
		}
		return 0
	}
	return 0
}

// isDone reports whether w is a past form of a verb that acts on the account.
func isDone(w string) bool {
	if ticketVerbs[w] {
		return false
	}
	return isPastForm(w)
}

// onItsWay reports whether lower from `from` reads "on its way" or "on their way".
func onItsWay(lower []string, from int) bool {
	for from < len(lower) && fillers[lower[from]] {
		from++
	}
	return from+2 < len(lower) && lower[from] == "on" && (lower[from+1] == "its" || lower[from+1] == "their") && lower[from+2] == "way"
}

// nextIs reports whether the first word after lower[i] that is no filler is want.
func nextIs(lower []string, i int, want string) bool {
	for j := i + 1; j < len(lower); j++ {
		if !fillers[lower[j]] {
			return lower[j] == want
		}
	}
	return false
}

// isGerman reports whether a clause is German, by its auxiliaries and pronouns.
func isGerman(lower []string) bool {
	for _, w := range lower {
		switch w {
		case "habe", "haben", "hat", "wurde", "wurden", "worden", "ich", "wir", "ihr", "ihre", "ihren", "ihnen":
			return true
		}
	}
	return false
}

// germanParticiple reports whether w has the shape of a German past participle of an
// act: "erstattet", "gutgeschrieben", "storniert", "gekündigt".
func germanParticiple(w string) bool {
	if ticketVerbs[w] {
		return false
	}
	return strings.HasSuffix(w, "iert") || strings.HasSuffix(w, "ert") && len(w) > 6 ||
		strings.Contains(w, "ge") && (strings.HasSuffix(w, "t") || strings.HasSuffix(w, "en")) && len(w) > 5 && !strings.HasSuffix(w, "gen") ||
		strings.HasPrefix(w, "er") && strings.HasSuffix(w, "tet") || strings.HasPrefix(w, "ver") && strings.HasSuffix(w, "t")
}
