package guard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func defaultVocab(t testing.TB) *Vocabulary {
	t.Helper()
	v, err := DefaultVocabulary()
	if err != nil {
		t.Fatalf("default vocabulary: %v", err)
	}
	return v
}

func TestFlags(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	tests := []struct {
		kind     Kind
		sentence string
		want     []string // matches of kind, in order; nil means the kind must not be flagged
	}{
		{KindNumber, "Annual plans have a 30-day refund window.", []string{"30-day"}},
		{KindNumber, "The fee is $1,299.00, about 1.5% of the total.", []string{"$1,299.00", "1.5%"}},
		{KindNumber, "You have two weeks and a month left.", []string{"two weeks", "a month"}},
		{KindNumber, "Thanks for reaching out.", nil},
		{KindNumber, "One of our agents looked at ticket T-1001.", nil},

		{KindCommercial, "Refunds are refundable and we refunded you.", []string{"Refunds", "refundable", "refunded"}},
		{KindCommercial, "The cancellation was cancelled, not canceled.", []string{"cancellation", "cancelled", "canceled"}},
		{KindCommercial, "We waive the fee; the waiver is waiving it.", []string{"waive", "waiver", "waiving"}},
		{KindCommercial, "An extension extends the trial.", []string{"extension", "extends"}},
		{KindCommercial, "Upgrade, downgrade, guaranteed compensation, prorated credit.", []string{"Upgrade", "downgrade", "guaranteed", "compensation", "prorated", "credit"}},
		{KindCommercial, "Die Rückerstattung: wir erstatten nach Kündigung eine Gutschrift.", []string{"Rückerstattung", "erstatten", "Kündigung", "Gutschrift"}},
		{KindCommercial, "Please update your credit card in Settings.", nil},
		{KindCommercial, "Thanks for reaching out.", nil},
		{KindCommercial, "The discredited theory and a cancer study.", nil},
		{KindCommercial, "We delete suspended workspaces; Daten werden gelöscht.", []string{"delete", "suspended", "gelöscht"}},
		{KindCommercial, "Shipping is free, at no cost, and we'll cover it.", []string{"free", "at no cost", "we'll cover"}},
		{KindCommercial, "Feel free to ask: freelancers freeze nothing.", nil},
		{KindCommercial, "We reimbursed it, reversed the charge and applied a discount.", []string{"reimbursed", "reversed", "discount"}},
		{KindCommercial, "There is no fee; we don't charge for it.", []string{"no fee", "don't charge"}},
		{KindCommercial, "EU business customers pay VAT by reverse charge.", nil},
		{KindCommercial, "I've removed the late fee and stopped all future charges.", []string{"removed", "stopped"}},
		{KindCommercial, "The fee has been removed; I unlocked the premium features.", []string{"removed", "unlocked"}},
		{KindCommercial, "I removed the old card, and the fee stays as it is.", nil},
		{KindCommercial, "You're now on the Business plan and I've reissued the invoice.", []string{"now on the", "reissued"}},
		{KindCommercial, "Ich habe die Mahngebühr entfernt und Ihr Abo pausiert.", []string{"entfernt", "pausiert"}},
		{KindCommercial, "Bitte entfernen Sie die alte Karte.", nil},
		{KindCommercial, "There is no cancellation fee, and as a courtesy it's on us.", []string{"no cancellation fee", "as a courtesy", "it's on us"}},
		{KindCommercial, "Stop by the office, or remove the filter to see every plan.", nil},
		{KindCommercial, "Your balance is zero; to be clear, pick the fee from the drop-down.", nil},
		{KindCommercial, "Done, the duplicate charge is gone, and your invoice has been corrected.", []string{"is gone", "corrected"}},
		{KindCommercial, "The late fee has been forgiven and the balance written off.", []string{"forgiven", "written off"}},
		{KindCommercial, "A fixed charge applies, so I've fixed your bill.", []string{"fixed"}},
		{KindCommercial, "I've transferred the credits, we can delay the payment, and you can withdraw the balance.", []string{"transferred", "credits", "delay", "withdraw"}},
		{KindCommercial, "I've removed the overage charge, and the late fee has been taken off your bill.", []string{"removed", "taken off"}},
		{KindCommercial, "Your payment has gone through; the invoice is correct, and we corrected the typo.", nil},

		{KindTiming, "It takes effect immediately, or at the end of the month.", []string{"immediately", "end of the"}},
		{KindTiming, "Es gilt sofort, spätestens zum Ende des Monats.", []string{"sofort", "zum Ende"}},
		{KindTiming, "It renews every year.", nil},
		{KindTiming, "Your refund will reach your card today; thanks for writing today.", []string{"today"}},
		{KindTiming, "I'll follow up tomorrow, and the credit shows up by Friday.", []string{"by Friday"}},
		{KindTiming, "Refunds take a few business days, by the end of the week.", []string{"a few business days", "by the end of the week"}},

		{KindEligibility, "Your plan includes priority support.", []string{"Your plan includes"}},
		{KindEligibility, "You qualify for the discount and you’re entitled to it.", []string{"You qualify", "you’re entitled"}},
		{KindEligibility, "You are  eligible, and this is covered.", []string{"You are  eligible", "this is covered"}},
		{KindEligibility, "Exports are included in your plan.", []string{"included in your plan"}},
		{KindEligibility, "Pro includes phone support, inklusive Steuern.", []string{"includes", "inklusive"}},
		{KindEligibility, "Your plan is called Pro.", nil},
		{KindEligibility, "Pro customers get phone support and every plan gets backups.", []string{"customers get", "plan gets"}},
		{KindEligibility, "Customers getting this error should reload the page.", nil},
		{KindEligibility, "Annual plans come with phone support; your account is eligible.", []string{"come with", "eligible"}},
		{KindEligibility, "Let me check whether you're eligible, and if your plan qualifies.", nil},

		{KindFuture, "This will be fixed in the next release.", []string{"will be fixed", "in the next release"}},
		{KindFuture, "We'll refund it by tomorrow, or shortly.", []string{"We'll", "by tomorrow", "shortly"}},
		{KindFuture, "We will look at it by next week.", []string{"by next week"}}, // looking at it is courtesy; the date is not
		{KindFuture, "Your card won't be charged again.", []string{"won't"}},
		{KindFuture, "Our team will make sure it never happens again.", []string{"will", "never happens again"}},
		{KindFuture, "I'll look into this and get back to you.", nil},
		{KindFuture, "We'll pass your note on; we will pass the savings on to you.", []string{"we will"}},
		{KindFuture, "We're willing to help.", nil},
		{KindFuture, "We fixed it last week.", nil},

		{KindLegal, "You have a statutory right to withdraw under EU law.", []string{"statutory", "right to withdraw", "under EU law"}},
		{KindLegal, "GDPR requires that; consumer rights apply legally.", []string{"GDPR requires", "consumer rights", "legally"}},
		{KindLegal, "Ihr Widerrufsrecht gilt gesetzlich.", []string{"Widerrufsrecht", "gesetzlich"}},
		{KindLegal, "Our team reviewed your account.", nil},
		{KindLegal, "We are not liable for bank fees under GDPR.", []string{"liable", "under GDPR"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind)+"/"+tt.sentence, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, f := range v.Flags(tt.sentence) {
				if f.Kind == tt.kind {
					got = append(got, f.Match)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("%s flags in %q\n got %q\nwant %q", tt.kind, tt.sentence, got, tt.want)
			}
		})
	}
}

