package guard

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/supportdraft/supportdraft/text"
)

// A quantity's bound is read from the words right before it and its rate period from the
// words after it, past what a price is per ("per user per month").
func TestQualifyReadsBoundAndRate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sentence, quantity string
		want               qualifier
	}{
		{"Refunds arrive within 10 business days.", "10 business days", qualifier{bound: upper}},
		{"Refunds take at least 10 business days.", "10 business days", qualifier{bound: lower}},
		{"Backups are kept for more than 30 days.", "30 days", qualifier{bound: lower, strict: true}},
		{"Invoices older than 12 months cannot be reissued.", "12 months", qualifier{bound: lower, strict: true}},
		{"Invoices from the last 12 months can be reissued.", "12 months", qualifier{bound: upper}},
		{"Backups are kept for 30 days after the plan ends.", "30 days", qualifier{}},
		{"Hardware can be returned within 30 days of delivery.", "30 days", qualifier{bound: upper, since: []string{"delivery"}}},
		{"Innerhalb von 21 Tagen nach Kauf erstattet.", "21 Tagen", qualifier{bound: upper, since: []string{"kauf", "erstattet"}, german: true}},
		{"Storage is 1 TB of space.", "1 TB", qualifier{}},
		{"After 21 days without payment the workspace is suspended.", "21 days", qualifier{after: true}},
		{"Nach 21 Tagen wird gesperrt.", "21 Tagen", qualifier{after: true}},
		{"We retry it 4 times over 10 days.", "10 days", qualifier{}},
		{"Ein Jahresplan kann innerhalb von 21 Tagen erstattet werden.", "21 Tagen", qualifier{bound: upper}},
		{"The Pro plan costs €14 per user per month.", "€14", qualifier{rate: "month", per: "seat"}},
		{"Storage is billed at $0.02 per GB per year.", "$0.02", qualifier{rate: "year", per: "gb"}},
		{"Team includes 2 TB per workspace.", "2 TB", qualifier{per: "workspace"}},
		{"Team includes 2 TB per workspace.", "2", qualifier{per: "workspace"}},
		{"Packs cost $15/month on Solo.", "$15", qualifier{rate: "month"}},
		{"A pack costs up to $15 a month.", "$15", qualifier{bound: upper, rate: "month"}},
		{"It costs $15 per seat.", "$15", qualifier{per: "seat"}},
	}
	for _, tt := range tests {
		if got := qualifyQuantity(t, tt.sentence, tt.quantity); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q, %q: got %+v, want %+v", tt.sentence, tt.quantity, got, tt.want)
		}
	}
}

// A sentence's bound backs only a unit's of the same side or none, a strict one only a
// bounded one ("more than" one past the number: "after"), and a rate only the same rate or
// none.
func TestQualifierAgrees(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sentence, unit qualifier
		want           bool
	}{
		{qualifier{bound: upper}, qualifier{bound: upper}, true},
		{qualifier{}, qualifier{bound: upper}, true},
		{qualifier{bound: lower}, qualifier{}, true},
		{qualifier{bound: lower}, qualifier{bound: upper}, false},
		{qualifier{bound: upper}, qualifier{bound: lower}, false},
		{qualifier{bound: lower, strict: true}, qualifier{}, false},
		{qualifier{bound: lower, strict: true}, qualifier{after: true}, true},
		{qualifier{bound: upper, strict: true}, qualifier{after: true}, false},
		{qualifier{rate: "month"}, qualifier{rate: "month"}, true},
		{qualifier{}, qualifier{rate: "month"}, true},
		{qualifier{rate: "year"}, qualifier{rate: "month"}, false},
		{qualifier{per: "seat"}, qualifier{per: "seat"}, true},
		{qualifier{}, qualifier{per: "workspace"}, true},
		{qualifier{per: "seat"}, qualifier{per: "workspace"}, false},
	}
	for _, tt := range tests {
		if got := tt.sentence.agrees(tt.unit); got != tt.want {
			t.Errorf("%+v agrees with %+v: got %v, want %v", tt.sentence, tt.unit, got, tt.want)
		}
	}
}

// A duration counted from one event does not back one counted from another, in the same
// language: "of purchase" is not "of delivery", while "of renewing" is "of the renewal date".
func TestSameEvent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sentence, unit string
		want           bool
	}{
		{"returned within 30 days of purchase", "returned within 30 days of delivery", false},
		{"returned within 30 days of it being delivered", "returned within 30 days of delivery", true},
		{"refunded within 14 days of renewing", "refunded within 14 days of the renewal date", true},
		{"refunded within 14 days of your request", "refunded within 14 days of the renewal date", false},
		{"refunded within 14 days", "refunded within 14 days of the renewal date", true},
		{"innerhalb von 21 Tagen nach der Verlängerung", "innerhalb von 21 Tagen nach Kauf oder Verlängerung", true},
		{"within 21 days of purchase", "innerhalb von 21 Tagen nach Kauf", true},
		{"cancel within 14 days of your first visit", "cancel within 14 days of their first payment", false},
		{"cancel within 14 days of your first payment", "cancel within 14 days of their first payment", true},
		{"valid for 3 years from the date they're first used", "valid for 3 years from the date of purchase", false},
		{"valid for 3 years from the date they were purchased", "valid for 3 years from the date of purchase", true},
		{"contact us within 7 days of that date and you'll get a credit", "contact us within 7 days of the delivery date", true},
	}
	for _, tt := range tests {
		q, u := qualifyQuantity(t, tt.sentence, ""), qualifyQuantity(t, tt.unit, "")
		if got := q.sameEvent(u); got != tt.want {
			t.Errorf("%q beside %q: same event %v, want %v", tt.sentence, tt.unit, got, tt.want)
		}
	}
}

// qualifyQuantity qualifies the quantity written quantity in s ("2" of "2 TB" reads the
// number alone), or the first quantity of s when quantity is "".
func qualifyQuantity(t *testing.T, s, quantity string) qualifier {
	t.Helper()
	qs := text.Quantities(s)
	if quantity == "" {
		if len(qs) == 0 {
			t.Fatalf("no quantity in %q", s)
		}
		quantity = qs[0].Text
	}
	start := strings.Index(s, quantity)
	duration := slices.ContainsFunc(text.Quantities(quantity), text.Quantity.IsDuration)
	return qualify(s, start, start+len(quantity), duration)
}
