package inbox

import (
	"context"
	"testing"
)

func TestClassifier(t *testing.T) {
	t.Parallel()
	cases := []struct {
		subject, body string
		needs         bool
		bucket        string
	}{
		{"Refund please", "We renewed by mistake 4 days ago, can we get our money back?", true, BucketRefunds},
		{"Rückerstattung", "Bitte erstatten Sie die doppelte Abbuchung.", true, BucketRefunds},
		{"How to cancel", "Where do I cancel my plan?", true, BucketCancellation},
		{"Kündigung", "Hiermit kündige ich zum Monatsende.", true, BucketCancellation},
		{"Upgrade", "What do we pay if we upgrade mid-month?", true, BucketPlanChange},
		{"Card declined", "Our card was declined at renewal.", true, BucketPaymentFailed},
		{"Zahlung fehlgeschlagen", "Die Lastschrift ist fehlgeschlagen.", true, BucketPaymentFailed},
		{"VAT", "Please add our VAT number to the invoice.", true, BucketInvoiceTax},
		{"Frage zur Abrechnung", "Lohnt sich der Wechsel auf das Jahresabo?", true, BucketPlanChange},
		{"Nonprofit", "Do you have a discount for charities?", true, BucketPricingDiscounts},
		{"GDPR", "Please delete all personal data of our former employee.", true, BucketAccountData},
		{"Login", "I can't log in, the password reset link never arrives.", true, BucketNotBilling},
		{"API", "We get HTTP 429 from the invoices endpoint; what are the rate limits?", true, BucketNotBilling},
		{"Thanks!", "That fixed it, cheers.", false, ""},
		{"Danke", "Vielen Dank, hat geklappt.", false, ""},
		{"FYI", "FYI, our new finance contact is Priya. No action needed.", false, ""},
		{"Thanks", "Thanks, but the refund still hasn't arrived.", true, BucketRefunds},
		{"Re: refund", "Thanks! When will it reach our card?", true, BucketRefunds},
		{"Re: invoice", "Please resend it.\n\nOn Mon, 3 Nov 2026 Ana wrote:\n> my password does not work", true, BucketInvoiceTax},
		{"Re: Your receipt", "Why is the amount higher this month?\n\nFrom: Billing <billing@x.example>\nSent: Monday, 3 November 2026 09:00\n\n" +
			"To cancel, open Billing. Cancelling stops the renewal. You can cancel at any time.", true, BucketInvoiceTax},
		{"Question", "Can we get our money back?\n\nKind regards,\nPriya\nIf you received this in error, delete it and any copies; deletion is required.", true, BucketRefunds},
	}
	for _, tc := range cases {
		got, err := Classifier{}.Triage(context.Background(), &Message{Subject: tc.subject, Body: tc.body})
		if err != nil {
			t.Fatal(err)
		}
		if got.NeedsResponse != tc.needs || got.Bucket != tc.bucket || got.Reason == "" {
			t.Errorf("%q / %q: got %+v, want needs=%v bucket=%q", tc.subject, tc.body, got, tc.needs, tc.bucket)
		}
	}
}

func TestTriageCheck(t *testing.T) {
	t.Parallel()
	if err := (&Triage{NeedsResponse: true, Bucket: "shipping"}).Check(nil); err == nil {
		t.Fatal("an unknown bucket must be refused")
	}
	tr := &Triage{NeedsResponse: false, Bucket: BucketRefunds}
	if err := tr.Check(nil); err != nil || tr.Bucket != "" {
		t.Fatalf("no response needed carries no bucket, got %+v, %v", tr, err)
	}
}

// A message with no cue of any bucket, billing or not, is one the cue words cannot read:
// it is drafted for review (Unsure), never skipped. Off-topic cues alone are a reading:
// such mail is routed to people.
func TestClassifierUnsureWithoutCues(t *testing.T) {
	t.Parallel()
	triage := func(body string) *Triage {
		got, err := Classifier{}.Triage(context.Background(), &Message{Subject: "Question", Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	for _, body := range []string{"Do you sponsor open-source projects?", "Is the interface available in Polish?",
		"Do you have a referral programme? We'd like to recommend you to partners."} {
		if got := triage(body); !got.NeedsResponse || got.Bucket != BucketNotBilling || !got.Unsure {
			t.Errorf("%q: got %+v, want not_billing, unsure", body, got)
		}
	}
	for _, body := range []string{"I can't log in, the password reset link never arrives.",
		"We get HTTP 429 from the endpoint; what are the rate limits?"} {
		if got := triage(body); got.Bucket != BucketNotBilling || got.Unsure {
			t.Errorf("%q: got %+v, want not_billing, routed to people", body, got)
		}
	}
}
