package inbox

import "testing"

func TestAutomated(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		from    string
		subject string
		body    string
		headers map[string]string
		want    bool
	}{
		{"auto-replied header", "ana@customer.example", "Re: refund", "Back Monday.", map[string]string{"Auto-Submitted": "auto-replied"}, true},
		{"header names are case-insensitive", "ana@customer.example", "Re: refund", "x", map[string]string{"auto-submitted": "auto-generated; owner-email=x"}, true},
		{"Auto-Submitted: no is a person", "ana@customer.example", "Refund", "Can I get a refund?", map[string]string{"Auto-Submitted": "no"}, false},
		{"precedence bulk", "news@vendor.example", "Weekly", "x", map[string]string{"Precedence": "bulk"}, true},
		{"precedence list", "ops@vendor.example", "x", "x", map[string]string{"Precedence": "List"}, true},
		{"list-unsubscribe", "digest@news.example", "Digest", "x", map[string]string{"List-Unsubscribe": "<mailto:u@news.example>"}, true},
		{"list-id", "forum@dev.example", "[forum] thread", "x", map[string]string{"List-Id": "<forum.dev.example>"}, true},
		{"x-autoreply", "ana@customer.example", "Re: invoice", "x", map[string]string{"X-Autoreply": "yes"}, true},
		{"exchange OOF suppress", "ana@customer.example", "x", "x", map[string]string{"X-Auto-Response-Suppress": "OOF, AutoReply"}, true},
		{"null return path", "someone@mx.example", "x", "x", map[string]string{"Return-Path": "<>"}, true},
		{"delivery report", "someone@mx.example", "x", "x", map[string]string{"Content-Type": "multipart/report; report-type=delivery-status"}, true},
		{"mailer-daemon", "MAILER-DAEMON@mx.example", "Undelivered Mail Returned to Sender", "x", nil, true},
		{"postmaster", "postmaster@mail.example", "x", "x", nil, true},
		{"noreply", "noreply@payments.example", "Payout sent", "x", nil, true},
		{"no-reply with a suffix", "no-reply-billing@saas.example", "Receipt", "x", nil, true},
		{"do_not_reply", "do_not_reply@bank.example", "Alert", "x", nil, true},
		{"donotreply display form", "Bank <donotreply@bank.example>", "Alert", "x", nil, true},
		{"a no-reply relay forwarding a person", "noreply-bridge@clinic.example", "Fwd: overage on our bill", "why were we charged?", nil, false},
		{"German forward from a relay", "noreply@praxis.example", "WG: Rechnung", "Warum ist die Rechnung höher?", nil, false},
		{"OOO subject", "ana@customer.example", "Out of Office: Re: refund", "x", nil, true},
		{"automatic reply subject", "ana@customer.example", "Automatic reply: invoice", "x", nil, true},
		{"German OOO subject", "ana@customer.example", "Abwesenheitsnotiz: Rechnung", "x", nil, true},
		{"German automatic answer", "ana@customer.example", "Automatische Antwort: Kündigung", "x", nil, true},
		{"undeliverable", "system@mail.example", "Undeliverable: invoice", "x", nil, true},
		{"unzustellbar", "system@mail.example", "Unzustellbar: Ihre Rechnung", "x", nil, true},
		{"read receipt", "ana@customer.example", "Read: Invoice query", "x", nil, true},
		{"OOO body without headers", "ana@customer.example", "Re: seats", "Hi! I'm currently on vacation and will reply after the 20th.", nil, true},
		{"German OOO body", "ana@customer.example", "Re: Rechnung", "Guten Tag, ich bin bis zum 10.10. nicht im Büro.", nil, true},
		{"a person who mentions leave and asks", "ana@customer.example", "Pause", "I'm on parental leave from May. Can we pause the plan?", nil, false},
		{"a person whose subject says vacation", "ana@customer.example", "On vacation next month - pause billing?", "Can we pause?", nil, false},
		{"plain customer mail", "ana@customer.example", "Refund for annual plan", "Can I get a refund?", nil, false},
		{"billing@ on the customer side", "billing@customer.example", "Invoice", "Please resend invoice 12.", nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := &Message{From: Address{Email: tc.from}, Subject: tc.subject, Body: tc.body, Headers: tc.headers}
			got, why := Automated(m)
			if got != tc.want {
				t.Fatalf("Automated = %v (%s), want %v", got, why, tc.want)
			}
			if got && why == "" {
				t.Fatal("an automated verdict must say which signal decided it")
			}
		})
	}
}
