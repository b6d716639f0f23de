package text

import (
	"regexp"
	"strings"
)

// Mail quotes what came before: a customer replying to a receipt or to their own earlier
// mail sends that text along, and its words (amounts, plans, "cancel at any time") would
// be read as what the customer asks now. OwnText keeps only what the sender wrote.

// replyVerb is the verb of a mail client's reply header ("On 2 Nov 2026, Ana <a@b.example>
// wrote:", "Am 02.11.2026 schrieb Ana <a@b.example>:") in the languages customers write in.
var replyVerb = regexp.MustCompile(`(?i)(^|\s)(wrote|writes|schrieb|a écrit|escribió|escreveu|schreef|ha scritto|skrev|kirjoitti|napisał|написал)(\s|:|$)`)

// originalMessage is the separator line some clients put above quoted mail: Outlook's
// "-----Original Message-----" (and its translations) or a rule of underscores.
var originalMessage = regexp.MustCompile(`(?i)^(-{3,}\s*(original message|ursprüngliche nachricht|message d'origine|mensaje original|mensagem original|oorspronkelijk bericht|messaggio originale)\s*-*|_{10,})$`)

// headerFrom and headerSent are the first lines of the header block Outlook writes above
// a quoted mail without "> " marks ("From: …" then "Sent: …").
var (
	headerFrom = regexp.MustCompile(`(?i)^(from|von|de|van|da)\s?:\s*\S`)
	headerSent = regexp.MustCompile(`(?i)^(sent|date|gesendet|datum|envoyé|enviado|verzonden|inviato|data)\s?:\s*\S`)
)

// OwnText returns s without the mail it quotes: lines marked "> ", and everything from a
// reply header or an Outlook header block on, once the sender has written something of
// their own above it. A header counts only if it holds a date or an address ("my
// colleague wrote:" introduces the customer's own words). A message that is nothing but
// quotation, or a forward with no text of its own, is returned whole: then the quoted
// mail is the question.
func OwnText(s string) string {
	lines := strings.Split(s, "\n")
	var kept []string
	hasOwn := false
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, ">") {
			continue
		}
		if hasOwn && quoteStarts(lines, i) {
			break
		}
		kept = append(kept, line)
		hasOwn = hasOwn || t != ""
	}
	if !hasOwn {
		return s
	}
	return strings.TrimRight(strings.Join(kept, "\n"), " \t\n")
}

// quoteStarts reports whether quoted mail begins at lines[i]: a reply header on that line
// or wrapped onto the next, a separator line, or a "From:" line with a "Sent:" line among
// the next three.
func quoteStarts(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	if t == "" {
		return false
	}
	if originalMessage.MatchString(t) || replyHeader(t) {
		return true
	}
	if i+1 < len(lines) && replyHeader(t+" "+strings.TrimSpace(lines[i+1])) {
		return true
	}
	if !headerFrom.MatchString(t) {
		return false
	}
	for j := i + 1; j < len(lines) && j <= i+3; j++ {
		if headerSent.MatchString(strings.TrimSpace(lines[j])) {
			return true
		}
	}
	return false
}

// replyHeader is a line that ends in a colon, holds a reply verb and names a date or an
// address.
func replyHeader(line string) bool {
	return strings.HasSuffix(line, ":") && len(strings.Fields(line)) <= 30 && replyVerb.MatchString(line) &&
		strings.ContainsAny(line, "0123456789@")
}
