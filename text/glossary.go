package text

// The glossary maps the German words customers use for billing concepts onto the English
// words the policies use. Most policy documents exist only in English; with the lexical
// local providers, a German ticket about an invoice would otherwise share no word with the
// section that answers it. Retrieval (the hashing embedder) and the extractive drafter both
// read words through it. It is a short list someone can read, not a dictionary: add a word
// when a ticket shows it is missing.

// English returns the English policy word for a lowercased German billing word.
func English(word string) (string, bool) {
	en, ok := toEnglish[word]
	return en, ok
}

var toEnglish = func() map[string]string {
	m := map[string]string{}
	for en, words := range map[string][]string{
		"refund":    {"erstattung", "rückerstattung", "erstatten", "zurückerstatten"},
		"invoice":   {"rechnung", "rechnungen"},
		"cancel":    {"kündigen", "kündigung", "gekündigt"},
		"suspended": {"gesperrt", "sperre", "sperrung"},
		"vat":       {"mwst", "mehrwertsteuer", "ust", "umsatzsteuer"},
		"payment":   {"zahlung", "zahlungen", "bezahlen", "bezahlt"},
		"renewal":   {"verlängerung", "verlängert"},
		"credit":    {"gutschrift", "gutschriften", "guthaben"},
		"seats":     {"lizenz", "lizenzen", "platz", "plätze", "sitze"},
		"address":   {"adresse", "anschrift"},
		"corrected": {"korrigieren", "korrigiert", "korrigierte", "korrektur"},
		"card":      {"karte", "kreditkarte", "firmenkarte"},
		"price":     {"preis", "preise"},
		"discount":  {"rabatt", "ermäßigung"},
		"trial":     {"testphase", "testversion"},
		"tax":       {"steuer", "steuern"},
		"failed":    {"fehlgeschlagen", "abgelehnt"},
		"data":      {"daten"},
		"annual":    {"jährlich", "jahresabo"},
		"monthly":   {"monatlich", "monatsabo"},
	} {
		for _, w := range words {
			m[w] = en
		}
	}
	return m
}()
