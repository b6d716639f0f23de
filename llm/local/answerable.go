package local

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/supportdraft/supportdraft/llm"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/text"
)

// unanswerableShare is the share of a question's words of substance that no evidence
// holds at which the extractive drafter abstains: when most of what the customer asks
// about (PayPal, a pause, a referral programme) appears in no eligible policy, a related
// section would answer a different question. Chosen on the practice and generated sets
// (0.6: no practice answerable ticket abstains), never on the hand-written held-out set.
const unanswerableShare = 0.6

// missingConcepts returns the words of substance of what the customer asks (customerAsks:
// the asking clauses of every customer message) that no evidence holds, as the customer
// wrote them, and their share of those words of substance. Words of support chatter
// (time, courtesy, feelings, the parts of a question) do not count, and a word one typo
// away from a word of the evidence, of chatter or a stopword counts as held. The subject
// line's words count only when the evidence holds them: a subject names the topic in the
// fewest words, often not the policy's ("Grace period?" over a suspension policy), so its
// absence says little, while a subject the policies name ("Nonprofit discount") says the
// question is theirs.
func missingConcepts(subject string, asks []string, evidence []policy.Evidence) ([]string, float64) {
	have, spelt := map[string]bool{}, map[string]bool{}
	for _, ev := range evidence {
		for st := range text.StemSet(ev.Title + "\n" + ev.Text) {
			have[st] = true
		}
		for w := range surfaceWords(ev.Title + "\n" + ev.Text) {
			spelt[w] = true
		}
	}
	german := text.LooksGerman(strings.Join(asks, "\n"))
	held := func(st, word string) bool {
		return have[st] || nearWord(st, have) || nearSpelling(word, spelt) || typoOfChatter(st, german) || typoOfStopword(word) || compoundHeld(word, spelt)
	}
	var missing []string
	covered := 0
	seen := map[string]bool{}
	for _, w := range askedWords(asks) {
		seen[w.stem] = true
		if chatter[w.stem] || len([]rune(w.stem)) < 3 {
			continue
		}
		if held(w.stem, w.text) {
			covered++
			continue
		}
		missing = append(missing, w.text)
	}
	for _, st := range text.ContentStems(withoutReferences(subject)) {
		if !seen[st] && !chatter[st] && have[st] {
			seen[st] = true
			covered++
		}
	}
	if len(missing) == 0 {
		return nil, 0
	}
	sort.Strings(missing)
	return missing, float64(len(missing)) / float64(len(missing)+covered)
}

// compoundHeld reports whether a word the evidence does not write whole is held as a
// compound's part: a compound of two words the evidence writes ("Kündigungsbestätigung":
// "Kündigung" and "Bestätigung", with the linking "s"), or the head or tail of one of the
// evidence's own compounds ("Zeitraum" in "Abrechnungszeitraums"). German writes its
// nouns together where English leaves a space, so "cancellation confirmation" would be
// two held words and the German one word no policy writes. Parts are at least
// compoundPart letters long, so "count" is not held by "account".
func compoundHeld(w string, spelt map[string]bool) bool {
	r := []rune(w)
	if len(r) >= 2*compoundPart {
		for i := compoundPart; i+compoundPart <= len(r); i++ {
			head, tail := string(r[:i]), string(r[i:])
			if partHeld(tail, spelt) && (partHeld(head, spelt) || strings.HasSuffix(head, "s") && partHeld(strings.TrimSuffix(head, "s"), spelt)) {
				return true
			}
		}
	}
	if len(r) < compoundPart {
		return false
	}
	stem := strings.TrimRight(w, "esn")
	for e := range spelt {
		if utf8.RuneCountInString(e) >= len(r)+compoundPart && (strings.HasPrefix(e, w) || strings.HasSuffix(strings.TrimRight(e, "esn"), stem)) {
			return true
		}
	}
	return false
}

