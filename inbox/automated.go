package inbox

import (
	"fmt"
	"net/mail"
	"regexp"
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// Automated reports whether a message was sent by a machine rather than a person, and
// which signal said so. It reads the conventions mail systems really use, strongest first:
// RFC 3834's Auto-Submitted, Precedence, mailing-list headers (RFC 2369/2919), the
// auto-reply headers of common mail servers, X-Loop, a null Return-Path and delivery reports
// (bounces), system senders (mailer-daemon, postmaster, no-reply addresses), and the
// subjects auto-replies and bounces carry in English and German.
//
// Signals from headers decide on their own. A no-reply sender is not enough when the
// subject says the mail was forwarded: a shared mailbox or help-desk bridge forwarding a
// customer's question sends from such addresses, and what it carries is a person's mail.
func Automated(m *Message) (bool, string) {
	if v, ok := m.Header("Auto-Submitted"); ok && !strings.EqualFold(firstToken(v), "no") {
		return true, fmt.Sprintf("Auto-Submitted: %s", firstToken(v))
	}
	if v, ok := m.Header("Precedence"); ok {
		switch p := strings.ToLower(firstToken(v)); p {
		case "bulk", "list", "junk", "auto_reply":
			return true, "Precedence: " + p
		}
	}
	for _, h := range []string{"List-Id", "List-Unsubscribe", "List-Post"} {
		if _, ok := m.Header(h); ok {
			return true, h + " header (mailing list or newsletter)"
		}
	}
	for _, h := range []string{"X-Autoreply", "X-Autorespond", "X-Auto-Reply", "X-Autoresponder", "X-Failed-Recipients"} {
		if v, ok := m.Header(h); ok && !strings.EqualFold(strings.TrimSpace(v), "no") {
			return true, h + " header"
		}
	}
	if v, ok := m.Header("X-Loop"); ok {
		// Set by help desks and list servers on mail they send or pass on: answering it
		// is how two autoresponders end up writing to each other.
		return true, "X-Loop: " + firstToken(v) + " (a mail loop)"
	}
	if v, ok := m.Header("X-Auto-Response-Suppress"); ok && strings.Contains(strings.ToLower(v), "oof") {
		return true, "X-Auto-Response-Suppress: " + strings.TrimSpace(v) + " (an out-of-office reply)"
	}
	if v, ok := m.Header("Return-Path"); ok && strings.ReplaceAll(strings.TrimSpace(v), " ", "") == "<>" {
		return true, "null Return-Path <> (a delivery report)"
	}
	if v, ok := m.Header("Content-Type"); ok {
		ct := strings.ToLower(v)
		if strings.Contains(ct, "multipart/report") || strings.Contains(ct, "delivery-status") {
			return true, "Content-Type is a delivery report"
		}
	}
	local := senderLocalPart(m.From.Email)
	if systemSender.MatchString(local) {
		return true, fmt.Sprintf("system sender %s", m.From.Email)
	}
	if noReplySender.MatchString(local) && !forwardSubject.MatchString(m.Subject) {
		return true, fmt.Sprintf("no-reply sender %s", m.From.Email)
	}
	if s := autoSubject.FindString(m.Subject); s != "" {
		return true, fmt.Sprintf("subject starts %q", strings.TrimSpace(s))
	}
	if oooBody(m) {
		return true, "the body is an out-of-office notice"
	}
	return false, ""
}

// ListRequest reports whether mail that Automated calls a mailing list's is a person's
// request sent through a team list ("finance-team@" with Precedence: list): it carries no
// List-Unsubscribe (which bulk senders must set), no Auto-Submitted, and its own text
// asks something. Such mail cannot be told from a list's notice with certainty, so the
// funnel drafts it for review instead of dropping it.
func ListRequest(m *Message) bool {
	if _, ok := m.Header("List-Unsubscribe"); ok {
		return false
	}
	if v, ok := m.Header("Auto-Submitted"); ok && !strings.EqualFold(firstToken(v), "no") {
		return false
	}
	list := false
	if v, ok := m.Header("Precedence"); ok && strings.EqualFold(firstToken(v), "list") {
		list = true
	}
	for _, h := range []string{"List-Id", "List-Post"} {
		if _, ok := m.Header(h); ok {
			list = true
		}
	}
	return list && asksSomething(text.OwnText(m.Body))
}

// asksSomething reports whether a text asks a question or makes a request of its reader.
func asksSomething(body string) bool {
	lower := normalise(body)
	if strings.Contains(body, "?") {
		return true
	}
	if strings.Contains(lower, " please do not reply") || strings.Contains(lower, " bitte nicht antworten") {
		return false
	}
	for _, r := range []string{" please ", " could you ", " can you ", " would you ", " bitte ", " können sie ", " könnten sie "} {
		if strings.Contains(lower, r) {
			return true
		}
	}
	return false
}

// firstToken is a header value up to its first ';' (parameters and comments aside).
func firstToken(v string) string {
	if i := strings.IndexAny(v, ";("); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}

// senderLocalPart is the lower-case part before '@', from a bare address or "Name <addr>".
func senderLocalPart(from string) string {
	addr := strings.TrimSpace(from)
	if a, err := mail.ParseAddress(addr); err == nil {
		addr = a.Address
	}
	addr = strings.ToLower(addr)
	if i := strings.LastIndex(addr, "@"); i >= 0 {
		return addr[:i]
	}
	return addr
}

var (
	// systemSender is a mail system's own address: bounces and delivery reports.
	systemSender = regexp.MustCompile(`^(mailer-daemon|mailerdaemon|postmaster|mail-daemon|bounces?|bounce[-+._].*|.*[-+._]bounces?)$`)
	// noReplySender covers the spellings of "do not reply" addresses, alone or as part of
	// the local part (noreply-billing, no.reply, donotreply, notifications-noreply).
	noReplySender = regexp.MustCompile(`(^|[-+._])(no[-._]?reply|do[-._]?not[-._]?reply|dont[-._]?reply|keine[-._]?antwort|nicht[-._]?antworten)([-+._]|$)|^(notifications?|notify|alerts?|automated|auto-confirm|newsletter|news|digest|mailer)$`)
	// forwardSubject marks mail a person forwarded (English and German prefixes).
	forwardSubject = regexp.MustCompile(`(?i)^\s*(fwd?|fw|wg|weitergeleitet)\s*:`)
	// autoSubject is how auto-replies, out-of-office notices, bounces and read receipts are
	// titled by the common mail servers, in English and German.
	autoSubject = regexp.MustCompile(`(?i)^\s*(` +
		`automatic reply|auto[- ]?reply|autoreply|auto[- ]?response|automated response|out of (the )?office|ooo\b|` +
		`i am out of the office|` +
		`abwesenheitsnotiz|automatische antwort|automatische rückantwort|urlaubsabwesenheit|` +
		`undeliverable|undelivered mail|delivery status notification|delivery failure|delivery delayed|mail delivery (failed|failure|subsystem)|` +
		`returned mail|failure notice|delivery has failed|message not delivered|` +
		`unzustellbar|nicht zustellbar|zustellung fehlgeschlagen|fehlgeschlagene zustellung|` +
		`read:|gelesen:|read receipt|lesebestätigung)`)
	// oooOpening is how out-of-office bodies begin when the server sets no header.
	oooOpening = regexp.MustCompile(`(?i)^\W*(hi|hello|hallo|guten tag|dear [^,]*)?[,!.\s]*(` +
		`(thank you|thanks) for your (e-?mail|message)[.,!]?\s*i('m| am) (currently )?(out of (the )?office|away|on (annual )?leave|on vacation|on holiday)|` +
		`i('m| am) (currently )?(out of (the )?office|away from the office|on (annual |parental )?leave|on vacation|on holiday)|` +
		`vielen dank für ihre (e-?mail|nachricht)[.,!]?\s*ich bin|` +
		`ich bin (derzeit |zurzeit |momentan |bis )?[^?!\n]{0,40}(nicht im büro|abwesend|im urlaub|außer haus)|` +
		`this mailbox is (not monitored|unattended)|dieses postfach wird nicht)`)
)

// oooBody catches the out-of-office notices some servers send with no header at all: a
// short body that opens with the notice and asks nothing.
func oooBody(m *Message) bool {
	b := strings.TrimSpace(m.Body)
	return len(b) < 600 && !strings.Contains(b, "?") && oooOpening.MatchString(b)
}
