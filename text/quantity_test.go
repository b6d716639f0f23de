package text

import (
	"math"
	"slices"
	"testing"
)

func TestQuantities(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string // "Text=Key"
	}{
		{"within 14 days", []string{"14 days=14 day"}},
		{"a 30-day window", []string{"30-day=30 day"}},
		{"fourteen days", []string{"fourteen days=14 day"}},
		{"a fourteen-day trial", []string{"fourteen-day=14 day"}},
		{"two weeks", []string{"two weeks=14 day"}},
		{"a week", []string{"a week=7 day"}},
		{"a single month over your limit, a single payment", []string{"a single month=1 month"}},
		{"a fortnight or two fortnights", []string{"a fortnight=14 day", "two fortnights=28 day"}},
		{"3 business days, 2 working days, 5 calendar days", []string{"3 business days=3 business_day", "2 working days=2 business_day", "5 calendar days=5 day"}},
		{"two full months, a whole week, 24 consecutive hours", []string{"two full months=2 month", "a whole week=7 day", "24=24 count"}},
		{"a £5 late fee, an €8 credit", []string{"£5=5 money:GBP", "€8=8 money:EUR"}},
		{"the last four digits of your card, 3 characters", nil},
		{"14d, not 10 d or a d", []string{"14d=14 day", "10=10 count"}},
		{"48h, 48 hours, a 48-hour window, an hour", []string{"48h=2 day", "48 hours=2 day", "48-hour=2 day", "an hour=1 hour"}},
		{"twenty-four hours", []string{"twenty-four hours=1 day"}},
		{"retried on day 2 and day 24, in week 3", []string{"2=2 day", "24=24 day", "3=21 day"}},
		{"one month, a month, 30 days", []string{"one month=1 month", "a month=1 month", "30 days=30 day"}},
		{"12 months or 1 year", []string{"12 months=12 month", "1 year=12 month"}},
		{"1.5%, 10 percent, 5 per cent, 20 Prozent, 7 %", []string{"1.5%=1.5 percent", "10 percent=10 percent", "5 per cent=5 percent", "20 Prozent=20 percent", "7 %=7 percent"}},
		{"ten percent", []string{"ten percent=10 percent"}},
		{"$1,299.00 and €12.50", []string{"$1,299.00=1299 money:USD", "€12.50=12.5 money:EUR"}},
		{"A$50 in Australia, C$40 in Canada, US$30, 25 AUD", []string{"A$50=50 money:AUD", "C$40=40 money:CAD", "US$30=30 money:USD", "25 AUD=25 money:AUD"}},
		{"7 tot 10 werkdagen, 3 semaines, 14 días hábiles, 2 giorni lavorativi", []string{"7=7 count", "10 werkdagen=10 business_day", "3 semaines=21 day", "14 días hábiles=14 business_day", "2 giorni lavorativi=2 business_day"}},
		{"die 14-tägige Frist, eine 12-monatige Laufzeit", []string{"14-tägige=14 day", "12-monatige=12 month"}},
		{"un mois, 6 meses, 2 anni, 48 uur, 15 procent, MX$99", []string{"un mois=1 month", "6 meses=6 month", "2 anni=24 month", "48 uur=2 day", "15 procent=15 percent", "MX$99=99 money:MXN"}},
		{"12,50 € or 20 EUR or EUR 20 or £5", []string{"12,50 €=12.5 money:EUR", "20 EUR=20 money:EUR", "EUR 20=20 money:EUR", "£5=5 money:GBP"}},
		{"1.299,00 € and 10 euros and 5 dollars", []string{"1.299,00 €=1299 money:EUR", "10 euros=10 money:EUR", "5 dollars=5 money:USD"}},
		{"€10 a month", []string{"€10=10 money:EUR"}},
		{"$20 per user a month, €5 per seat an hour, $3/seat a month", []string{"$20=20 money:USD", "€5=5 money:EUR", "$3=3 money:USD"}},
		{"$20 for a month", []string{"$20=20 money:USD", "a month=1 month"}},
		{"half your money back, half a month, a half-day, die Hälfte", []string{"half=50 percent", "half a month=0.5 month", "half-day=0.5 day", "Hälfte=50 percent"}},
		{"in the second half of the month", nil},
		{"a full refund, refunded in full, fully credited, eine volle Erstattung", []string{"full=100 percent", "in full=100 percent", "fully=100 percent", "volle=100 percent"}},
		{"your full name, the full list, a fully managed plan", nil},
		{"90 minutes, 120 minutes, 36 hours, 2 years", []string{"90 minutes=90 minute", "120 minutes=2 hour", "36 hours=36 hour", "2 years=24 month"}},
		{"within fourteen (14) days, thirty (30) days, two (3) weeks", []string{"fourteen (14) days=14 day", "thirty (30) days=30 day", "two=2 count", "3=3 count"}},
		{"vierzehn Tage, dreißig Tage, 14 Tagen", []string{"vierzehn Tage=14 day", "dreißig Tage=30 day", "14 Tagen=14 day"}},
		{"einen Monat, zwei Wochen, 3 Werktage, 24 Stunden", []string{"einen Monat=1 month", "zwei Wochen=14 day", "3 Werktage=3 business_day", "24 Stunden=1 day"}},
		{"a hundred days, two hundred users, one hundred and", []string{"a hundred days=100 day", "two hundred=200 count", "one hundred=100 count"}},
		{"3 seats, 1,000 credits, 10,000", []string{"3=3 count", "1,000=1000 count", "10,000=10000 count"}},
		{"two invoices", []string{"two=2 count"}},
		{"7-14 days", []string{"7=7 count", "14 days=14 day"}},
		{"one of us, a refund, ein Fehler, one-time fee", nil},
		{"ticket T-1001, account A77, v2, version 2.4.1", nil},
		{"Thanks for reaching out.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, q := range Quantities(tt.text) {
				got = append(got, q.Text+"="+q.Key())
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Quantities(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}

// TestKeyEquivalence pins the promise the support rule depends on: the same fact in
// different words has one key, and a month is not thirty days.
func TestKeyEquivalence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		same bool
	}{
		{"14 days", "fourteen days", true},
		{"14 days", "two weeks", true},
		{"14 days", "a fortnight", true},
		{"14 days", "14-day", true},
		{"14 days", "vierzehn Tage", true},
		{"30 days", "dreißig Tagen", true},
		{"1 month", "a month", true},
		{"1 month", "einen Monat", true},
		{"$1,299.00", "1299 USD", true},
		{"one month", "30 days", false},
		{"14 days", "14 business days", false},
		{"10 EUR", "10 USD", false},
		{"10%", "10", false},
	}
	for _, tt := range tests {
		qa, qb := Quantities(tt.a), Quantities(tt.b)
		if len(qa) != 1 || len(qb) != 1 {
			t.Fatalf("want one quantity each in %q and %q, got %v and %v", tt.a, tt.b, qa, qb)
		}
		if same := qa[0].Key() == qb[0].Key(); same != tt.same {
			t.Errorf("%q (%s) vs %q (%s): same = %v, want %v", tt.a, qa[0].Key(), tt.b, qb[0].Key(), same, tt.same)
		}
	}
}

func FuzzQuantities(f *testing.F) {
	for _, seed := range []string{
		"30-day refund window, fourteen days, two weeks, 48h, a month, €10 a month",
		"$1,299.00 1.299,00 € 12,50 € 1.5% 10 per cent 20 Prozent 2.4.1 T-1001",
		"twenty-four hours, a hundred days, vierzehn Tage, einen Monat, 3 business days",
		"99999999999999999999999999999999999999999999 1,2,3 ein hundert-",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		first := Quantities(text)
		if again := Quantities(text); !slices.Equal(first, again) {
			t.Fatalf("Quantities(%q) not deterministic: %v then %v", text, first, again)
		}
		for _, q := range first {
			if math.IsNaN(q.Value) || math.IsInf(q.Value, 0) || q.Text == "" || q.Unit == "" {
				t.Fatalf("Quantities(%q) gave malformed %+v", text, q)
			}
			// Read on its own, a quantity's text must mean the same thing.
			alone := Quantities(q.Text)
			if len(alone) == 0 || alone[0].Key() != q.Key() {
				t.Fatalf("Quantities(%q) gave %s, but its text %q alone gives %v", text, q.Key(), q.Text, alone)
			}
		}
	})
}