// partHeld reports whether the evidence writes a word that starts with part, as a word of
// its own or inflected ("bestätigung", "bestätigungen").
func partHeld(part string, spelt map[string]bool) bool {
	n := utf8.RuneCountInString(part)
	if n < compoundPart {
		return false
	}
	for e := range spelt {
		if strings.HasPrefix(e, part) && utf8.RuneCountInString(e) <= n+2 {
			return true
		}
	}
	return false
}

// compoundPart is the fewest letters a part of a compound has.
const compoundPart = 5

// spellingLetters is how long a word as written must be for a one-typo match on it: of
// shorter words too many real ones are one letter apart ("sell", "tell"; "code", "come").
const spellingLetters = 5

// nearSpelling reports whether a word as written is one typo away from a word of words,
// being at least spellingLetters long.
func nearSpelling(w string, words map[string]bool) bool {
	return len([]rune(w)) >= spellingLetters && nearWord(w, words)
}

// typoOfStopword reports whether a word is a stopword with two letters swapped ("tihs",
// "whne", "wlil"), a letter doubled ("thiss", "froom") or, from three letters, a letter
// dropped ("onl", "lik"): a typo of a word that names nothing.
func typoOfStopword(w string) bool {
	if text.IsStopwordLetterDropped(w) {
		return true
	}
	rs := []rune(w)
	for i := 0; i+1 < len(rs); i++ {
		swapped := append([]rune{}, rs...)
		swapped[i], swapped[i+1] = swapped[i+1], swapped[i]
		if text.IsStopword(string(swapped)) {
			return true
		}
		if rs[i] == rs[i+1] && text.IsStopword(string(rs[:i])+string(rs[i+1:])) {
			return true
		}
	}
	return false
}

// offTopic returns the topic words of what the customer asks when the text about to be
// sent (said: the reply with the titles and headings of the sections it comes from)
// holds none of them. Such a reply answers a related question (a chargeback section for a
// question about proration), so the writer abstains instead. Chatter and the words every
// billing text shares ("plan", "account") do not count as topics. It returns nil when
// said holds a topic word, or when the customer names none.
func offTopic(asks []string, said string) []string {
	have := text.StemSet(said)
	var asked []string
	seen := map[string]bool{}
	for _, a := range asks {
		for _, st := range substanceStems(a) {
			if weakStems[st] || seen[st] || len([]rune(st)) < 3 {
				continue
			}
			if have[st] || nearWord(st, have) {
				return nil
			}
			seen[st] = true
			asked = append(asked, st)
		}
	}
	return asked
}

// abstention is the answer of a writer that has nothing to say: the abstention line, the
// note for the agent and what was asked (asked: the words the note names).
func abstention(german bool, note string, asked []string) *llm.Answer {
	return &llm.Answer{Reply: abstainReply(german), Abstain: true, Claims: []llm.Claim{}, Note: note,
		Unanswered: []llm.Unanswered{{Subject: strings.Join(asked, ", ")}}}
}

// citedSections are the evidence items whose chunk IDs are given: the sections a reply quotes.
func citedSections(evidence []policy.Evidence, chunkIDs map[string]bool) []policy.Evidence {
	var out []policy.Evidence
	for _, ev := range evidence {
		if chunkIDs[ev.ChunkID] {
			out = append(out, ev)
		}
	}
	return out
}

// missingNote tells the agent what no eligible policy mentions.
func missingNote(missing []string) string {
	return "No eligible policy mentions " + strings.Join(missing, ", ") + ": the question needs a reply from the team."
}

// nearWord reports whether st is one typo away from a word of the evidence.
func nearWord(st string, have map[string]bool) bool {
	for w := range have {
		if editDistanceAtMost1(st, w) {
			return true
		}
	}
	return false
}

