package ticket_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/ticket"
)

func good() *ticket.Ticket {
	at := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)
	return &ticket.Ticket{TicketID: "T-1001", Revision: 2, UpdatedAt: at, Channel: "email", Subject: "Refund",
		Account:  ticket.Account{ID: "A-77", Plan: "pro", Region: "eu", Locale: "en"},
		Messages: []ticket.Message{{Author: "customer", At: at, Body: "Can I get a refund?"}}}
}

func TestValidateRefuses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		edit  func(*ticket.Ticket)
		field string
	}{
		{"blank id", func(t *ticket.Ticket) { t.TicketID = " " }, "ticket_id"},
		{"slash in id", func(t *ticket.Ticket) { t.TicketID = "T/1" }, "ticket_id"},
		{"NUL in id", func(t *ticket.Ticket) { t.TicketID = "T\x001" }, "ticket_id"},
		{"newline in id", func(t *ticket.Ticket) { t.TicketID = "T\n1" }, "ticket_id"},
		{"accent in id", func(t *ticket.Ticket) { t.TicketID = "Té" }, "ticket_id"},
		{"emoji in id", func(t *ticket.Ticket) { t.TicketID = "T🙂" }, "ticket_id"},
		{"long id", func(t *ticket.Ticket) { t.TicketID = strings.Repeat("a", 129) }, "ticket_id"},
		{"revision 0", func(t *ticket.Ticket) { t.Revision = 0 }, "revision"},
		{"revision past int32", func(t *ticket.Ticket) { t.Revision = 2147483648 }, "revision"},
		{"star plan", func(t *ticket.Ticket) { t.Account.Plan = "*" }, "account.plan"},
		{"huge plan", func(t *ticket.Ticket) { t.Account.Plan = strings.Repeat("p", 100000) }, "account.plan"},
		{"blank region", func(t *ticket.Ticket) { t.Account.Region = "" }, "account.region"},
		{"odd locale", func(t *ticket.Ticket) { t.Account.Locale = "english please" }, "account.locale"},
		{"long subject", func(t *ticket.Ticket) { t.Subject = strings.Repeat("s", ticket.MaxSubjectBytes+1) }, "subject"},
		{"NUL in subject", func(t *ticket.Ticket) { t.Subject = "a\x00b" }, "subject"},
		{"no messages", func(t *ticket.Ticket) { t.Messages = nil }, "messages"},
		{"too many messages", func(t *ticket.Ticket) {
			t.Messages = make([]ticket.Message, ticket.MaxMessages+1)
		}, "messages"},
		{"long message", func(t *ticket.Ticket) { t.Messages[0].Body = strings.Repeat("b", ticket.MaxMessageBytes+1) }, "messages[0].body"},
		{"too much text", func(t *ticket.Ticket) {
			m := t.Messages[0]
			m.Body = strings.Repeat("b", ticket.MaxMessageBytes)
			t.Messages = []ticket.Message{m, m, m, m}
		}, "messages"},
		{"bad author", func(t *ticket.Ticket) { t.Messages[0].Author = "bot" }, "messages[0].author"},
		{"control in account id", func(t *ticket.Ticket) { t.Account.ID = "A\x07" }, "account.id"},
		{"control in account name", func(t *ticket.Ticket) { t.Account.Name = "Ana\nRuiz" }, "account.name"},
		{"account name too long", func(t *ticket.Ticket) { t.Account.Name = strings.Repeat("a", ticket.MaxNameBytes+1) }, "account.name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tk := good()
			c.edit(tk)
			err := tk.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), `field "`+c.field+`"`)
		})
	}
}

func TestValidateAccepts(t *testing.T) {
	t.Parallel()
	tk := good()
	tk.TicketID = "zendesk:4711_b.2"
	tk.Revision = ticket.MaxRevision
	tk.Account.Locale = "de-AT"
	tk.Subject = "Rückerstattung 🙂"
	require.NoError(t, tk.Validate())
}

func TestSetsCheck(t *testing.T) {
	t.Parallel()
	sets := ticket.Sets{Plans: []string{"pro", "team"}, Regions: []string{"eu"}, Locales: []string{"en", "de"}}
	require.NoError(t, sets.Check(good()))
	tk := good()
	tk.Account.Plan = "gold"
	assert.ErrorContains(t, sets.Check(tk), `field "account.plan" is "gold": use one of pro, team`)
	tk = good()
	tk.Account.Locale = "fr"
	assert.ErrorContains(t, sets.Check(tk), `field "account.locale"`)
	assert.NoError(t, ticket.Sets{}.Check(tk), "an empty set accepts any well-formed name")
}
