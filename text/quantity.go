package text

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quantity is one number found in a text, normalised so that the same fact written two
// ways compares equal: "two weeks", "fourteen days" and "14-day" are all 14 "day".
type Quantity struct {
	Value float64
	// Unit is day, business_day, hour, minute, month, year, percent, count (a bare number)
	// or money:<ISO currency> such as money:EUR.
	Unit string
	// Text is the span of the original text the quantity was read from.
	Text string
}

// IsDuration reports whether q is a length of time.
func (q Quantity) IsDuration() bool {
	switch q.Unit {
	case "day", "business_day", "hour", "minute", "month", "year":
		return true
	}
	return false
}

// Key is the canonical form of q ("14 day", "1 month", "1299 money:USD"): two quantities
// state the same fact exactly when their keys are equal. A year is 12 months, and whole
// days of hours or hours of minutes are days or hours ("24 hours" = "one day"); months
// stay months, because a policy that says "one month" has not said "30 days".
func (q Quantity) Key() string {
	v, u := q.Value, q.Unit
	switch {
	case u == "year":
		v, u = v*12, "month"
	case u == "minute" && v >= 60 && math.Mod(v, 60) == 0:
		v, u = v/60, "hour"
	}
	if u == "hour" && v >= 24 && math.Mod(v, 24) == 0 {
		v, u = v/24, "day"
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + " " + u
}

// unit is what a unit word means: its canonical unit and how many of those one is worth.
type unit struct {
	name   string
	factor float64
}

// unitWords maps lower-case unit words to their meaning: English and German, and the
// Dutch, French, Spanish and Italian words a help center in those languages writes. (Not
// French "an", which is an English article: "£5 an hour".)
var unitWords = unitTable(map[unit][]string{
	{"day", 1}: {"d", "day", "days", "tag", "tage", "tagen", "tages", "dag", "dagen", "jour", "jours",
		"día", "días", "dia", "dias", "giorno", "giorni", "tägig", "tägige", "tägigen", "tägiger", "tägiges"},
	{"day", 7}: {"week", "weeks", "wk", "wks", "woche", "wochen", "weken", "semaine", "semaines", "semana",
		"semanas", "settimana", "settimane", "wöchig", "wöchige", "wöchigen", "wöchiger"},
	{"day", 14}:         {"fortnight", "fortnights"},
	{"business_day", 1}: {"werktag", "werktage", "werktagen", "arbeitstag", "arbeitstage", "arbeitstagen", "werkdag", "werkdagen"},
	{"hour", 1}: {"h", "hr", "hrs", "hour", "hours", "stunde", "stunden", "std", "uur", "uren", "heure", "heures",
		"hora", "horas", "ora", "ore"},
	{"minute", 1}: {"min", "mins", "minute", "minutes", "minuten", "minuut", "minuto", "minutos", "minuti"},
	{"month", 1}: {"month", "months", "monat", "monate", "monaten", "monats", "maand", "maanden", "mois", "mes",
		"meses", "mese", "mesi", "monatig", "monatige", "monatigen", "monatiger"},
	{"year", 1}: {"year", "years", "yr", "yrs", "jahr", "jahre", "jahren", "jahres", "jaar", "jaren", "ans",
		"année", "années", "año", "años", "anno", "anni", "jährig", "jährige", "jährigen", "jähriger"},
})

// businessDays after a word for days make them working days: "jours ouvrés", "días
// hábiles", "giorni lavorativi".
var businessDays = map[string]bool{"ouvrés": true, "ouvrables": true, "hábiles": true, "habiles": true,
	"laborables": true, "lavorativi": true, "feriali": true}

// singularUnit are the unit words that, before a number, count to it: "on day 24 after the
// first failed attempt" is 24 days after it, "in week 2" two weeks in.
var singularUnit = map[string]bool{"day": true, "week": true, "month": true, "year": true, "tag": true, "woche": true, "monat": true}

// unitTable inverts a table of units and the words that name them.
func unitTable(words map[unit][]string) map[string]unit {
	table := make(map[string]unit)
	for u, names := range words {
		for _, name := range names {
			table[name] = u
		}
	}
	return table
}

// currencies maps currency symbols, codes and names to ISO codes.
var currencies = map[string]string{
	"$": "USD", "€": "EUR", "£": "GBP",
	"usd": "USD", "eur": "EUR", "gbp": "GBP", "chf": "CHF", "aud": "AUD", "cad": "CAD", "nzd": "NZD",
	"sgd": "SGD", "hkd": "HKD", "sek": "SEK", "nok": "NOK", "dkk": "DKK", "pln": "PLN", "jpy": "JPY", "inr": "INR", "mxn": "MXN",
	"dollar": "USD", "dollars": "USD", "euro": "EUR", "euros": "EUR",
}

// percentWords are the words that make a number a percentage ("per cent" is handled
// as a pair).
var percentWords = map[string]bool{"percent": true, "prozent": true, "pct": true, "procent": true}

// numberWords maps lower-case number words to their value. Hundreds and thousands
// multiply what comes before them.
var numberWords = map[string]float64{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
	"fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
	"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
	"eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
	"eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7,
	"acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwölf": 12, "dreizehn": 13,
	"vierzehn": 14, "fünfzehn": 15, "sechzehn": 16, "siebzehn": 17, "achtzehn": 18,
	"neunzehn": 19, "zwanzig": 20, "dreißig": 30, "dreissig": 30, "vierzig": 40,
	"fünfzig": 50, "sechzig": 60, "siebzig": 70, "achtzig": 80, "neunzig": 90,
	"hundert": 100, "tausend": 1000,
}

// articles count as 1 only directly before a unit ("a month", "an hour", "einen Monat")
// or a multiplier ("a hundred"); anywhere else they are just articles.
var articles = map[string]bool{
	"a": true, "an": true, "ein": true, "eine": true, "einen": true, "einem": true,
	"einer": true, "eines": true, "een": true, "un": true, "une": true, "una": true, "uno": true,
}

type tokenKind uint8

const (
	tokNumber tokenKind = iota // ASCII digits with inner "." or "," groups
	tokWord                    // a run of letters
	tokSymbol                  // any other single rune
)

// token is one lexical unit of a text, at text[start:end]. space records white space
// before it, which decides whether "30-day" or "48h" is one expression and "T-1001" an
// identifier. It holds no pointers, so a sentence's tokens cost the collector nothing.
type token struct {
	kind       tokenKind
	space      bool
	start, end int
}

// lexed is a text cut into tokens, with a lower-case copy of the same length for lookups.
type lexed struct {
	text, lower string
	toks        []token
}

// raw returns token i as written, or "" past the end.
func (l *lexed) raw(i int) string {
	if i >= len(l.toks) {
		return ""
	}
	return l.text[l.toks[i].start:l.toks[i].end]
}

// word returns token i in lower case, or "" past the end.
func (l *lexed) word(i int) string {
	if i >= len(l.toks) {
		return ""
	}
	return l.lower[l.toks[i].start:l.toks[i].end]
}

// glued reports whether token i exists and follows the previous one without white space.
func (l *lexed) glued(i int) bool { return i < len(l.toks) && !l.toks[i].space }

// Quantities returns every number in text with its unit, in order of appearance. Numbers
// glued to letters before them ("T-1001", "v2") are identifiers and skipped, as are
// version numbers ("2.4.1") and a lone "one" or article, which are rarely a commitment.
func Quantities(text string) []Quantity {
	l := lex(text)
	var out []Quantity
	after := -1 // index of the token right after the last quantity, for rates
	for i := 0; i < len(l.toks); {
		q, next, ok := l.quantityAt(i, l.rateAt(after, i))
		if !ok {
			i++
			continue
		}
		out = append(out, q)
		i, after = next, next
	}
	return out
}

// rateAt reports whether token i follows the quantity that ended at token after, with
// only "per user" or "/seat" between: an article there means "per" ("$20 per user a
// month").
func (l *lexed) rateAt(after, i int) bool {
	j := after
	for j >= 0 && j+1 < i && (l.word(j) == "per" || l.word(j) == "/") && l.toks[j+1].kind == tokWord {
		j += 2
	}
	return j == i
}

// quantityAt reads the quantity that starts at token i, if one does, and returns it with
// the index of the token after it. rate is true right after another quantity, where an
// article means "per" ("€10 a month"), not 1.
func (l *lexed) quantityAt(i int, rate bool) (Quantity, int, bool) {
	t := l.toks[i]
	var value float64
	next, bareOne, isArticle := i+1, false, false
	switch {
	case l.currencyPrefix(i) && i+1 < len(l.toks) && l.toks[i+1].kind == tokNumber:
		v, ok := parseNumber(l.raw(i + 1))
		if !ok {
			return Quantity{}, 0, false
		}
		code, start := l.currencyOf(i)
		return Quantity{Value: v, Unit: "money:" + code, Text: l.text[start:l.toks[i+1].end]}, i + 2, true
	case t.kind == tokNumber:
		if l.isIdentifier(i) {
			return Quantity{}, 0, false
		}
		v, ok := parseNumber(l.raw(i))
		if !ok {
			return Quantity{}, 0, false
		}
		value = v
	case t.kind == tokWord && numberWords[l.word(i)] != 0:
		value, next = l.wordNumber(i)
		bareOne = next == i+1 && value == 1
		// "fourteen (14) days": the number restated in digits is one quantity, read there.
		if l.word(next) == "(" && l.word(next+2) == ")" && l.toks[next+1].kind == tokNumber {
			if v, ok := parseNumber(l.raw(next + 1)); ok && v == value {
				if u, end, ok := l.suffix(next + 3); ok {
					return Quantity{Value: value * u.factor, Unit: u.name, Text: l.text[t.start:l.toks[end-1].end]}, end, true
				}
			}
		}
	case l.word(i) == "half" || l.word(i) == "hälfte":
		return l.half(i)
	case l.word(i) == "in" || wholeWords[l.word(i)]:
		return l.whole(i)
	case t.kind == tokWord && articles[l.word(i)] && !rate:
		if i+2 < len(l.toks) && l.currencyPrefix(i+1) && l.toks[i+2].kind == tokNumber {
			return Quantity{}, 0, false // "a £5 fee": the article is the fee's, the amount £5
		}
		value, next, isArticle = 1, i+1, true
		if isMultiplierValue(numberWords[l.word(i+1)]) {
			value, next = l.wordNumber(i + 1) // "a hundred"
			isArticle = false
		} else if l.word(i+1) == "single" {
			next = i + 2 // "a single month"
		}
	default:
		return Quantity{}, 0, false
	}
	u, end, ok := l.suffix(next)
	if !ok {
		if bareOne || isArticle || identifierParts[l.word(next)] {
			return Quantity{}, 0, false
		}
		u, end = unit{"count", 1}, next
		if i > 0 && t.kind == tokNumber && singularUnit[l.word(i-1)] {
			u = unitWords[l.word(i-1)] // "on day 24": 24 days in
		}
	}
	return Quantity{Value: value * u.factor, Unit: u.name, Text: l.text[t.start:l.toks[end-1].end]}, end, true
}

// suffix reads the unit that follows a number at token j: "%", "percent", "per cent", a
// currency, a unit word, "business days", or a hyphenated unit as in "30-day". It returns
// the unit and the index of the token after it.
func (l *lexed) suffix(j int) (unit, int, bool) {
	w, next := l.word(j), l.word(j+1)
	switch {
	case w == "-" && l.glued(j) && l.glued(j+1):
		u, ok := unitWords[next]
		return u, j + 2, ok
	case w == "%" || percentWords[w]:
		return unit{"percent", 1}, j + 1, true
	case w == "per" && (next == "cent" || next == "cento"), w == "por" && next == "ciento":
		return unit{"percent", 1}, j + 2, true
	case currencies[w] != "":
		return unit{"money:" + currencies[w], 1}, j + 1, true
	}
	if u, ok := unitWords[w]; ok && (len(w) > 1 || l.glued(j)) {
		if u == (unit{"day", 1}) && businessDays[next] {
			return unit{"business_day", 1}, j + 2, true
		}
		return u, j + 1, true // "d" and "h" only glued to the number: "14d", not "a d"
	}
	if u := unitWords[next]; u == (unit{"day", 1}) {
		switch w {
		case "business", "working":
			return unit{"business_day", 1}, j + 2, true
		case "calendar":
			return u, j + 2, true
		}
	}
	// "two full months", "a whole week": a word that says the span is whole does not
	// change its length. ("Two consecutive months" is not "any two months": it stays a
	// count, read alike on both sides.)
	if spanWords[w] && (unitWords[next] != unit{}) && len(next) > 1 {
		return unitWords[next], j + 2, true
	}
	return unit{}, 0, false
}

// spanWords may stand between a number and its unit of time without changing it.
var spanWords = map[string]bool{"full": true, "whole": true, "volle": true, "vollen": true, "ganze": true, "ganzen": true}

// identifierParts are what a number counts when it describes an identifier, not an
// amount: "the last four digits of your card".
var identifierParts = map[string]bool{"digit": true, "digits": true, "character": true, "characters": true,
	"letters": true, "ziffern": true, "stellen": true, "zeichen": true}

// half reads "half" at token i: of a unit ("half a month", "a half-day") it is half that
// unit; of anything else ("half your money back", "die Hälfte") it is 50%, unless an
// ordinal names which half ("the first half of the month").
func (l *lexed) half(i int) (Quantity, int, bool) {
	t := l.toks[i]
	j := i + 1
	if articles[l.word(j)] {
		j++ // "half a month"
	}
	if u, end, ok := l.suffix(j); ok && u.name != "percent" && !strings.HasPrefix(u.name, "money:") {
		return Quantity{Value: 0.5 * u.factor, Unit: u.name, Text: l.text[t.start:l.toks[end-1].end]}, end, true
	}
	if i > 0 && ordinalHalves[l.word(i-1)] {
		return Quantity{}, 0, false
	}
	return Quantity{Value: 50, Unit: "percent", Text: l.text[t.start:t.end]}, i + 1, true
}

// whole reads "in full" at token i, or "full", "fully", "entire", "vollständig" before a
// refund, credit or amount ("a full refund", "fully credited"): 100% of it. Anywhere else
// ("your full name", "in the account") it is no quantity.
func (l *lexed) whole(i int) (Quantity, int, bool) {
	t := l.toks[i]
	if l.word(i) == "in" {
		if l.word(i+1) != "full" {
			return Quantity{}, 0, false
		}
		return Quantity{Value: 100, Unit: "percent", Text: l.text[t.start:l.toks[i+1].end]}, i + 2, true
	}
	for _, stem := range wholeOf {
		if strings.HasPrefix(l.word(i+1), stem) {
			return Quantity{Value: 100, Unit: "percent", Text: l.text[t.start:t.end]}, i + 1, true
		}
	}
	return Quantity{}, 0, false
}

// wholeWords say all of what follows; wholeOf are the stems of what they say it of.
var (
	wholeWords = map[string]bool{"full": true, "fully": true, "entire": true, "vollständig": true, "volle": true, "vollen": true, "voller": true}
	wholeOf    = []string{"refund", "credit", "reimburs", "amount", "erstatt", "rückerstatt", "gutschrift", "gutgeschrieben", "betrag"}
)

// ordinalHalves name which half is meant, not how much: "the second half of the month".
var ordinalHalves = map[string]bool{"first": true, "second": true, "last": true, "other": true, "ersten": true, "zweiten": true}

// wordNumber reads a number written in words from token i on ("twenty-four", "two
// hundred"), stopping at the first word that does not continue it, and returns its value
// and the index of the token after it.
func (l *lexed) wordNumber(i int) (float64, int) {
	var total, current float64
	last := 0.0 // value of the previous word, to tell "twenty-four" from "two four"
	next := i
	for j := i; j < len(l.toks); {
		if j > i && l.raw(j) == "-" && l.glued(j) && l.glued(j+1) {
			j++
		}
		v, isNumber := numberWords[l.word(j)]
		if !isNumber || (j > i && !continues(last, v)) {
			break
		}
		switch {
		case v == 1000:
			total += max(current, 1) * 1000
			current = 0
		case v == 100:
			current = max(current, 1) * 100
		default:
			current += v
		}
		last, j = v, j+1
		next = j
	}
	return total + current, next
}

// continues reports whether a number word worth v may follow one worth last.
func continues(last, v float64) bool {
	switch {
	case isMultiplierValue(v):
		return !isMultiplierValue(last) || (last == 100 && v == 1000)
	case isMultiplierValue(last):
		return true
	default:
		return last >= 20 && v < 10 // "twenty-four"
	}
}

func isMultiplierValue(v float64) bool { return v == 100 || v == 1000 }

// currencyPrefix reports whether token i may stand before an amount: "$", "€", "£",
// "EUR 20".
func (l *lexed) currencyPrefix(i int) bool {
	switch l.toks[i].kind {
	case tokSymbol:
		return currencies[l.raw(i)] != ""
	case tokWord:
		raw := l.raw(i)
		return len(raw) == 3 && currencies[l.word(i)] != "" && raw == strings.ToUpper(raw)
	}
	return false
}

// dollarCountries are the letters written before "$" for the other dollars: "A$50" is
// Australian, "C$50" Canadian.
var dollarCountries = map[string]string{
	"a": "AUD", "au": "AUD", "c": "CAD", "ca": "CAD", "nz": "NZD", "us": "USD", "hk": "HKD", "s": "SGD", "sg": "SGD",
	"mx": "MXN",
}

// currencyOf returns the currency of the prefix at token i (currencyPrefix) and where its
// text starts: a "$" glued to a country's letters is that country's dollar.
func (l *lexed) currencyOf(i int) (string, int) {
	if l.raw(i) == "$" && i > 0 && l.glued(i) && l.toks[i-1].kind == tokWord {
		if code := dollarCountries[l.word(i-1)]; code != "" {
			return code, l.toks[i-1].start
		}
	}
	return currencies[l.word(i)], l.toks[i].start
}

// isIdentifier reports whether the number at token i belongs to a code such as "v2",
// "A77" or "T-1001" rather than stating a quantity.
func (l *lexed) isIdentifier(i int) bool {
	if i == 0 || !l.glued(i) {
		return false
	}
	if l.toks[i-1].kind == tokWord {
		return true
	}
	return l.raw(i-1) == "-" && l.glued(i-1) && i >= 2 && l.toks[i-2].kind == tokWord
}

// parseNumber reads digits with "," and "." separators in either convention: with both,
// the last one is the decimal mark ("1,299.00", "1.299,00"); a single comma followed by
// other than three digits is a decimal comma ("12,50"); several dots and no comma make a
// version number, which is not a quantity.
func parseNumber(s string) (float64, bool) {
	dots, commas := strings.Count(s, "."), strings.Count(s, ",")
	switch {
	case dots > 0 && commas > 0:
		if strings.LastIndexByte(s, '.') > strings.LastIndexByte(s, ',') {
			s = strings.ReplaceAll(s, ",", "")
		} else {
			s = strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")
		}
	case dots > 1:
		return 0, false
	case commas == 1 && len(s)-strings.IndexByte(s, ',') != 4:
		s = strings.Replace(s, ",", ".", 1)
	case commas > 0:
		s = strings.ReplaceAll(s, ",", "")
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// lex cuts text into numbers, words and single symbols, dropping white space.
func lex(text string) *lexed {
	l := &lexed{text: text, lower: lowerKeepingOffsets(text), toks: make([]token, 0, len(text)/4)}
	space := false
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			space, i = true, i+size
			continue
		}
		kind, end := tokSymbol, i+size
		switch {
		case r >= '0' && r <= '9':
			kind, end = tokNumber, scanNumber(text, i)
		case unicode.IsLetter(r):
			kind = tokWord
			for end < len(text) {
				r, size := utf8.DecodeRuneInString(text[end:])
				if !unicode.IsLetter(r) {
					break
				}
				end += size
			}
		}
		l.toks = append(l.toks, token{kind: kind, space: space, start: i, end: end})
		space, i = false, end
	}
	return l
}

// lowerKeepingOffsets lower-cases text rune by rune, leaving alone the few runes whose
// lower case has another UTF-8 length, so that byte offsets into text also index it.
func lowerKeepingOffsets(text string) string {
	b := make([]byte, 0, len(text))
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b, i = append(b, c), i+1
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if lower := unicode.ToLower(r); lower != r && utf8.RuneLen(lower) == size {
			b = utf8.AppendRune(b, lower)
		} else {
			b = append(b, text[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// scanNumber returns the end of the digit run at text[i:], with "." or "," taken in only
// when a digit follows, so "14 days." and "1, 2" keep their punctuation out.
func scanNumber(text string, i int) int {
	for i < len(text) {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
			i++
		case (c == '.' || c == ',') && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9':
			i += 2
		default:
			return i
		}
	}
	return i
}

// Missing returns the quantities of want whose Key none of have shares: what a text
// states that another does not.
func Missing(want, have []Quantity) []Quantity {
	keys := make(map[string]bool, len(have))
	for _, q := range have {
		keys[q.Key()] = true
	}
	var out []Quantity
	for _, q := range want {
		if !keys[q.Key()] {
			out = append(out, q)
		}
	}
	return out
}