// editDistanceAtMost1 reports whether a and b are one typo apart (a letter missing, added,
// changed or two swapped). Words shorter than four letters are never taken for each other:
// too many short words are one letter apart ("hold", "old").
func editDistanceAtMost1(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < 4 || len(rb) < 4 {
		return false
	}
	if d := len(ra) - len(rb); d > 1 || d < -1 {
		return false
	}
	i, j, edits := 0, 0, 0
	for i < len(ra) && j < len(rb) {
		if ra[i] == rb[j] {
			i++
			j++
			continue
		}
		edits++
		if edits > 1 {
			return false
		}
		if len(ra) == len(rb) && i+1 < len(ra) && ra[i] == rb[j+1] && ra[i+1] == rb[j] { // transposition
			i += 2
			j += 2
			continue
		}
		switch {
		case len(ra) > len(rb):
			i++
		case len(ra) < len(rb):
			j++
		default:
			i++
			j++
		}
	}
	return edits+(len(ra)-i)+(len(rb)-j) <= 1
}

// chatter are words of support mail that name no policy topic: time, manner, courtesy,
// feelings, quantities and the parts of a question. A question is not about them, so
// their absence from the policies says nothing. germanChatter holds the German twins of
// the English words, so that "Was passiert genau …?" holds back no more than "What exactly
// happens …?"; a misspelt word is matched against them only in a German question
// (typoOfChatter), since many are one letter from an English word of substance ("vier"
// and "tier", "Preis" and "press").
var chatter = union(typoChatter, germanChatter)

// typoOfChatter reports whether a stem is one typo from a chatter word of its question's
// language.
func typoOfChatter(st string, german bool) bool {
	return nearWord(st, typoChatter) || german && nearWord(st, germanChatter)
}

// typoChatter is the chatter a misspelt word of any question is matched against.
var typoChatter = stemsOf(
	"ago", "week", "weeks", "year", "years", "month", "months", "day", "days", "today", "tomorrow",
	"yesterday", "tonight", "morning", "evening", "hour", "hours", "minute", "minutes", "long",
	"many", "much", "what's", "whats", "what", "how", "possible", "possibly", "pos", "right", "way",
	"ways", "instead", "exact", "exactly", "quick", "quickly", "quite", "look", "looking", "mention",
	"mentioned", "explain", "explained", "away", "isn't", "couldn't", "wasn't", "aren't", "doesn't",
	"didn't", "won't", "can't", "don't", "haven't", "percentage", "rate", "rates", "mid", "lifetime",
	"hope", "hoping", "wish", "wondering", "wonder", "tool", "tools", "remember", "option", "options",
	"around", "cheap", "cheaper", "point", "far", "cycle", "deadline", "lot", "lots", "lose", "lost",
	"bought", "buy", "buying", "late", "later", "early", "earlier", "last", "next", "first", "second",
	"third", "previous", "old", "new", "since", "expired", "expire", "expiry", "happen", "happens",
	"happened", "afterwards", "afterward", "extra", "top", "put", "putting", "bit", "worry",
	"worried", "worrying", "still", "already", "soon", "yet", "ever", "never", "always", "often",
	"sometimes", "usually", "actually", "really", "just", "also", "maybe", "perhaps", "sure",
	"certain", "get", "got", "getting", "give", "given", "gave", "take", "took", "taken", "make",
	"made", "making", "keep", "kept", "let", "know", "knew", "known", "need", "needed", "needs",
	"want", "wanted", "wants", "like", "liked", "would", "could", "should", "might", "must", "shall",
	"will", "able", "unable", "allowed", "allow", "allows", "please", "pls", "thx", "thanks", "thank",
	"cheers", "kind", "regards", "hello", "hi", "hey", "dear", "team", "folks", "guys", "question",
	"questions", "issue", "issues", "problem", "problems", "help", "helping", "thing", "things",
	"something", "anything", "nothing", "everything", "stuff", "send", "sent", "sending", "go",
	"going", "went", "gone", "come", "came", "coming", "see", "seen", "saw", "tell", "told", "ask",
	"asked", "asking", "said", "say", "says", "two", "three", "four", "five", "six", "seven", "eight",
	"nine", "ten", "one", "half", "twice", "once", "approximately", "roughly", "about", "total",
	"whole", "full", "part", "partial", "decide", "decided", "deciding", "approve", "approved",
	"approval", "process", "processing", "processed", "cost", "costs", "costing", "price", "prices",
	"pay", "paying", "paid", "charge", "charged", "charging", "money", "amount", "amounts", "fee",
	"fees", "work", "works", "working", "worked", "use", "used", "using", "user", "users", "start",
	"started", "starting", "stop", "stopped", "stopping", "end", "ended", "ending", "mine", "ours",
	"yours", "theirs", "own", "else", "other", "others", "another", "each", "every", "either",
	"neither", "both", "same", "different", "ridiculous", "unacceptable", "annoyed", "angry",
	"frustrated", "terrible", "awful", "joke", "disappointed", "seriously", "honestly", "sort",
	"sorted", "fix", "fixed", "fixing", "solve", "solved", "handle", "handled", "deal", "dealing",
	"finance", "financial", "accountant", "accounting", "procurement", "office", "manager", "boss",
	"owner", "colleague", "colleagues", "partner", "partners", "dispute", "disputing", "reminder",
	"reminders", "nobody", "somebody", "someone", "anyone", "everyone", "single", "double", "support",
	"supported", "supporting", "move", "moved", "moves", "moving", "app", "website", "site", "page",
	"portal", "dashboard", "email", "emails", "mail", "message", "messages", "letter", "call",
	"phone", "geld", "jahr", "jahre", "monat", "monate", "woche", "wochen", "tag", "tage", "heute",
	"morgen", "gestern", "noch", "schon", "bitte", "danke", "gruss", "grüße", "gruesse", "möglich",
	"moeglich", "lange", "wie", "viel", "viele", "gespeichert", "herunterladen", "bekommen",
	"brauchen", "wissen",
)

