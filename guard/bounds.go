package guard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// A number is read with the words that bound it and the period it is paid per: "within
// 10 business days" is not "at least 10 business days", and "$15 per month" is not "$15
// per year". "After" bounds nothing here: "kept for up to 30 days" restates "deleted after
// 30 days" with the predicate turned round. What a price is per counts too: "2 TB per
// workspace" is not "2 TB per user" (a user, a seat and a licence are one thing). A
// quantity of a sentence is stated by a source unit only when the unit states the same key
// with a bound that is not the opposite one and, where both name them, the same period and
// the same "per". A number with no bound word ("for 30 days", "a 14-day trial") agrees
// with either bound, and backs a strict one ("more than 30 days") of neither side. Where
// the sentence and the unit grant the same thing, though, a sentence's "after" is the
// other side of the unit's "within": "refunds are available after 14 days" is not
// "refunded within 14 days". (The other way round it may be the predicate turned round
// again: "credits are valid for up to 6 months" restates "credits expire after 6 months".)

// bound is the side a number is bounded on.
type bound int

const (
	exact bound = iota
	upper       // within, up to, at most, innerhalb, bis zu
	lower       // at least, more than, mindestens
)

// boundWords are the words right before a number that bound it, longest first where one
// ends another. "Over" is left out: "4 times over 10 days" is a span, not a bound.
var boundWords = []struct {
	phrase string
	side   bound
}{
	{"no more than", upper}, {"not more than", upper}, {"at most", upper}, {"up to", upper},
	{"no later than", upper}, {"not later than", upper}, {"no sooner than", lower}, {"not sooner than", lower},
	{"no earlier than", lower}, {"not earlier than", lower},
	{"less than", upper}, {"fewer than", upper}, {"within", upper},
	{"maximum of", upper}, {"innerhalb von", upper}, {"innerhalb", upper}, {"binnen", upper},
	{"bis zu", upper}, {"höchstens", upper}, {"maximal", upper}, {"weniger als", upper},
	{"no less than", lower}, {"not less than", lower}, {"at least", lower}, {"more than", lower},
	{"longer than", lower}, {"minimum of", lower}, {"mindestens", lower}, {"mehr als", lower},
	// An age: "invoices older than 12 months" against "invoices from the last 12 months".
	{"older than", lower}, {"the last", upper}, {"the past", upper},
}

// ratePeriods are what follows a number to make it a rate, and the period each names.
var ratePeriods = map[string]string{
	"per month": "month", "a month": "month", "/month": "month", "/mo": "month", "monthly": "month",
	"each month": "month", "every month": "month", "pro monat": "month", "im monat": "month", "monatlich": "month",
	"per year": "year", "a year": "year", "/year": "year", "/yr": "year", "per annum": "year", "annually": "year",
	"yearly": "year", "each year": "year", "every year": "year", "pro jahr": "year", "im jahr": "year", "jährlich": "year",
	"per week": "week", "a week": "week", "weekly": "week", "pro woche": "week",
	"per day": "day", "a day": "day", "daily": "day", "pro tag": "day",
}

// strictBounds exclude the number itself: "more than 30 days" is not "for 30 days".
var strictBounds = map[string]bool{
	"less than": true, "fewer than": true, "more than": true, "longer than": true, "older than": true,
	"weniger als": true, "mehr als": true,
}

// qualifier is how a sentence or unit states one quantity: its bound and rate period.
type qualifier struct {
	bound  bound
	strict bool   // the bound excludes the number (strictBounds)
	rate   string // "month", "year", … or "" for none
	per    string // what it is per, other than a period ("seat" of "per user"), or ""
	after  bool   // "after" or "nach" stands right before the number
	// since are the content stems of the event a duration counts from ("of delivery",
	// "nach Kauf oder Verlängerung"), and german whether the text they stand in is German.
	since  []string
	german bool
}

// sinceWords tie a duration to the event it counts from: "30 days of delivery", "45 days
// from the invoice date", "21 Tagen nach Kauf". English "after" is left out: "30 days
// after you cancel" and "after the plan ends" count from one event in other words.
var sinceWords = map[string]bool{"of": true, "from": true, "nach": true, "ab": true}

// dateWords name no event of their own: "the date of purchase" counts from the purchase,
// "the date they're first used" from the first use, and "that date" from whatever it
// points back to, which nothing here reads.
var dateWords = text.StemSet("date day time datum tag zeitpunkt")

// sinceReach is how many words after the preposition name the event.
const sinceReach = 4

// sinceOf reads the event the duration at the end of text counts from, out of the text
// right after it (lower case): the content stems of up to sinceReach words after "of",
// "from" or "nach", within the clause. None for a text with no such preposition.
func sinceOf(after string) []string {
	if i := strings.IndexAny(after, clauseBreaks); i >= 0 {
		after = after[:i]
	}
	words := wordsOf(after)
	if len(words) < 2 || !sinceWords[words[0]] {
		return nil
	}
	event := words[1:min(len(words), 1+sinceReach)]
	var stems []string
	for _, st := range text.ContentStems(strings.Join(event, " ")) {
		if len([]rune(st)) >= 3 && !dateWords[st] {
			stems = append(stems, st)
		}
	}
	if len(stems) == 0 {
		// "From the date they're first used" names its event in words too common to be
		// content words; they still tell it from "the date of purchase".
		for _, w := range words[1:min(len(words), 1+2*sinceReach)] {
			if joins[w] || w == "but" || len(stems) == 2 {
				break
			}
			if st := text.Stem(w); len(w) >= 3 && !dateWords[st] && !eventFiller[w] {
				stems = append(stems, st)
			}
		}
	}
	return stems
}

