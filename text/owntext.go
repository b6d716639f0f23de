package text

import (
	"regexp"
	"strings"
)

// Mail carries more than its sender's message: the mail it replies to (a receipt, "cancel
// at any time"), a signature with a name and a title, a confidentiality notice ("delete
// this email"). Read as what the customer asks, their words point triage at the wrong
// bucket and retrieval at the wrong policy. OwnText keeps only the message proper.

// signOff matches a line that may end the message proper: a closing formula or a
// signature marker.
var signOff = regexp.MustCompile(`(?i)^(thanks|thank you|thx|many thanks|best|kind regards|regards|best regards|best wishes|cheers|sincerely|appreciate your help|looking forward|please advise|waiting for your answer|have a (good|nice|great) day|viele grüße|beste grüße|liebe grüße|mit freundlichen grüßen|danke|lg|mfg|gruß|grüß|--|—|sent from|get outlook|von meinem|gesendet von)`)

// signOffWords bounds how long a closing line may be: "Thanks. We're in the Netherlands,
// is there a discount?" starts like a closing but goes on to ask.
const signOffWords = 8

// postscriptStart opens a postscript ("P.S.", "PS:"): what follows the sign-off but is
// still the sender's message, often a second question.
var postscriptStart = regexp.MustCompile(`(?i)^(p\.\s?(p\.\s?)?s\.?|p?ps\s*[:\-])`)

// greetingWords bounds how long a greeting line may be.
const greetingWords = 4

// greeting matches a line that opens a mail and says nothing yet ("Hi team,").
var greeting = regexp.MustCompile(`(?i)^(hi|hello|hey|dear|hallo|liebe|lieber|sehr geehrte|good (morning|afternoon|evening)|guten (morgen|tag|abend)|grüß gott|grüezi|moin|servus)\b`)

// replyVerb is the verb of a mail client's reply header ("On 2 Nov 2026, Ana <a@b.example>
// wrote:", "Am 02.11.2026 schrieb Ana <a@b.example>:") in the languages customers write in.
var replyVerb = regexp.MustCompile(`(?i)(^|\s)(wrote|writes|sent|schrieb|a écrit|escribió|escreveu|schreef|geschreven|ha scritto|skrev|kirjoitti|napisał|написал|đã viết)(\s|:|$)`)

// datedAddress is the header some clients write without a verb: a date, a name and an
// address ("2014-10-17 11:28 GMT+03:00 Postmaster <p@x.example>:"), or, in any language,
// a line naming a date that ends in an address and a colon ("26.06.2014, 14:41, "Alex"
// < a@x.example >:").
var datedAddress = regexp.MustCompile(`^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b.*<\s*[^<>\s]+@[^<>\s]+\s*>:?$|\d.*<\s*[^<>\s]+@[^<>\s]+\s*>\s*:$`)

// originalMessage is the separator line some clients put above quoted mail: Outlook's
// "-----Original Message-----" (and its translations) or a rule of underscores.
var originalMessage = regexp.MustCompile(`(?i)^(-{3,}\s*(original message|ursprüngliche nachricht|message d'origine|mensaje original|mensagem original|oorspronkelijk bericht|messaggio originale|oprindelig meddelelse|ursprungligt meddelande|opprinnelig melding)\s*-*|_{10,})$`)

// The fields of the header block a client writes above a quoted mail without "> " marks
// ("From: …", "Sent: …", "To: …", "Subject: …"), in the languages customers write in.
const (
	fromFields    = `from|von|de|van|da|fra|från|od|от`
	dateFields    = `sent|date|gesendet|datum|envoyé|enviado|verzonden|inviato|data|sendt|skickat|wysłano|отправлено`
	subjectFields = `subject|betreff|objet|asunto|assunto|onderwerp|oggetto|emne|ämne|temat|тема`
	otherFields   = `to|an|à|para|til|till|aan|cc|кому`
)

// headerKey is any header field with a value; headerWhen a field that names the sender or
// the date, headerFrom one that names the sender.
var (
	headerKey  = regexp.MustCompile(`(?i)^\*?(` + fromFields + `|` + dateFields + `|` + otherFields + `|` + subjectFields + `)\s?:\*?\s*\S`)
	headerFrom = regexp.MustCompile(`(?i)^\*?(` + fromFields + `)\s?:`)
	headerWhen = regexp.MustCompile(`(?i)^\*?(` + fromFields + `|` + dateFields + `)\s?:`)
)

