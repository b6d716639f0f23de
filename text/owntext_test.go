package text

import "testing"

func TestOwnText(t *testing.T) {
	t.Parallel()
	const ask = "Why was I charged twice this month?"
	cases := []struct {
		name, in, want string
	}{
		{"gmail reply", ask + "\n\nOn Mon, 2 Nov 2026 at 09:14, Quokka Billing <billing@quokka.example> wrote:\n> Thanks for your payment.\n> Amount charged: $1,188.00", ask},
		{"header wrapped onto two lines", ask + "\n\nOn Mon, 2 Nov 2026 at 09:14, Quokka Billing <\nbilling@quokka.example> wrote:\n\n> You can cancel at any time.", ask},
		{"outlook header block", ask + "\n\nFrom: Quokka Billing <billing@quokka.example>\nSent: Monday, November 2, 2026 9:14 AM\nTo: Accounts\nSubject: Your receipt\n\nYou can cancel or change your plan at any time.", ask},
		{"outlook rule", ask + "\n________________________________\nVon: Quokka Billing\nGesendet: Montag, 2. November 2026 09:14\n\nIhre Rechnung", ask},
		{"original message separator", ask + "\n\n-----Original Message-----\nFrom: billing@quokka.example\nYour plan renews on 1 December.", ask},
		{"german reply", "Warum wurde doppelt abgebucht?\n\nAm 02.11.2026 um 09:14 schrieb Quokka <billing@quokka.example>:\n> Vielen Dank für Ihre Zahlung.", "Warum wurde doppelt abgebucht?"},
		{"french reply", "Pourquoi deux prélèvements ?\n\nLe lun. 2 nov. 2026 à 09:14, Quokka <billing@quokka.example> a écrit :\n> Merci pour votre paiement.", "Pourquoi deux prélèvements ?"},
		{"quoted lines between own lines", "We were charged twice:\n> Amount charged: $49\nCan you refund one?", "We were charged twice:\nCan you refund one?"},
		{"signature and notice after a question", ask + "\n\nKind regards,\nPriya Nair\nFinance Manager\nCONFIDENTIAL: if you received this in error, please delete it.", ask},
		{"a closing in a mail that asks nothing", "I want to cancel our plan.\nThanks,\nPriya\nSent from my iPhone", "I want to cancel our plan."},
		{"an opening thank-you ends nothing", "Hi,\nThanks for your help last week.\n" + ask + "\nBest,\nJo", "Hi,\nThanks for your help last week.\n" + ask},
		{"a thank-you, then the question", "Thanks!\nOne more thing: can we pay by bank transfer?", "Thanks!\nOne more thing: can we pay by bank transfer?"},
		{"a line that asks is no closing", "Thanks. Is there a discount for charities?\nBest,\nJo", "Thanks. Is there a discount for charities?"},
		{"a closing after a question further down", "We were charged twice.\nThanks for checking.\n" + ask + "\nCheers", "We were charged twice.\nThanks for checking.\n" + ask},
		{"a colleague forwards a customer's mail", "Could you look at this one?\nThanks,\nJen\n\n---------- Forwarded message ---------\nFrom: Ana <ana@customer.example>\nDate: Mon, 2 Nov 2026\n\n" + ask,
			"Could you look at this one?\n\n---------- Forwarded message ---------\nFrom: Ana <ana@customer.example>\nDate: Mon, 2 Nov 2026\n\n" + ask},
		{"an Outlook forward", "See below.\n________________________________\nFrom: Ana <ana@customer.example>\nSent: Monday, November 2, 2026\nSubject: FW: charge\n\n" + ask,
			"See below.\n\n________________________________\nFrom: Ana <ana@customer.example>\nSent: Monday, November 2, 2026\nSubject: FW: charge\n\n" + ask},
		{"a question just above the header", "Hi,\n" + ask + "\nOn Mon, 2 Nov 2026, Billing <billing@quokka.example> wrote:\n> Thanks for your payment.", "Hi,\n" + ask},
		{"the reply written below the quotation", "On Mon, 2 Nov 2026, Billing <billing@quokka.example> wrote:\n> Thanks for your payment.\n\n" + ask, ask},
		{"a header in Gmail's date-first form", ask + "\n\n2026-11-02 09:14 GMT+01:00 Billing <\nbilling@quokka.example>:\n\n> Thanks for your payment.", ask},
		{"a postscript after the signature", ask + "\n\nThanks,\nJo\nAcme Ltd\n\nP.S. Can we also pay by bank transfer?", ask + "\n\nP.S. Can we also pay by bank transfer?"},
		{"a signature with no closing", ask + "\n\nPriya Nair\nHead of Accounts Payable, Pixelmill Ltd\nwww.pixelmill.example\n\nThis message may contain confidential information. If you are not the intended recipient, please delete it.", ask},
		{"short lines after the question that are no signature", ask + "\n\nInvoice from May.\nCard ending 4242.", ask + "\n\nInvoice from May.\nCard ending 4242."},
		{"a thank-you with a signature and notice", "Thanks, that worked!\n\nKind regards,\nPriya\nIf you received this in error, please delete it.", "Thanks, that worked!"},
		{"a forwarded mail is read as a mail too", "Can you help?\n\n---------- Forwarded message ---------\nFrom: Ana <ana@customer.example>\nDate: Mon, 2 Nov 2026\n\n" + ask + "\n\nOn 1 Nov 2026, Billing <billing@quokka.example> wrote:\n> Your receipt",
			"Can you help?\n\n---------- Forwarded message ---------\nFrom: Ana <ana@customer.example>\nDate: Mon, 2 Nov 2026\n\n" + ask},
		{"a header with no verb", ask + "\n\n26.06.2026, 14:41, \"Billing\" < billing@quokka.example >:\n\nThanks for your payment.", ask},
		{"a Danish header block", ask + "\n\nFra: billing@quokka.example\nSendt: 2. november 2026 09:14\nTil: Ana\n\nTak for din betaling.", ask},
		// Kept whole: no header with a date or address, or nothing of the sender's own.
		{"a colleague's words the customer cites", "A question from our side.\nMy accountant wrote:\nWhy is VAT on this invoice?", "A question from our side.\nMy accountant wrote:\nWhy is VAT on this invoice?"},
		{"the customer's own fields", "Invoice details:\nDate: 3 March 2026\nTo: Acme GmbH\n" + ask, "Invoice details:\nDate: 3 March 2026\nTo: Acme GmbH\n" + ask},
		{"a plain From line", "From: next month we pay yearly.\nDate: whenever the plan renews. Is that fine?", "From: next month we pay yearly.\nDate: whenever the plan renews. Is that fine?"},
		{"only thanks", "Thanks, that worked!", "Thanks, that worked!"},
		{"only quotation", "> Can I get a refund?\n> Thanks", "> Can I get a refund?\n> Thanks"},
		{"forward without own text", "From: Jen <jen@customer.example>\nSent: 2 Nov 2026\n\nDo we renew Quokka this year?", "From: Jen <jen@customer.example>\nSent: 2 Nov 2026\n\nDo we renew Quokka this year?"},
	}
	for _, c := range cases {
		if got := OwnText(c.in); got != c.want {
			t.Errorf("%s: OwnText =\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}