// eventFiller are the words of an event that name none: pointers back ("within 7 days of
// that date") and auxiliaries ("the date they were purchased").
var eventFiller = map[string]bool{"the": true, "that": true, "this": true, "those": true, "these": true, "they": true,
	"their": true, "your": true, "you": true, "its": true, "our": true, "was": true, "were": true, "are": true,
	"has": true, "have": true, "had": true, "been": true, "dem": true, "der": true, "die": true, "das": true}

// sameEvent reports whether a duration counted from q's event agrees with one counted
// from u's: the sentence's event (its first stem) is one of the unit's ("within 14 days
// of renewing" and "of the renewal date"), or either names none, or they are written in
// different languages, whose words cannot be compared. "Within 30 days of purchase" is
// not "within 30 days of delivery".
func (q qualifier) sameEvent(u qualifier) bool {
	if len(q.since) == 0 || len(u.since) == 0 || q.german != u.german {
		return true
	}
	event := q.since[0]
	if i := slices.IndexFunc(q.since, func(st string) bool { return !eventModifiers[st] }); i >= 0 {
		event = q.since[i]
	}
	return slices.ContainsFunc(u.since, func(st string) bool { return sameStem(event, st) })
}

// eventModifiers say which of its kind an event is, not what it is: "your first visit"
// and "their first payment" are two events.
var eventModifiers = text.StemSet("first last initial next original previous latest recent current new erste ersten letzte letzten")

// sameStem reports whether two stems name one word: one starts the other, or they share
// their first five letters ("delivery" and "deliver").
func sameStem(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	n := 0
	for n < len(ra) && n < len(rb) && ra[n] == rb[n] {
		n++
	}
	return n == len(ra) || n == len(rb) || n >= 5
}

// perSeat are the words a price per person is stated per: one thing in billing.
var perSeat = map[string]bool{"user": true, "users": true, "seat": true, "seats": true, "licence": true,
	"license": true, "member": true, "person": true, "nutzer": true, "lizenz": true}

// agrees reports whether a unit's statement of a quantity (u) backs the sentence's (q).
func (q qualifier) agrees(u qualifier) bool {
	// "After 30 days" is past them, as "more than 30 days" is.
	if q.bound != exact && u.bound != exact && q.bound != u.bound || q.strict && u.bound == exact && !(q.bound == lower && u.after) {
		return false
	}
	return (q.rate == "" || u.rate == "" || q.rate == u.rate) && (q.per == "" || u.per == "" || q.per == u.per) && q.sameEvent(u)
}

// qualify reads the bound before the quantity at s[start:end] and the rate after it, and
// for a duration the event it counts from.
func qualify(s string, start, end int, duration bool) qualifier {
	var q qualifier
	before := strings.ToLower(strings.TrimSpace(s[:start]))
	q.after = strings.HasSuffix(" "+before, " after") || strings.HasSuffix(" "+before, " nach")
	for _, b := range boundWords {
		if strings.HasSuffix(before, b.phrase) && (len(before) == len(b.phrase) || !isWordByte(before[len(before)-len(b.phrase)-1])) {
			q.bound, q.strict = b.side, strictBounds[b.phrase]
			break
		}
	}
	after := strings.ToLower(strings.TrimSpace(s[end:]))
	if duration {
		if q.since = sinceOf(after); q.since != nil {
			q.german = text.LooksGerman(s)
		}
	}
	// "2 TB per workspace": a unit the quantity reader does not know comes first.
	if word, tail, ok := strings.Cut(after, " "); ok && strings.HasPrefix(tail, "per ") && !strings.ContainsAny(word, ",.;:") {
		after = tail
	}
	// "per user per month", "per GB per month": the period follows what the price is per.
	if rest, ok := strings.CutPrefix(after, "per "); ok {
		word, tail, _ := strings.Cut(rest, " ")
		word = strings.TrimRight(word, ".,;:!?")
		if !isPeriodWord(word) {
			q.per, after = word, strings.TrimSpace(tail)
			if perSeat[word] {
				q.per = "seat"
			}
		}
	}
	for phrase, period := range ratePeriods {
		if strings.HasPrefix(after, phrase) && (len(after) == len(phrase) || !isWordByte(after[len(phrase)])) {
			q.rate = period
			break
		}
	}
	return q
}

func isPeriodWord(w string) bool {
	switch w {
	case "month", "year", "week", "day", "annum":
		return true
	}
	return false
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}

// statesQuantities reports whether unit u states every quantity of a, each with a
// qualifier that agrees, the first time u states it or any time after (analysis.restated).
func (u srcUnit) statesQuantities(a analysis) bool {
	grantsAlike := slices.ContainsFunc(a.affirmed, func(v string) bool { return slices.Contains(u.affirmed, v) })
	for i, k := range a.keys {
		q := a.quals[i]
		backs := func(w qualifier) bool { return q.agrees(w) && !(grantsAlike && q.after && w.bound == upper) }
		j := slices.Index(u.keys, k)
		if j < 0 || !backs(u.quals[j]) && !slices.ContainsFunc(u.restated[k], backs) {
			return false
		}
	}
	return true
}

// boundedOtherwise names the first unit of candidates that states every quantity of c
// about its subjects but bounds one on the other side or prices it per another period,
// as a reason; "" if none does.
func boundedOtherwise(c view, candidates []checkedSource) string {
	for _, s := range candidates {
		for _, u := range s.units {
			if containsAll(u.keys, c.keys) && !u.statesQuantities(c.analysis) && subjectsAgree(c.subjects, u.subjects, s.subjects) {
				return fmt.Sprintf("the eligible source %s bounds, prices or dates %s otherwise: %q", s.id, strings.Join(c.keys, ", "), u.text)
			}
		}
	}
	return ""
}