var germanChatter = stemsOf(
	"stunde", "stunden", "minuten", "abend", "früh", "später", "spät", "bald", "bereits",
	"letzte", "letzten", "letzter", "nächste", "nächsten", "erste", "ersten", "zweite", "vorher",
	"nachher", "danach", "seit", "inzwischen", "immer", "nie", "oft", "manchmal", "meistens",
	"dauert", "dauern", "genau", "ungefähr", "etwa", "circa", "ganz", "wirklich", "eigentlich",
	"einfach", "vielleicht", "sicher", "schnell", "weg", "stattdessen", "welche", "welcher",
	"welches", "warum", "wieso", "weshalb", "wann", "passiert", "passieren", "geschieht", "kommt",
	"kommen", "geht", "gehen", "gegeben", "geben", "nehmen", "genommen", "machen", "macht",
	"gemacht", "lassen", "bekomme", "bekommt", "erhalten", "kriegen", "brauche", "braucht",
	"nötig", "notwendig", "möchte", "möchten", "würde", "würden", "sollte", "sollten", "müssen",
	"dürfen", "darf", "weiß", "sagen", "gesagt", "fragen", "gefragt", "schicken", "geschickt",
	"senden", "gesendet", "sehen", "gesehen", "helfen", "hilfe", "erklären", "funktioniert",
	"klappt", "geklappt", "nutzen", "benutzen", "arbeiten", "weiterarbeiten", "anfangen",
	"aufhören", "problem", "probleme", "sache", "ding", "dinge", "nichts", "ärgerlich",
	"enttäuscht", "unverschämt", "leider", "dank", "freundlichen", "beste", "besten", "moin",
	"buchhaltung", "chef", "kollege", "kollegin", "kollegen", "büro", "inhaber", "zwei", "drei",
	"vier", "fünf", "halb", "hälfte", "doppelt", "zweimal", "insgesamt", "ganze", "ganzen",
	"kosten", "kostet", "preis", "preise", "zahlen", "zahlt", "bezahlen", "bezahlt", "gezahlt",
	"betrag", "webseite", "seite", "nachricht", "anruf", "telefon", "neu", "neue", "neuen",
	"alt", "alte", "alten", "älter", "ältere", "älteren", "gleich", "gleiche", "gleichen",
	"beide", "beiden",
)
