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

// greetingWords bounds how long a greeting line may be.
const greetingWords = 4

// greeting matches a line that opens a mail and says nothing yet ("Hi team,").
var greeting = regexp.MustCompile(`(?i)^(hi|hello|hey|dear|hallo|liebe|lieber|sehr geehrte|good (morning|afternoon|evening)|guten (morgen|tag|abend)|grüß gott|grüezi|moin|servus)\b`)

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

// forwardMarker is the line a mail client puts above a forwarded mail; forwardedSubject
// the subject line of an Outlook header block that forwards one ("Subject: FW: …").
var (
	forwardMarker    = regexp.MustCompile(`(?i)^-*\s*(forwarded message|begin forwarded message|weitergeleitete nachricht|message transféré|mensaje reenviado|mensagem encaminhada|doorgestuurd bericht|messaggio inoltrato)\s*-*:?$`)
	forwardedSubject = regexp.MustCompile(`(?i)^(subject|betreff|objet|asunto|assunto|onderwerp|oggetto)\s?:\s*(fw|fwd|wg|tr|rv|enc|doorst)\s*:`)
)

// OwnText returns the message proper of a mail body: without the mail it quotes, and
// without the sign-off and what follows it (signature, notices, the phone's footer).
//
// Quoted mail is the lines marked "> ", and everything from a reply header or an Outlook
// header block on, once the sender has written something of their own above it. A header
// counts only if it holds a date or an address ("my colleague wrote:" introduces the
// customer's own words). A message that is nothing but quotation is returned whole: then
// the quoted mail is the question. A forwarded mail is kept whole below the forwarder's
// own message proper: a colleague's "can you help this customer?" asks about it.
//
// A closing line ("Thanks,", "Kind regards", "--") ends the message once the sender has
// asked something above it; in a mail that asks nothing, the first closing line after
// something said. A thank-you that opens a mail ("Hi, thanks for the quick reply.") ends
// nothing: the question follows it. A line that asks is never a closing line ("Thanks. Is
// there a discount?").
func OwnText(s string) string {
	lines := strings.Split(s, "\n")
	if i := forwardAt(lines); i >= 0 {
		forwarded := strings.TrimSpace(strings.Join(lines[i:], "\n"))
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

// forwardAt returns the line at which a forwarded mail starts, or -1.
func forwardAt(lines []string) int {
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if forwardMarker.MatchString(t) {
			return i
		}
		if !originalMessage.MatchString(t) && !headerFrom.MatchString(t) {
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
	var kept []string
	hasOwn, asked, said, end := false, false, false, -1
lines:
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, ">") {
			continue
		}
		if hasOwn && quoteStarts(lines, i) {
			break
		}
		switch words := len(strings.Fields(t)); {
		case t == "":
		case asksAnything(t):
			asked, said, end = true, true, -1
		case words <= signOffWords && signOff.MatchString(t):
			if said && end < 0 {
				end = len(kept)
			}
			if asked {
				break lines
			}
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
	return strings.TrimRight(strings.Join(kept, "\n"), " \t\n")
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