// forwardMarker is the line a mail client puts above a forwarded mail; forwardedSubject
// the subject line of an Outlook header block that forwards one ("Subject: FW: …").
var (
	forwardMarker    = regexp.MustCompile(`(?i)^-*\s*(forwarded message|begin forwarded message|weitergeleitete nachricht|message transféré|mensaje reenviado|mensagem encaminhada|doorgestuurd bericht|messaggio inoltrato)\s*-*:?$`)
	forwardedSubject = regexp.MustCompile(`(?i)^\*?(` + subjectFields + `)\s?:\s*(fw|fwd|wg|tr|rv|enc|doorst)\s*:`)
)

// OwnText returns the message proper of a mail body: without the mail it quotes, and
// without the sign-off and what follows it (signature, notices, the phone's footer).
//
// Quoted mail is the lines marked "> ", and everything from a reply header or an Outlook
// header block on, once the sender has written something of their own above it. A header
// counts only if it holds a date or an address ("my colleague wrote:" introduces the
// customer's own words). A message that is nothing but quotation is returned whole: then
// the quoted mail is the question. A forwarded mail is kept whole below the forwarder's
// own message proper, itself read as a mail: a colleague's "can you help this customer?"
// asks about it.
//
// A closing line ("Thanks,", "Kind regards", "--") ends the message once the sender has
// asked something above it; in a mail that asks nothing, the first closing line after
// something said (a thank-you included: "Thanks, that worked!" then "Kind regards"). A thank-you that opens a mail ("Hi, thanks for the quick reply.") ends
// nothing: the question follows it. A line that asks is never a closing line ("Thanks. Is
// there a discount?"). A postscript below the sign-off is kept.
func OwnText(s string) string {
	lines := strings.Split(s, "\n")
	if i := forwardAt(lines); i >= 0 {
		forwarded := forwardedMail(lines[i:])
		if own := messageProper(lines[:i]); own != "" {
			return own + "\n\n" + forwarded
		}
		return forwarded
	}
	if own := messageProper(lines); own != "" {
		return own
	}
	return s
}

// forwardedMail reads a forwarded mail as OwnText reads any mail: its marker and header
// fields as they are, then its message proper (what it quotes and its signature left out).
func forwardedMail(lines []string) string {
	j := 1
	for j < len(lines) && (strings.TrimSpace(lines[j]) == "" || headerKey.MatchString(strings.TrimSpace(lines[j]))) {
		j++
	}
	body, whole := messageProper(lines[j:]), strings.TrimSpace(strings.Join(lines[j:], "\n"))
	if body == "" || body == whole {
		return strings.TrimSpace(strings.Join(lines, "\n"))
	}
	return strings.TrimSpace(strings.Join(lines[:j], "\n") + "\n" + body)
}

// forwardAt returns the line at which a forwarded mail starts, or -1.
func forwardAt(lines []string) int {
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if forwardMarker.MatchString(t) {
			return i
		}
		if !originalMessage.MatchString(t) && !headerWhen.MatchString(t) {
			continue
		}
		for j := i + 1; j < len(lines) && j <= i+6; j++ {
			if forwardedSubject.MatchString(strings.TrimSpace(lines[j])) {
				return i
			}
		}
	}
	return -1
}

// messageProper is OwnText for a mail without a forward: its lines up to quoted mail or
// the sign-off, "" when the sender wrote nothing of their own.
func messageProper(lines []string) string {
	var kept, postscript []string
	hasOwn, asked, said, closed, inPostscript, end, afterAsk := false, false, false, false, false, -1, 0
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, ">") || !hasOwn && replyHeader(t) && quotedNext(lines, i) {
			continue // quoted mail, or the header above it when the reply is written below
		}
		if hasOwn && quoteStarts(lines, i) {
			break
		}
		if postscriptStart.MatchString(t) {
			inPostscript = true
		}
		if inPostscript {
			if inPostscript = t != ""; inPostscript {
				postscript = append(postscript, line)
			}
			continue
		}
		if closed {
			continue
		}
		switch words := len(strings.Fields(t)); {
		case t == "":
		case asksAnything(t):
			asked, said, end, afterAsk = true, true, -1, len(kept)+1
		case words <= signOffWords && signOff.MatchString(t):
			if said && end < 0 {
				end = len(kept)
			}
			closed, said = asked, true // a thank-you says something: a closing after it ends the mail
		default:
			said = said || words > greetingWords || !greeting.MatchString(t)
		}
		kept = append(kept, line)
		hasOwn = hasOwn || t != ""
	}
	if !hasOwn {
		return ""
	}
	if end >= 0 {
		kept = kept[:end]
	}
	if sig := signatureAt(kept, afterAsk); sig >= 0 {
		kept = kept[:sig]
	}
	own := strings.TrimSpace(strings.Join(kept, "\n"))
	if len(postscript) > 0 {
		own = strings.TrimSpace(own + "\n\n" + strings.Join(postscript, "\n"))
	}
	return own
}