func TestFlagsNothingInPlainSentences(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	for _, s := range []string{
		"Thanks for reaching out.",
		"Hi Anna,",
		"I have passed your question to the billing team.",
		"Let me know if anything else comes up.",
		"Best regards, Sam",
	} {
		if flags := v.Flags(s); len(flags) > 0 {
			t.Errorf("Flags(%q) = %v, want none", s, flags)
		}
	}
}

func TestVerbs(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	tests := []struct {
		text string
		want []string
	}{
		{"Refunds are processed after cancellation.", []string{"cancel", "refund"}},
		{"We can waive it or extend the extension.", []string{"extend", "waive"}},
		{"Rückerstattung nach Kündigung, anteilig berechnet.", []string{"cancel", "prorate", "refund"}},
		{"Your credit card was charged.", nil},
		{"Thanks for reaching out.", nil},
	}
	for _, tt := range tests {
		if got := v.Verbs(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Verbs(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestLoadVocabulary(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "local.txt")
	local := "# our own promises\ncommercial\tupsell\nfuture\tas soon as possible\nexcept\twe will miss\n" +
		"courtesy\tdouble-check\nlegal\tfair use$\n"
	if err := os.WriteFile(path, []byte(local), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := LoadVocabulary(path)
	if err != nil {
		t.Fatalf("LoadVocabulary: %v", err)
	}
	flags := v.Flags("We refund an upsell as soon as possible. We will miss you. We'll double-check. Fair use, not fair usage.")
	want := []Flag{
		{KindCommercial, "refund"}, {KindCommercial, "upsell"},
		{KindFuture, "as soon as possible"}, {KindLegal, "Fair use"},
	}
	if !slices.Equal(flags, want) {
		t.Fatalf("merged vocabulary flags = %v, want %v", flags, want)
	}
}

func TestLoadVocabularyErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, content, wantErr string }{
		{"unknown kind", "promise\twe swear\n", `line 1: unknown kind "promise"`},
		{"no tab", "# fine\ncommercial refund\n", "line 2: want kind<TAB>phrase"},
		{"bad start", "legal\t§ 312g\n", "must start with a letter or digit"},
		{"verb without object", "commercial\tremov …\twaive\n", "name at least one object"},
		{"object of an eligibility", "eligibility\tavailable … plan\n", "only a commercial or timing entry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "local.txt")
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := LoadVocabulary(path)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), path) {
				t.Fatalf("LoadVocabulary error = %v, want one naming %s and %q", err, path, tt.wantErr)
			}
		})
	}
	if _, err := LoadVocabulary(filepath.Join(t.TempDir(), "missing.txt")); err == nil {
		t.Fatal("LoadVocabulary of a missing file: want an error")
	}
}

func TestVerbPolarity(t *testing.T) {
	t.Parallel()
	v := defaultVocab(t)
	tests := []struct {
		text              string
		affirmed, negated []string
	}{
		{"We refund annual plans within 14 days.", []string{"refund"}, nil},
		{"Refunds are issued within 14 days, not 30.", []string{"refund"}, nil},
		{"Support agents may not waive late fees.", nil, []string{"waive"}},
		{"No refunds after the window.", nil, []string{"refund"}},
		{"Monthly plans can't be refunded.", nil, []string{"refund"}},
		{"We never credit unused seats. We credit removed seats by the day.", []string{"credit"}, []string{"credit"}},
		{"Not today. We refund it.", []string{"refund"}, nil},
		{"Die Gebühr wird nicht erstattet.", nil, []string{"refund"}},
		{"The late fee has not been removed.", nil, []string{"waive"}},
		{"We've stopped charging your card.", []string{"cancel"}, nil},
	}
	for _, tt := range tests {
		a := v.analyse(tt.text)
		if !slices.Equal(a.affirmed, tt.affirmed) || !slices.Equal(a.negated, tt.negated) {
			t.Errorf("%q: affirmed %v negated %v, want %v and %v", tt.text, a.affirmed, a.negated, tt.affirmed, tt.negated)
		}
	}
}
