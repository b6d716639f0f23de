package ticket

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/supportdraft/supportdraft/strictjson"
)

// The input contract's limits. A ticket outside them is refused at every entry point (API,
// `draft`, `eval` and replay files) before anything is written. They are generous for a
// support ticket and small enough that one ticket cannot dominate a worker or a history.
const (
	// MaxIDBytes bounds a ticket ID; IDs use IDPattern's characters only.
	MaxIDBytes = 128
	// MaxRevision is the largest revision Postgres' integer column holds.
	MaxRevision = math.MaxInt32
	// MaxRevisionJump bounds how far a new revision may skip past the last one stored: a
	// help desk counts revisions one by one, a jump of millions is a client bug.
	MaxRevisionJump = 1000
	// MaxSubjectBytes bounds the subject line.
	MaxSubjectBytes = 1000
	// MaxMessages bounds the thread length.
	MaxMessages = 200
	// MaxMessageBytes bounds one message body.
	MaxMessageBytes = 64 << 10
	// MaxTextBytes bounds all message bodies together.
	MaxTextBytes = 192 << 10
	// MaxAccountIDBytes bounds the help desk's account ID.
	MaxAccountIDBytes = 128
	// MaxNameBytes bounds the account's optional name.
	MaxNameBytes = 200
	// MaxTokenBytes bounds plan, region and channel names.
	MaxTokenBytes = 32
)

// IDPattern is the ticket ID character set: ASCII letters and digits, then also '.', '_',
// ':' and '-'. No '/', spaces, control characters or non-ASCII: the ID appears in URLs,
// workflow IDs and log lines, and must mean the same in each.
var IDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]*$`)

var (
	tokenPattern  = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	localePattern = regexp.MustCompile(`^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$`)
)

// ValidateID checks a ticket ID against IDPattern and MaxIDBytes; the API checks URL
// parameters with it too, so an unreadable ID is a 400, never a lookup.
func ValidateID(id string) error { return CheckID("ticket_id", id) }

// CheckID checks any field that becomes a ticket ID (an inbound message's thread ID is
// its ticket's ID) by the same rule, naming the field.
func CheckID(field, id string) error {
	switch {
	case strings.TrimSpace(id) == "":
		return fmt.Errorf(`field %q is required`, field)
	case len(id) > MaxIDBytes:
		return fmt.Errorf(`field %q is longer than %d bytes`, field, MaxIDBytes)
	case !IDPattern.MatchString(id):
		return fmt.Errorf(`field %q is %q: use ASCII letters, digits and . _ : - (starting with a letter or digit)`, field, clip(id))
	}
	return nil
}

// CheckLocale checks an optional locale: empty, or a language tag such as en or de-AT.
func CheckLocale(field, v string) error {
	if v != "" && !localePattern.MatchString(v) {
		return fmt.Errorf(`field %q is %q: use a language tag such as en or de-AT`, field, clip(v))
	}
	return nil
}

// ValidToken checks a plan or region name: a short lowercase token. "*" means "every
// plan" in the corpus and is never an account's own value. The error reads after the
// field's name.
func ValidToken(v string) error {
	switch {
	case v == "":
		return errors.New("is required")
	case len(v) > MaxTokenBytes || !tokenPattern.MatchString(v):
		return fmt.Errorf("is %q: use a lowercase name of at most %d letters, digits, _ or -", clip(v), MaxTokenBytes)
	}
	return nil
}

// Sets are the plans, regions and locales this deployment knows (SUPPORTDRAFT_PLANS,
// SUPPORTDRAFT_REGIONS, SUPPORTDRAFT_LOCALES). An empty set accepts any well-formed name,
// so evaluations over another company's tickets still run.
type Sets struct {
	Plans, Regions, Locales []string
}

// Check refuses an account whose plan, region or locale is not in a configured set.
func (s Sets) Check(t *Ticket) error {
	for _, f := range []struct {
		field, value string
		allowed      []string
	}{
		{"account.plan", t.Account.Plan, s.Plans},
		{"account.region", t.Account.Region, s.Regions},
		{"account.locale", t.Account.Eligibility().Locale, s.Locales},
	} {
		if len(f.allowed) > 0 && !slices.Contains(f.allowed, f.value) {
			return fmt.Errorf(`ticket %s: field %q is %q: use one of %s`, t.TicketID, f.field, clip(f.value), strings.Join(f.allowed, ", "))
		}
	}
	return nil
}

// printable reports text with no control characters.
func printable(s string) bool {
	return !strings.ContainsFunc(s, unicode.IsControl)
}

// clip shortens a refused value for an error message: the message names it, it does not
// echo 100 KB back.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	return strings.ToValidUTF8(s[:40], "") + "…"
}

// Parse decodes one ticket with the strict JSON rules (no unknown fields, duplicate keys or
// trailing data) and validates it: the one way every input file and request body becomes
// a Ticket. Errors name the line within data and the field.
func Parse(data []byte) (*Ticket, error) {
	var t Ticket
	if err := strictjson.Decode(data, &t); err != nil {
		return nil, err
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return &t, nil
}