// contact matches what only a signature holds among short lines: a web address, an
// e-mail address, a phone number or the bars between a name, a title and a company.
var contact = regexp.MustCompile(`(?i)https?://|www\.|\S@\S+\.\S|\+?\d[\d ().-]{6,}\d|\s\|\s`)

// signatureAt returns where a signature with no closing line above it starts: the first
// paragraph from lines[start] on (start: just after the last line that asks) whose lines
// are all short and hold a contact (a name, a title, "www.acme.example"). -1 when there
// is none.
func signatureAt(lines []string, start int) int {
	for i := start; i < len(lines); {
		if strings.TrimSpace(lines[i]) == "" {
			i++
			continue
		}
		j, short, reach := i, true, false
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != ""; j++ {
			short = short && len(strings.Fields(lines[j])) <= signOffWords
			reach = reach || contact.MatchString(lines[j])
		}
		if short && reach && i > 0 {
			return i
		}
		i = j
	}
	return -1
}

// asksAnything reports whether a line holds a sentence that asks something.
func asksAnything(line string) bool {
	for _, s := range Split(line) {
		if IsAsking(s.Text) {
			return true
		}
	}
	return false
}

// quoteStarts reports whether quoted mail begins at lines[i]: a separator line, a reply
// header on that line or wrapped onto the next lines (at most four, none blank), or a
// header block.
func quoteStarts(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	if t == "" {
		return false
	}
	if originalMessage.MatchString(t) || replyHeader(t) || headerBlock(lines, i) {
		return true
	}
	if !wrappedHeaderStart(t) {
		return false
	}
	joined := t
	for j := i + 1; j < len(lines) && j <= i+4 && strings.TrimSpace(lines[j]) != ""; j++ {
		joined += " " + strings.TrimSpace(lines[j])
		if replyHeader(joined) {
			return true
		}
	}
	return false
}

// wrappedHeaderStart reports whether a line can open a reply header wrapped onto the
// next lines ("On Tue, Apr 11, 2017 at 10:07 PM John Smith", "2014-10-17 11:28 Postmaster
// <"): a short line naming a date or an address that asks nothing, labels nothing and
// ends no sentence. A customer's own line just above a header ("Will it be retried? Ref:
// INV-2026-16781") is never taken for its first half.
func wrappedHeaderStart(line string) bool {
	last := line[len(line)-1]
	return len(strings.Fields(line)) <= 16 && strings.ContainsAny(line, "0123456789@<") &&
		!strings.Contains(line, "?") && !strings.Contains(line, ": ") &&
		last != '.' && last != '?' && last != '!'
}

// quotedNext reports whether the next line with text after lines[i] is quoted ("> ").
func quotedNext(lines []string, i int) bool {
	for _, line := range lines[i+1:] {
		if t := strings.TrimSpace(line); t != "" {
			return strings.HasPrefix(t, ">")
		}
	}
	return false
}

// replyHeader is a line that ends in a colon, holds a reply verb and names a date or an
// address, or a date followed by a name and an address.
func replyHeader(line string) bool {
	if len(strings.Fields(line)) > 30 {
		return false
	}
	return datedAddress.MatchString(line) ||
		strings.HasSuffix(line, ":") && replyVerb.MatchString(line) && strings.ContainsAny(line, "0123456789@")
}

// headerBlock reports whether lines[i] starts a block of header fields: it names the sender
// or the date, another field follows within three lines, one of the two names the sender,
// and they hold a digit or an address. "From: next month we pay
// yearly." starts no block, nor do a customer's own "Date: 3 March" and "To: Acme GmbH"
// under "Invoice details:".
func headerBlock(lines []string, i int) bool {
	first := strings.TrimSpace(lines[i])
	if !headerWhen.MatchString(first) {
		return false
	}
	sender := headerFrom.MatchString(first)
	for j := i + 1; j < len(lines) && j <= i+3; j++ {
		next := strings.TrimSpace(lines[j])
		if !headerKey.MatchString(next) {
			continue
		}
		if sender = sender || headerFrom.MatchString(next); sender {
			return strings.ContainsAny(first+next, "0123456789@")
		}
	}
	return false
}
