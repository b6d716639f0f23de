package provenance

import (
	"fmt"
	"strings"
	"time"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/policy"
	"github.com/supportdraft/supportdraft/ticket"
)

// AccountCheck compares the account a draft was built for with the account on the ticket
// now. A correct policy applied to a stale entitlement produces a false sentence built
// entirely from true inputs, so this is worth checking before concluding the model made
// anything up.
type AccountCheck struct {
	TicketID       string          `json:"ticket_id"`
	DraftIteration int             `json:"draft_iteration"`
	DraftRevision  int             `json:"draft_revision"` // the ticket revision the draft was built from
	BuiltAt        time.Time       `json:"built_at"`       // the instant eligibility was judged at
	BuiltWith      policy.Account  `json:"built_with"`
	TicketRevision int             `json:"ticket_revision"` // the latest revision
	Now            policy.Account  `json:"now"`
	Changes        []AccountChange `json:"changes"`
}

// AccountChange is one eligibility field that differs.
type AccountChange struct {
	Field string `json:"field"` // plan | region | locale
	Built string `json:"built"` // what the draft was built for
	Now   string `json:"now"`   // what the ticket says now
}

// CheckAccount compares draft d with the latest revision t of its ticket.
func CheckAccount(d *drafts.Saved, t *ticket.Ticket) AccountCheck {
	built := d.Account
	if built.Locale == "" {
		built.Locale = "en"
	}
	c := AccountCheck{TicketID: d.TicketID, DraftIteration: d.Iteration, DraftRevision: d.Revision, BuiltAt: d.EligibleAt,
		BuiltWith: built, TicketRevision: t.Revision, Now: t.Account.Eligibility(), Changes: []AccountChange{}}
	for _, f := range []struct{ name, built, now string }{
		{"plan", c.BuiltWith.Plan, c.Now.Plan},
		{"region", c.BuiltWith.Region, c.Now.Region},
		{"locale", c.BuiltWith.Locale, c.Now.Locale},
	} {
		if f.built != f.now {
			c.Changes = append(c.Changes, AccountChange{Field: f.name, Built: f.built, Now: f.now})
		}
	}
	return c
}

// String reports the comparison for people, ending with what to do.
func (c AccountCheck) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "draft #%d of ticket %s was built from revision %d at %s for plan %s, region %s, locale %s\n",
		c.DraftIteration, c.TicketID, c.DraftRevision, c.BuiltAt.UTC().Format(time.RFC3339),
		c.BuiltWith.Plan, c.BuiltWith.Region, c.BuiltWith.Locale)
	fmt.Fprintf(&b, "the ticket is now at revision %d: plan %s, region %s, locale %s\n",
		c.TicketRevision, c.Now.Plan, c.Now.Region, c.Now.Locale)
	if len(c.Changes) == 0 {
		if c.TicketRevision != c.DraftRevision {
			b.WriteString("the account is unchanged, but the ticket has new revisions since the draft: rebuild it before sending\n")
		} else {
			b.WriteString("the account state the draft was built with is current: a wrong sentence did not come from a stale entitlement\n")
		}
		return b.String()
	}
	for _, ch := range c.Changes {
		fmt.Fprintf(&b, "  %s changed: the draft was built for %q, the ticket now says %q\n", ch.Field, ch.Built, ch.Now)
	}
	b.WriteString("the draft applied policy to a stale account: every sentence may be true for the old account and false for this one; rebuild the draft (and fix the help-desk sync if the change came late)\n")
	return b.String()
}
