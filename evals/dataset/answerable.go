package dataset

import "strings"

// Documents of the shipped corpus, by role.
const (
	docRefundsAnnual   = "billing/refunds-annual"
	docRefundsAnnualDE = "billing/refunds-annual-de"
	docRefundsUSAPAC   = "billing/refunds-annual-us-apac"
	docRefundsMonthly  = "billing/refunds-monthly"
	docHCAnnual        = "helpcenter/annual-plan-refunds"
	docFailed          = "billing/failed-payments"
	docFailedDE        = "billing/failed-payments-de"
	docHCFailed        = "helpcenter/failed-payment-faq"
	docMacroFailed     = "macros/failed-payment-reminder"
	docPaymentMethods  = "billing/payment-methods"
	docInvoices        = "billing/invoices"
	docVATEU           = "billing/vat-eu"
	docVATEUDE         = "billing/vat-eu-de"
	docTaxOutsideEU    = "billing/tax-outside-eu"
	docPricing         = "billing/pricing"
	docProration       = "billing/proration"
	docCancellation    = "billing/cancellation"
	docCancellationDE  = "billing/cancellation-de"
	docHCCancel        = "helpcenter/cancel-subscription"
	docTrials          = "billing/trials"
	docFreePlan        = "billing/free-plan"
	docDiscounts       = "billing/discounts"
	docEnterprise      = "billing/enterprise-invoicing"
	docChargeback      = "macros/chargeback-acknowledgement"
)

// refundWindow is the annual refund window for the account: EU/UK from the wiki's
// version (30 days until 1 March 2026, then 14), US/APAC 30 days for a first purchase and
// 7 days for a renewal. The values of other regions, versions and the draft are what a
// reply must not state.
func refundWindow(renewal bool) func(c *Ctx) (inc, exc []string) {
	return func(c *Ctx) (inc, exc []string) {
		switch {
		case c.Region == "us" || c.Region == "apac":
			if renewal {
				return []string{"7 days"}, []string{"14 days"}
			}
			return []string{"30 days"}, []string{"14 days"}
		case c.V(docRefundsAnnual) == 2 || c.V(docRefundsAnnualDE) == 2 || c.V(docHCAnnual) == 2:
			return []string{"14 days"}, []string{"30 days", "21 days"}
		}
		return []string{"30 days"}, []string{"14 days"}
	}
}

// prices per version, region and plan, as billing/pricing states them.
var prices = map[int]map[string]map[string]string{
	1: {"eu": {"pro": "€12", "business": "€24"}, "uk": {"pro": "£10", "business": "£20"},
		"us": {"pro": "$13", "business": "$26"}, "apac": {"pro": "$13", "business": "$26"}},
	2: {"eu": {"pro": "€14", "business": "€28"}, "uk": {"pro": "£12", "business": "£24"},
		"us": {"pro": "$15", "business": "$30"}, "apac": {"pro": "$15", "business": "$30"}},
}

// vatRates per version of billing/vat-eu and country.
var vatRates = map[int]map[string]string{
	1: {"Germany": "19%", "Austria": "20%", "Spain": "21%", "the Netherlands": "21%", "Ireland": "23%", "Finland": "24%"},
	2: {"Germany": "19%", "Austria": "20%", "Spain": "21%", "the Netherlands": "21%", "Ireland": "23%", "Finland": "25.5%"},
}

var countryDE = map[string]string{"Deutschland": "Germany", "Österreich": "Austria"}

func answerableIntents() []*Intent {
	return []*Intent{
		{
			ID: "refund-annual", Area: "refunds", Weight: 2.6, Overlay: true,
			Docs: []string{docRefundsAnnual, docHCAnnual, docRefundsUSAPAC}, DeDocs: []string{docRefundsAnnualDE},
			Tracks: []string{docRefundsAnnual, docHCAnnual, docRefundsAnnualDE},
			Plans:  paid, Regions: allRegion,
			Subjects: []string{"Refund for annual plan", "Annual subscription refund", "refund request",
				"Money back for yearly plan?", "Refund – {inv}", "Can we get a refund?", "Refund"},
			EN: []string{
				"We bought the annual {plan} plan {days} days ago and it turns out it's not a fit for us. Can we get our money back?",
				"is it still possible to get a refund on our yearly subscription? paid {days} days ago",
				"I'd like to request a refund for our annual {plan} subscription (invoice {inv}). How long do we have to ask for one?",
				"What's your refund policy for annual plans? We switched to yearly billing {days} days ago and the team has decided to move elsewhere.",
				"Our company purchased {seats} seats on the annual plan by mistake, we meant to go monthly. Can the annual charge be refunded?",
				"How many days do I have to cancel an annual plan and get a full refund?",
				"Hello, we signed up for a year of {plan} on {date}. The project it was for got cancelled. Are we still within the refund window?",
				"Refund request: annual {plan}, invoice {inv}, charged {amount}. We no longer need it.",
				"Can you explain how the money-back period works for yearly plans? I can't find it anywhere.",
				"We paid {amount} for a full year and barely used it. Is there any way to get that refunded?",
				"My manager wants to know if the annual subscription we just bought is refundable and until when.",
				"annual plan refund window??",
			},
			DeSubjects: []string{"Rückerstattung Jahresabo", "Erstattung", "Geld zurück?", "Rückerstattung {inv}"},
			DE: []string{
				"Wir haben vor {days} Tagen den Jahrestarif {plan} gekauft und merken jetzt, dass er nicht zu uns passt. Bekommen wir das Geld zurück?",
				"Kann ich mein Jahresabo noch erstatten lassen? Gekauft am {date}.",
				"Wie lange habe ich Zeit, um bei einem Jahresabonnement eine Rückerstattung zu beantragen?",
				"Bitte erstatten Sie die Rechnung {inv} (Jahrestarif {plan}). Wir nutzen das Tool nicht mehr.",
				"Gibt es bei jährlicher Zahlung ein Rückgaberecht? Wenn ja, wie viele Tage?",
				"Wir haben versehentlich jährlich statt monatlich abgeschlossen. Ist eine Erstattung möglich?",
				"Rückerstattung Jahresabo – bis wann geht das?",
				"Unser Projekt wurde gestoppt, das Jahresabo ({amount}) brauchen wir nicht mehr. Können Sie das zurückbuchen?",
				"Mein Chef fragt, ob das gerade gekaufte Jahresabo erstattungsfähig ist und bis wann.",
			},
			Facts: refundWindow(false),
		},
		{
			ID: "refund-renewal", Area: "refunds", Weight: 1.8, Overlay: true,
			Docs: []string{docRefundsAnnual, docHCAnnual, docRefundsUSAPAC}, DeDocs: []string{docRefundsAnnualDE},
			Tracks: []string{docRefundsAnnual, docRefundsAnnualDE},
			Plans:  paid, Regions: allRegion,
			Subjects: []string{"Unwanted renewal", "Auto-renewal refund", "Charged for renewal", "Renewal {inv}",
				"Please reverse renewal charge", "renewal refund"},
			EN: []string{
				"Our annual plan renewed automatically {days} days ago and we forgot to turn off the renewal. Can the renewal be refunded?",
				"I just got charged {amount} for a renewal I didn't want. We stopped using the product months ago. Refund please?",
				"The yearly subscription auto-renewed on {date}. Is there a window in which a renewal can still be reversed?",
				"We were billed for another year of {plan} without a reminder. How long after a renewal can we ask for a refund?",
				"renewal went through yesterday, didn't mean to keep it. can I get it back?",
				"Hi, I missed the renewal date and the card was charged for 12 more months. What are my options for a refund on the renewal?",
				"Could you refund invoice {inv}? It's the automatic annual renewal and nobody on our side approved it.",
				"How many days after an annual renewal is it still refundable?",
				"Our accountant noticed the annual renewal charge of {amount}. We had planned to cancel before it. Is a refund possible at this point?",
				"Is it true that renewals can't be refunded at all? We were renewed {days} days ago.",
			},
			DeSubjects: []string{"Ungewollte Verlängerung", "Erstattung Verlängerung", "Automatische Verlängerung"},
			DE: []string{
				"Unser Jahresabo hat sich vor {days} Tagen automatisch verlängert, obwohl wir kündigen wollten. Können Sie die Verlängerung erstatten?",
				"Die automatische Verlängerung am {date} war nicht gewollt. Gibt es eine Frist für eine Erstattung?",
				"Wir wurden für ein weiteres Jahr {plan} belastet ({inv}). Bitte rückgängig machen.",
				"Verlängerung vergessen zu kündigen – kann ich das Geld noch zurückbekommen?",
				"Wie viele Tage nach einer Verlängerung kann man eine Erstattung verlangen?",
				"Heute kam die Abbuchung für die Verlängerung über {amount}. Wir nutzen das Produkt seit Monaten nicht mehr. Erstattung möglich?",
				"Ist eine Erstattung bei automatischer Verlängerung des Jahrestarifs überhaupt möglich?",
				"Verlängerung erstatten?? Bitte um kurze Info.",
			},
			Facts: refundWindow(true),
		},
		{
			ID: "refund-timing", Area: "refunds", Weight: 1.2,
			Docs:   []string{docRefundsAnnual, docHCAnnual, docRefundsUSAPAC, docRefundsMonthly},
			DeDocs: []string{docRefundsAnnualDE},
			Plans:  paid, Regions: allRegion,
			Subjects: []string{"Where is my refund?", "Refund not received", "Refund timing", "refund status"},
			EN: []string{
				"You confirmed my refund on {date} but I still don't see it on my card. How long does it usually take?",
				"When will the refund show up in my account?",
				"Refund for invoice {inv} was approved. How many business days until the money is back?",
				"Still waiting for my refund... how long is this supposed to take?",
				"Your team told me the refund was issued. My bank says nothing has arrived. What's the normal processing time?",
				"Quick one: after you process a refund, how long until it lands on the original card?",
				"It's been a week since you approved our refund. Is that normal or should I chase my bank?",
				"How long do refunds take to reach a {card} card?",
				"got the refund confirmation email but no money yet. timeline?",
			},
			DeSubjects: []string{"Erstattung noch nicht da", "Wo bleibt meine Erstattung?", "Rückzahlung"},
			DE: []string{
				"Sie haben mir am {date} eine Erstattung bestätigt, aber das Geld ist noch nicht da. Wie lange dauert das?",
				"Wann kommt die Rückerstattung auf meiner Karte an?",
				"Die Erstattung für {inv} wurde genehmigt. Wie viele Werktage dauert die Auszahlung?",
				"Warte immer noch auf meine Erstattung... ist das normal?",
				"Wie lange braucht eine Erstattung, bis sie auf dem ursprünglichen Zahlungsmittel ist?",
				"Meine Bank sieht noch keine Gutschrift. Wie lange ist die übliche Bearbeitungszeit?",
				"Erstattung bestätigt, Geld fehlt noch. Zeitrahmen?",
				"Seit einer Woche warte ich auf die Rückzahlung. Müssen wir uns Sorgen machen?",
			},
			Facts: same("10 business days"),
		},
		{
			ID: "refund-monthly-partial", Area: "refunds", Weight: 1.3, Overlay: true,
			Docs:  []string{docRefundsMonthly},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Partial refund for this month", "Refund unused days", "Monthly plan refund", "cancelled mid-month"},
			EN: []string{
				"I cancelled our monthly {plan} plan today, {days} days into the billing period. Will you refund the rest of the month?",
				"Do you do prorated refunds for monthly plans if we cancel mid-month?",
				"We only used the tool for a week this month before switching. Can we get a partial refund for the unused weeks?",
				"If I cancel my monthly subscription now, do I get money back for the remaining days?",
				"monthly plan - cancelled halfway through. refund for unused part?",
				"Hi, I was charged {amount} for this month but we're shutting down the workspace tomorrow. Any refund for the unused time?",
				"Could you refund the unused portion of our current monthly billing period? We don't need the seats anymore.",
				"What happens with the money for the rest of the month when I cancel a monthly plan? Is it refunded?",
				"Are monthly charges refundable at all?",
			},
			Facts: same("not refunded"),
		},
		{
			ID: "refund-after-cancel", Area: "refunds", Weight: 1.2, Overlay: true,
			Docs: []string{docRefundsMonthly}, Tracks: []string{docRefundsMonthly},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Charged after cancelling", "Charge after cancellation", "Why was I charged?", "Refund {inv}"},
			EN: []string{
				"I cancelled our subscription on {date} and still got charged this month. I have the cancellation email. Please refund.",
				"Why was I charged after cancelling?? I want that money back.",
				"We were billed {amount} even though the plan was cancelled last month. How do I get this refunded and is there a deadline?",
				"Charged after cancellation - invoice {inv}. I only noticed now on our statement, can I still claim it?",
				"Our monthly plan was cancelled weeks ago (I have the confirmation) but the card was charged again. How long do I have to report this?",
				"Hey, a charge came through after we cancelled. Is that refundable?",
				"I found an old charge from after our cancellation while doing the books. Is it too late to get it refunded?",
				"We cancelled but you kept charging us. What's the process to get this back?",
				"The cancellation confirmation came through, but there's another monthly charge on {date}. Refund?",
			},
			Facts: byVersion(docRefundsMonthly, map[int]fx{
				1: {inc: []string{"120 days"}, exc: []string{"8 weeks"}},
				2: {inc: []string{"8 weeks"}, exc: []string{"120 days"}},
			}),
		},
		{
			ID: "refund-duplicate", Area: "refunds", Weight: 1.1,
			Docs: []string{docRefundsMonthly}, Tracks: []string{docRefundsMonthly},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Double charge", "Charged twice", "Duplicate payment {inv}", "duplicate charge"},
			EN: []string{
				"We were charged twice for the same invoice this month ({inv}). Please refund the duplicate.",
				"I see two identical charges of {amount} on our card. Looks like a double payment?",
				"double charged!! fix pls",
				"Our finance team found the same invoice paid twice back in {month}. Can that still be refunded?",
				"The payment for {inv} went through twice, once by card and once by bank. How do we get the second one back?",
				"Hi, duplicate payment on our account. How long do we have to report a duplicate charge?",
				"Is there a time limit for getting a duplicate charge refunded? We only just noticed.",
				"You took the monthly fee twice on {date}. Please return one of them.",
				"There are two payments for one invoice on our statement. What's your policy on duplicate charges?",
			},
			Facts: byVersion(docRefundsMonthly, map[int]fx{
				1: {inc: []string{"refunded in full", "120 days"}, exc: []string{"8 weeks"}},
				2: {inc: []string{"refunded in full", "8 weeks"}, exc: []string{"120 days"}},
			}),
		},
		{
			ID: "goodwill-credit", Area: "refunds", Weight: 0.8, Overlay: true,
			Docs:  []string{docRefundsMonthly},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Goodwill credit?", "Credit request", "Can you give us a credit", "Courtesy credit"},
			EN: []string{
				"We had a rough month with your product, could you give us a goodwill credit on our monthly plan?",
				"Given how long we've been customers, can you offer some kind of credit on this month's bill?",
				"Is it possible to get a courtesy credit on our monthly subscription? Things were really slow for us this month.",
				"Can you knock something off this month as a gesture of goodwill?",
				"Could support apply a small credit to our monthly invoice? Who decides that and how long does it take?",
				"I'd like to ask for a goodwill refund for {month}, we barely used the workspace.",
				"Can you do a one-time credit on our monthly plan? Our team was on leave most of the month.",
				"Who can approve a credit on a monthly plan and how quickly do they answer?",
			},
			Facts: same("2 business days"),
		},
		{
			ID: "refund-other-card", Area: "refunds", Weight: 0.8,
			Docs:  []string{docRefundsAnnual, docRefundsUSAPAC, docRefundsMonthly},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Refund to a different card", "Card closed – refund?", "Where does my refund go", "Refund destination"},
			EN: []string{
				"The card we paid with has been cancelled. Can you send the refund to a different card?",
				"Can the refund go to our bank account instead of the card it was charged to?",
				"My old {card} is closed now. Where will my refund go?",
				"We changed banks. Please send the refund to our new account rather than the original card.",
				"Is it possible to receive the refund on another payment method?",
				"The refund should go to my personal card, not the company card that was charged. Can you do that?",
				"Where exactly does a refund get paid to?",
				"refund to different card possible?",
			},
			Facts: same("original payment method"),
		},
		{
			ID: "pay-suspension", Area: "payments", Weight: 2.6, Overlay: true,
			Docs:   []string{docFailed, docHCFailed, docMacroFailed},
			DeDocs: []string{docFailedDE},
			Tracks: []string{docFailed, docHCFailed, docMacroFailed, docFailedDE},
			Plans:  paid, Regions: allRegion,
			Subjects: []string{"Payment failed", "Card declined", "When will my account be suspended?",
				"Failed payment – {inv}", "payment problem", "Grace period?"},
			EN: []string{
				"Our card payment failed this morning. How long before the account gets suspended?",
				"We got an email saying the payment for {inv} didn't go through. What happens if we can't pay for a couple of weeks?",
				"Card declined - when will you lock our workspace?",
				"Our company card expired and the last charge bounced. How much time do we have to fix this before things stop working?",
				"How many days after a failed payment is an account suspended?",
				"Payment failed because of a bank issue on our side. The new card only arrives in ten days. Will the team lose access in the meantime?",
				"Hi, your system says our payment failed on {date}. Is there a grace period?",
				"What exactly happens after a payment fails? When does suspension kick in?",
				"failed payment email received. deadline before suspension?",
				"Our finance department is on holiday and the invoice payment failed. Can you tell me how long until the account goes read-only?",
				"Is there any grace period for failed card payments before you restrict the account?",
				"We saw a warning banner about an unpaid invoice. How many days until the suspension?",
			},
			DeSubjects: []string{"Zahlung fehlgeschlagen", "Karte abgelehnt", "Wann wird gesperrt?", "Offene Rechnung {inv}"},
			DE: []string{
				"Unsere Kartenzahlung ist fehlgeschlagen. Wie lange dauert es, bis das Konto gesperrt wird?",
				"Wir haben eine E-Mail bekommen, dass die Zahlung für {inv} nicht geklappt hat. Was passiert, wenn wir erst in zwei Wochen zahlen können?",
				"Karte abgelehnt – ab wann wird unser Arbeitsbereich gesperrt?",
				"Unsere Firmenkarte ist abgelaufen. Wie viel Zeit haben wir, bevor der Zugang eingeschränkt wird?",
				"Nach wie vielen Tagen wird ein Konto nach einer fehlgeschlagenen Zahlung gesperrt?",
				"Gibt es eine Schonfrist bei fehlgeschlagenen Zahlungen?",
				"Zahlung fehlgeschlagen, Buchhaltung ist im Urlaub. Wann wird das Konto schreibgeschützt?",
				"Was passiert genau nach einer fehlgeschlagenen Abbuchung? Ab wann sperren Sie?",
				"Frist bis zur Sperrung nach Zahlungsausfall?",
			},
			Facts: func(c *Ctx) (inc, exc []string) {
				inc, exc = []string{"14 days"}, []string{"21 days"}
				if c.V(docFailed) == 2 || c.V(docFailedDE) == 2 {
					inc, exc = []string{"21 days"}, []string{"14 days"}
				}
				if c.Pending(docFailed) > 0 {
					exc = append(exc, "28 days")
				}
				return inc, exc
			},
		},
		{
			ID: "pay-retry", Area: "payments", Weight: 1.0,
			Docs: []string{docFailed}, DeDocs: []string{docFailedDE}, Tracks: []string{docFailed},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Will you retry the payment?", "Payment retries", "Retry schedule", "failed charge retry"},
			EN: []string{
				"After a payment fails, how many times will you retry the card?",
				"Will you try charging the card again automatically or do I need to pay manually?",
				"Our payment failed on {date}. When are the next attempts?",
				"How often does your system retry a declined card?",
				"Do you retry failed payments? How many attempts before you give up?",
				"The charge failed because of a daily limit on the card. Will it be retried?",
				"Could you explain the retry schedule for failed payments?",
				"retries on failed card - how many and when?",
			},
			Facts: byVersion(docFailed, map[int]fx{
				1: {inc: []string{"3 retries"}, exc: []string{"4 retries"}},
				2: {inc: []string{"4 retries"}, exc: []string{"3 retries"}},
			}),
		},
		{
			ID: "pay-restore", Area: "payments", Weight: 1.0,
			Docs: []string{docFailed, docHCFailed}, DeDocs: []string{docFailedDE},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Paid – please unlock", "Account still suspended", "Reactivate account", "Paid invoice {inv}"},
			EN: []string{
				"We just paid the overdue invoice. How long until our account is unlocked?",
				"Account suspended for non-payment, paid now. When can the team edit again?",
				"I settled invoice {inv} a moment ago. How quickly is a suspended workspace restored?",
				"How long does it take for a suspended account to come back after payment?",
				"Paid!! please reactivate asap, we have a deadline",
				"Our workspace is read-only because of a failed payment. If I pay the invoice now, is access restored right away?",
				"Once the open invoice is paid, do we have to contact you to lift the suspension or is it automatic?",
				"We've paid the outstanding amount. When will the read-only mode end?",
			},
			DeSubjects: []string{"Bezahlt – bitte entsperren", "Konto gesperrt", "Freischaltung"},
			DE: []string{
				"Wir haben die offene Rechnung gerade bezahlt. Wie schnell wird das Konto wieder freigeschaltet?",
				"Konto wegen Zahlungsausfall gesperrt, jetzt bezahlt. Wann können wir wieder arbeiten?",
				"Rechnung {inv} ist beglichen. Wie lange dauert die Entsperrung?",
				"Bezahlt! Bitte schnell wieder freischalten, wir haben eine Deadline.",
				"Müssen wir uns nach der Zahlung melden oder wird die Sperre automatisch aufgehoben?",
				"Wie lange dauert es nach der Zahlung, bis der Schreibschutz weg ist?",
				"Unser Arbeitsbereich ist schreibgeschützt. Wenn ich jetzt zahle, geht es sofort wieder?",
				"Offener Betrag ist bezahlt, wann ist das Konto wieder aktiv?",
			},
			Facts: same("5 minutes"),
		},
		{
			ID: "pay-update-card", Area: "payments", Weight: 0.9,
			Docs:  []string{docPaymentMethods, docFailed, docHCFailed},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Change card", "Update payment method", "New credit card", "card update"},
			EN: []string{
				"How do I change the card we pay with?",
				"Our card is about to expire. If I add a new one, will it be used for the next charge?",
				"I updated the card after the payment failed. Will the next retry use the new card?",
				"Can someone other than the owner update our payment method?",
				"We need to switch the billing card to a different company card. Where do I do that and when does it take effect?",
				"If I change payment method today, which charge will it apply to?",
				"new card details - where do I put them?",
				"Who is allowed to update the credit card on our account?",
			},
			Facts: same("next charge or retry"),
		},
		{
			ID: "pay-bank-transfer", Area: "payments", Weight: 1.0,
			Docs: []string{docPaymentMethods}, Tracks: []string{docPaymentMethods},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Pay by bank transfer?", "Wire transfer", "Paying by invoice", "bank transfer option"},
			EN: []string{
				"Can we pay by bank transfer instead of card?",
				"Our procurement team only pays by wire transfer. Is that possible for our annual invoice of {amount}?",
				"Is there a minimum invoice amount for paying by bank transfer?",
				"We'd like to pay our annual {plan} plan via bank transfer. Is that allowed?",
				"Do you accept wire transfers? Our company doesn't use credit cards.",
				"bank transfer possible for annual plan?",
				"What are the conditions for paying by bank transfer?",
				"Our annual invoice is {amount}. Can we settle it by bank transfer?",
			},
			Facts: func(c *Ctx) (inc, exc []string) {
				cur := map[string]int{"eu": 0, "uk": 1, "us": 2, "apac": 2}[c.Region]
				v1 := []string{"€5,000", "£4,500", "$5,500"}[cur]
				v2 := []string{"€2,500", "£2,200", "$2,700"}[cur]
				if c.V(docPaymentMethods) == 2 {
					return []string{v2}, []string{v1}
				}
				return []string{v1}, []string{v2}
			},
		},
		{
			ID: "pay-direct-debit", Area: "payments", Weight: 0.9,
			Docs:  []string{docPaymentMethods},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Direct debit?", "SEPA / ACH", "Pay from bank account", "debit option"},
			EN: []string{
				"Can we pay by direct debit?",
				"Is SEPA Direct Debit available for our account?",
				"Do you offer ACH payments?",
				"We'd prefer to have the subscription debited from our bank account. Is that an option?",
				"Our finance team asks whether we can set up a direct debit mandate instead of paying by card.",
				"direct debit / ACH supported?",
				"Can the charge be pulled straight from our business bank account?",
				"Which bank debit options do you support in our country?",
			},
			Facts: func(c *Ctx) (inc, exc []string) {
				switch c.Region {
				case "eu":
					return []string{"SEPA Direct Debit"}, []string{}
				case "us":
					return []string{"ACH debit"}, []string{}
				}
				return []string{"only to accounts in the EU"}, []string{}
			},
		},
		{
			ID: "invoice-download", Area: "invoices", Weight: 1.0,
			Docs:  []string{docInvoices},
			Plans: paidAll, Regions: allRegion,
			Subjects: []string{"Invoices", "Where are my invoices?", "Old invoice needed", "Invoice copy {inv}"},
			EN: []string{
				"Where can I download our invoices?",
				"I need a copy of an invoice from {month} last year for our auditors. How far back can I get invoices?",
				"How long do you keep invoices available?",
				"Our accountant needs all invoices since we signed up. Where are they?",
				"Can you resend invoice {inv}? I can't find it.",
				"invoices from 2 years ago still downloadable?",
				"Is there a place in the app where I can get PDF invoices?",
				"For tax purposes we must keep invoices for a long time. How long do you store them?",
			},
			Facts: same("7 years"),
		},
		{
			ID: "invoice-correction", Area: "invoices", Weight: 1.3,
			Docs: []string{docInvoices}, Tracks: []string{docInvoices},
			Plans: paidAll, Regions: allRegion,
			Subjects: []string{"Wrong address on invoice", "Corrected invoice", "Invoice correction {inv}", "Reissue invoice"},
			EN: []string{
				"Our company address on invoice {inv} is wrong. Can you reissue it?",
				"We changed our company name. Can you correct the invoices from earlier this year?",
				"The VAT ID is missing on an invoice from {month}. Could you issue a corrected one?",
				"How far back can invoices be corrected?",
				"Need a corrected invoice - wrong billing address. It's from a few months ago.",
				"Can you update the company details on our old invoices? Our auditors are asking.",
				"Is there a limit on how old an invoice can be if we need it reissued with the right address?",
				"Typo in our company name on the last invoices, please fix.",
				"We need invoice {inv} reissued to our new legal entity name. Is that possible?",
			},
			DeSubjects: []string{"Rechnungskorrektur", "Falsche Adresse auf Rechnung", "Rechnung {inv} korrigieren"},
			DE: []string{
				"Auf der Rechnung {inv} steht eine falsche Firmenadresse. Können Sie sie neu ausstellen?",
				"Wir haben unseren Firmennamen geändert. Können Sie die Rechnungen aus diesem Jahr korrigieren?",
				"Auf einer Rechnung vom {month} fehlt unsere USt-ID. Bitte eine korrigierte Rechnung schicken.",
				"Wie weit zurück können Rechnungen korrigiert werden?",
				"Brauche eine korrigierte Rechnung, Adresse falsch. Ist ein paar Monate her.",
				"Unsere Steuerberaterin braucht Rechnungen mit der richtigen Anschrift. Geht das auch für ältere Rechnungen?",
				"Tippfehler im Firmennamen auf den letzten Rechnungen, bitte korrigieren.",
				"Gibt es eine Frist, bis wann man eine Rechnung mit korrigierter Adresse neu ausstellen lassen kann?",
			},
			Facts: byVersion(docInvoices, map[int]fx{
				1: {inc: []string{"120 days"}, exc: []string{"12 months"}},
				2: {inc: []string{"12 months"}, exc: []string{"120 days"}},
			}),
		},
		{
			ID: "vat-rate", Area: "tax", Weight: 1.6,
			Docs: []string{docVATEU}, DeDocs: []string{docVATEUDE}, Tracks: []string{docVATEU, docVATEUDE},
			Plans: paidAll, Regions: []string{"eu"},
			Subjects: []string{"VAT rate", "VAT on invoice", "Question about VAT", "Wrong VAT?"},
			EN: []string{
				"We're based in {country}. What VAT rate do you charge us?",
				"Why is there VAT on my invoice? I'm in {country}. What's the rate supposed to be?",
				"Our invoice shows VAT, we're a company in {country}. Which rate applies?",
				"Can you confirm the VAT percentage for customers in {country}?",
				"VAT rate for {country}?",
				"Our accountant in {country} says your VAT looks off. What rate do you apply?",
				"I noticed the VAT amount changed on our latest invoice. We're in {country}. What is the current rate?",
				"Hi, small business in {country} here, no VAT number yet. How much VAT will you add?",
				"What percentage of VAT should I expect on top of the price in {country}?",
			},
			DeSubjects: []string{"Mehrwertsteuer", "MwSt-Satz", "Frage zur Umsatzsteuer"},
			DE: []string{
				"Wir sitzen in {country}. Welchen Mehrwertsteuersatz berechnen Sie uns?",
				"Warum ist auf meiner Rechnung Mehrwertsteuer? Welcher Satz gilt für {country}?",
				"Können Sie den MwSt-Satz für Kunden in {country} bestätigen?",
				"MwSt-Satz {country}?",
				"Unser Steuerberater in {country} meint, die Umsatzsteuer auf Ihrer Rechnung stimmt nicht. Welchen Satz wenden Sie an?",
				"Kleines Unternehmen aus {country}, noch ohne USt-ID. Wie viel Mehrwertsteuer kommt dazu?",
				"Der Steuerbetrag auf der letzten Rechnung hat sich geändert. Was ist der aktuelle Satz für {country}?",
				"Mit wie viel Prozent Mehrwertsteuer muss ich in {country} rechnen?",
			},
			Setup: func(c *Ctx) {
				if c.German() {
					c.P["country"] = c.pick("Deutschland", "Österreich")
					c.P["vatcountry"] = countryDE[c.P["country"]]
					return
				}
				c.P["country"] = c.pick("Germany", "Austria", "Spain", "the Netherlands", "Ireland", "Finland", "Finland")
				c.P["vatcountry"] = c.P["country"]
			},
			Facts: func(c *Ctx) (inc, exc []string) {
				v := max(c.V(docVATEU), c.V(docVATEUDE))
				country := c.P["vatcountry"]
				exc = []string{}
				switch {
				case country == "Finland" && v == 1:
					exc = []string{"25.5%"}
				case country == "Finland":
					exc = []string{"24%"}
				case country == "the Netherlands" && c.Pending(docVATEU) > 0:
					exc = []string{"22%"}
				}
				return []string{vatRates[v][country]}, exc
			},
		},
		{
			ID: "vat-reverse-charge", Area: "tax", Weight: 1.1,
			Docs: []string{docVATEU, docTaxOutsideEU}, DeDocs: []string{docVATEUDE},
			Plans: paidAll, Regions: euUK,
			Subjects: []string{"Reverse charge", "Remove VAT – we are a business", "VAT number", "B2B invoicing"},
			EN: []string{
				"We're VAT registered. Can you stop charging us VAT?",
				"How do I get reverse charge applied? We have a valid VAT ID.",
				"Our invoices include VAT but we're a business. Shouldn't this be reverse charged?",
				"If I add our VAT number now, will the next invoice be without VAT?",
				"reverse charge for B2B customers?",
				"We're a registered company in {country}. How do we get invoiced without VAT?",
				"Where do I enter our VAT number so you stop adding VAT?",
				"Is VAT removed for business accounts with a VAT ID?",
			},
			DeSubjects: []string{"Reverse Charge", "Rechnung ohne MwSt", "USt-ID hinterlegen"},
			DE: []string{
				"Wir sind umsatzsteuerpflichtig. Können Sie die Mehrwertsteuer weglassen?",
				"Wie bekommen wir das Reverse-Charge-Verfahren? Wir haben eine gültige USt-ID.",
				"Auf unseren Rechnungen ist MwSt, obwohl wir ein Unternehmen sind. Müsste das nicht Reverse Charge sein?",
				"Wenn ich jetzt unsere USt-ID eintrage, ist die nächste Rechnung ohne Mehrwertsteuer?",
				"Reverse Charge für B2B?",
				"Wo trage ich unsere Umsatzsteuer-ID ein, damit keine MwSt mehr berechnet wird?",
				"Wird bei Geschäftskunden mit USt-ID die Mehrwertsteuer entfernt?",
				"Wir sind eine GmbH in {country}. Wie bekommen wir Rechnungen ohne Mehrwertsteuer?",
			},
			Facts: func(c *Ctx) (inc, exc []string) {
				if c.German() {
					return []string{"Reverse-Charge"}, []string{}
				}
				return []string{"reverse charge"}, []string{}
			},
		},
		{
			ID: "vat-id-later", Area: "tax", Weight: 0.9,
			Docs:  []string{docVATEU},
			Plans: paidAll, Regions: []string{"eu"},
			Subjects: []string{"VAT refund after adding VAT ID", "Retroactive VAT ID", "Reclaim VAT", "VAT ID added late"},
			EN: []string{
				"We forgot to add our VAT ID when we signed up. Can you refund the VAT on past invoices?",
				"Just added our VAT number. Will you refund the VAT we paid before?",
				"Can VAT already charged be refunded if we add our VAT ID retroactively?",
				"We paid VAT for the past {n} months because our VAT ID wasn't on file. Can we get that back?",
				"Now that our VAT ID is in the system, what happens to the VAT on older invoices?",
				"vat id added late - refund of vat?",
				"Is there a way to reclaim the VAT from invoices issued before we entered our VAT number?",
				"Our tax advisor asks whether you can credit the VAT charged before our VAT ID was added.",
			},
			Facts: same("not refunded"),
		},
		{
			ID: "uk-vat", Area: "tax", Weight: 0.8,
			Docs:  []string{docTaxOutsideEU},
			Plans: paidAll, Regions: []string{"uk"},
			Subjects: []string{"UK VAT", "VAT on our invoice", "VAT rate UK", "Tax question"},
			EN: []string{
				"What rate of VAT do you charge UK customers?",
				"Why is VAT on our invoice? We're a UK company.",
				"UK VAT rate on your invoices?",
				"Do you charge UK VAT and if so how much?",
				"We're in London. How much VAT is added to the price?",
				"Our UK invoice shows VAT. Which rate is that?",
				"Is the VAT line on our invoice the standard UK rate?",
				"We don't have a UK VAT number yet. How much VAT do you add?",
			},
			Facts: same("20%"),
		},
		{
			ID: "us-sales-tax", Area: "tax", Weight: 0.9,
			Docs:  []string{docTaxOutsideEU},
			Plans: paidAll, Regions: []string{"us"},
			Subjects: []string{"Sales tax?", "Why sales tax", "Sales tax on invoice {inv}", "Tax line on invoice"},
			EN: []string{
				"Why was I charged sales tax? Other tools don't charge it.",
				"There's a sales tax line on our invoice. Which states do you charge sales tax in?",
				"We're in {state}. Should we be paying sales tax on this subscription?",
				"Can you explain the sales tax on my latest invoice?",
				"sales tax on invoice, why?",
				"Do you collect sales tax for every US state?",
				"Our invoice from last month had no sales tax but this one does. How do you decide?",
				"Is sales tax included in the price or added separately?",
			},
			Facts: same("states where we are registered"),
		},
		{
			ID: "us-tax-exempt", Area: "tax", Weight: 0.7,
			Docs:  []string{docTaxOutsideEU},
			Plans: paidAll, Regions: []string{"us"},
			Subjects: []string{"Tax exemption certificate", "We are tax exempt", "Exemption status", "Remove sales tax"},
			EN: []string{
				"We're a tax-exempt organisation. How do we stop being charged sales tax?",
				"Where do I upload our sales tax exemption certificate?",
				"How long does it take you to review a tax exemption certificate?",
				"We sent our exemption certificate. When will sales tax be removed from our invoices?",
				"Our school district is tax exempt. What's the process?",
				"tax exempt cert - how long to process?",
				"We're a 501(c)(3). Can you remove sales tax from our account?",
				"I uploaded the exemption form yesterday. How many days until it's approved?",
			},
			Facts: same("3 business days"),
		},
		{
			ID: "apac-gst", Area: "tax", Weight: 1.1,
			Docs: []string{docTaxOutsideEU}, Tracks: []string{docTaxOutsideEU},
			Plans: paidAll, Regions: []string{"apac"},
			Subjects: []string{"GST", "GST on invoice", "Tax question", "Why GST?"},
			EN: []string{
				"Do you charge GST to customers in {country}?",
				"Why is there GST on our invoice? We're in {country}.",
				"What GST rate applies to us in {country}?",
				"We're a business in {country}. Will you add GST to our subscription?",
				"GST in {country}?",
				"Our latest invoice has a GST line that wasn't there before. We're based in {country}. Can you explain?",
				"How much GST is added for {country} accounts?",
				"Is the price shown on your website including GST for {country}?",
			},
			Setup: func(c *Ctx) { c.P["country"] = c.pick("Australia", "Singapore", "New Zealand", "New Zealand") },
			Facts: func(c *Ctx) (inc, exc []string) {
				switch c.P["country"] {
				case "Australia":
					return []string{"10%"}, []string{}
				case "Singapore":
					return []string{"9%"}, []string{}
				}
				if c.V(docTaxOutsideEU) == 2 {
					return []string{"15%"}, []string{"not charged GST"}
				}
				return []string{"not charged GST"}, []string{"15%"}
			},
		},
		{
			ID: "price", Area: "pricing", Weight: 1.6, Overlay: true,
			Docs: []string{docPricing}, Tracks: []string{docPricing},
			Plans: notEnt, Regions: allRegion,
			Subjects: []string{"Pricing question", "How much is {askplan}?", "Price per user", "Quote for {askplan}"},
			EN: []string{
				"How much does the {askplan} plan cost per user?",
				"What's the monthly price of {askplan} for our region?",
				"Thinking about moving to {askplan}. What would it cost us per seat?",
				"price for {askplan}?",
				"Could you tell me the current per-user price for {askplan}, billed monthly?",
				"We have {seats} people. What's the {askplan} price per user per month?",
				"Your pricing page is confusing. How much is {askplan} exactly?",
				"Before I upgrade: what will {askplan} cost per member each month?",
				"My finance person wants the exact per-user cost of {askplan}.",
				"How much do you charge for {askplan} in our currency?",
			},
			Setup: func(c *Ctx) {
				switch {
				case c.Plan == "pro" && c.r.IntN(3) > 0, c.Plan == "business" && c.r.IntN(3) == 0:
					c.P["askplan"] = "Pro"
				case c.Plan == "free":
					c.P["askplan"] = c.pick("Pro", "Business")
				default:
					c.P["askplan"] = "Business"
				}
			},
			Facts: func(c *Ctx) (inc, exc []string) {
				plan := strings.ToLower(c.P["askplan"])
				v := c.V(docPricing)
				return []string{prices[v][c.Region][plan]}, []string{prices[3-v][c.Region][plan]}
			},
		},
		{
			ID: "price-increase", Area: "pricing", Weight: 1.0, Overlay: true,
			Docs: []string{docPricing}, From: date("2026-05-01T00:00:00Z"),
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Price increase?", "Why is my bill higher?", "New prices", "Higher invoice {inv}"},
			EN: []string{
				"Our renewal invoice is higher than last time. Did your prices go up?",
				"Why is my {plan} bill more expensive this month? Nothing changed on our side.",
				"I noticed the per-user price changed. What is the current price for {plan}?",
				"Price increase?? We weren't told about this.",
				"Did {plan} get more expensive? What do we pay per user now?",
				"How much notice do you give before raising prices, and what's the new {plan} price?",
				"Our monthly charge went up even though we have the same number of seats. Explain please.",
				"What is the price per user for {plan} after the recent change?",
			},
			Facts: func(c *Ctx) (inc, exc []string) {
				return []string{prices[2][c.Region][c.Plan], "5 weeks"}, []string{prices[1][c.Region][c.Plan]}
			},
		},
		{
			ID: "annual-discount", Area: "pricing", Weight: 0.9, Overlay: true,
			Docs:  []string{docPricing},
			Plans: notEnt, Regions: allRegion,
			Subjects: []string{"Annual vs monthly", "Discount for yearly billing?", "Savings with annual plan", "annual pricing"},
			EN: []string{
				"How much do we save if we switch to annual billing?",
				"Is annual billing cheaper than monthly? By how much?",
				"What's the discount for paying yearly?",
				"annual vs monthly price difference?",
				"If we pay for the year up front, do we get a better price?",
				"Our CFO wants to know the savings from annual billing before we commit.",
				"Do you offer a discount for annual plans?",
				"Would going annual lower our per-seat cost?",
			},
			Facts: same("20%"),
		},
		{
			ID: "upgrade-proration", Area: "plan-changes", Weight: 1.0,
			Docs:  []string{docProration},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Upgrade billing", "Proration on upgrade", "Upgrading mid-month", "upgrade cost"},
			EN: []string{
				"If we upgrade from Pro to Business in the middle of the month, how are we charged?",
				"How does billing work when upgrading mid-cycle?",
				"Do you prorate upgrades?",
				"We want to upgrade today. Will we pay the full month for the new plan or just the rest?",
				"upgrade mid month - charged how?",
				"When does an upgrade take effect and what do we pay for the current period?",
				"Our plan renews on the 1st. If I upgrade on the 20th, what's the charge?",
				"Can you explain the proration when we move up a plan?",
			},
			Facts: same("by the day"),
		},
		{
			ID: "downgrade", Area: "plan-changes", Weight: 1.0, Overlay: true,
			Docs:  []string{docProration},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Downgrade question", "Downgrading to Pro", "Credit for downgrade?", "plan downgrade"},
			EN: []string{
				"If I downgrade from Business to Pro, do I get a credit for the rest of the period?",
				"When does a downgrade take effect?",
				"We'd like to downgrade. Will the change happen right away?",
				"Do we lose Business features immediately if we downgrade?",
				"downgrade = refund of difference?",
				"What happens to the money we already paid if we move to a cheaper plan?",
				"Can we downgrade now and get credited for the unused part?",
				"How do downgrades work billing-wise?",
			},
			Facts: same("next renewal date"),
		},
		{
			ID: "seat-removal", Area: "plan-changes", Weight: 1.4, Overlay: true,
			Docs: []string{docProration}, Tracks: []string{docProration},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Removed seats", "Credit for removed users?", "Fewer seats", "Seat reduction"},
			EN: []string{
				"We removed {n} seats today. Do we get credited for them?",
				"If I remove users from our plan, does our bill go down right away?",
				"What happens billing-wise when we delete seats mid-cycle?",
				"We had to let {n} people go. Will we be refunded or credited for their seats?",
				"seats removed - credit?",
				"Are removed seats still billed until the end of the period?",
				"Do you give a prorated credit when we reduce the number of seats?",
				"Our team shrank from {seats} to fewer people. How is that reflected on the invoice?",
				"If I take away licences now, do I pay for them until renewal?",
			},
			DeSubjects: []string{"Plätze entfernt", "Gutschrift für Lizenzen?", "Weniger Nutzer"},
			DE: []string{
				"Wir haben heute {n} Plätze entfernt. Bekommen wir dafür eine Gutschrift?",
				"Wenn ich Nutzer aus unserem Tarif entferne, sinkt die Rechnung dann sofort?",
				"Was passiert abrechnungstechnisch, wenn wir mitten im Zeitraum Lizenzen löschen?",
				"Plätze entfernt – Gutschrift?",
				"Werden entfernte Plätze bis zum Ende des Zeitraums weiter berechnet?",
				"Gibt es eine anteilige Gutschrift, wenn wir die Anzahl der Plätze reduzieren?",
				"Unser Team ist kleiner geworden. Wie wirkt sich das auf die Rechnung aus?",
				"Zahle ich für entfernte Lizenzen bis zur Verlängerung?",
			},
			Facts: byVersion(docProration, map[int]fx{
				1: {inc: []string{"not credited"}, exc: []string{"credited by the day"}},
				2: {inc: []string{"credited by the day"}, exc: []string{"not credited"}},
			}),
		},
		{
			ID: "credit-expiry", Area: "plan-changes", Weight: 1.0,
			Docs: []string{docProration}, Tracks: []string{docProration},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Credit expiry", "Does our credit expire?", "Account credit", "proration credit"},
			EN: []string{
				"We have a proration credit on our account. Does it expire?",
				"How long can we keep unused credit from a plan change?",
				"Can our account credit be paid out, or does it expire at some point?",
				"credit from downgrade - expiry date?",
				"We got a credit when we changed plans. When does it run out?",
				"Is there a time limit on using proration credits?",
				"Our credit balance shows {amount}. How long is it valid?",
				"Do credits on our account ever expire?",
			},
			Facts: byVersion(docProration, map[int]fx{
				1: {inc: []string{"12 months"}, exc: []string{"6 months"}},
				2: {inc: []string{"6 months"}, exc: []string{"12 months"}},
			}),
		},
		{
			ID: "monthly-to-annual", Area: "plan-changes", Weight: 0.8,
			Docs:  []string{docProration},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Switch to annual", "Monthly to yearly", "Changing billing frequency", "go annual"},
			EN: []string{
				"If we switch from monthly to annual billing now, what happens to the days left in this month?",
				"Do we lose the rest of the month if we move to annual?",
				"When does a switch from monthly to yearly take effect, and is the current month credited?",
				"monthly -> annual switch, unused days?",
				"We want to move to annual billing mid-month. How's the current month handled?",
				"Will the remaining days of our monthly plan be credited if we go annual?",
				"How do you handle the overlap when changing from monthly to annual?",
				"Switching billing frequency to annual today - will I pay twice for this month?",
			},
			Facts: same("credited against the first annual invoice"),
		},
		{
			ID: "cancel-how", Area: "cancellation", Weight: 1.3,
			Docs: []string{docCancellation, docHCCancel}, DeDocs: []string{docCancellationDE},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Cancel subscription", "How to cancel", "Cancellation", "cancel"},
			EN: []string{
				"How do I cancel our subscription?",
				"Please tell me how to cancel. I can't find the button.",
				"I want to cancel our {plan} plan. What are the steps?",
				"cancel subscription how",
				"I tried to cancel but didn't get any confirmation. How do I know it worked?",
				"Where do I cancel, and will I get a confirmation?",
				"Who on our team is allowed to cancel the subscription, and how?",
				"We're closing the business. How do we cancel the plan?",
				"How long does it take to get the cancellation confirmation email?",
			},
			DeSubjects: []string{"Kündigung", "Abo kündigen", "Wie kündigen?"},
			DE: []string{
				"Wie kündige ich unser Abonnement?",
				"Ich finde den Kündigen-Button nicht. Wie geht das?",
				"Ich möchte unseren {plan}-Tarif kündigen. Welche Schritte sind nötig?",
				"abo kündigen wie?",
				"Ich habe gekündigt, aber keine Bestätigung bekommen. Hat es geklappt?",
				"Wo kann ich kündigen und bekomme ich eine Bestätigung?",
				"Wer in unserem Team darf das Abo kündigen, und wie?",
				"Wie lange dauert es, bis die Kündigungsbestätigung per E-Mail kommt?",
			},
			Facts: same("1 hour"),
		},
		{
			ID: "cancel-when", Area: "cancellation", Weight: 1.2, Overlay: true,
			Docs: []string{docCancellation, docHCCancel}, DeDocs: []string{docCancellationDE},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"When does cancellation take effect?", "Access after cancelling", "Cancel now?", "cancellation timing"},
			EN: []string{
				"If I cancel today, do we lose access immediately?",
				"When does a cancellation actually take effect?",
				"Will we still be able to use the workspace until the end of the month if we cancel now?",
				"cancel now - access until when?",
				"Do you charge anything after we cancel?",
				"If we cancel mid-period, does the team lose the paid features right away?",
				"We want to cancel but keep using it until the period we paid for ends. Is that how it works?",
				"Is cancellation immediate or at the end of the billing cycle?",
			},
			DeSubjects: []string{"Kündigung wirksam wann?", "Zugang nach Kündigung", "Kündigungsfrist"},
			DE: []string{
				"Wenn ich heute kündige, verlieren wir dann sofort den Zugang?",
				"Wann wird eine Kündigung wirksam?",
				"Können wir nach der Kündigung bis zum Monatsende weiterarbeiten?",
				"Kündigung sofort oder zum Ende des Zeitraums?",
				"Wird nach der Kündigung noch etwas abgebucht?",
				"Verlieren wir bei Kündigung mitten im Zeitraum gleich die bezahlten Funktionen?",
				"Wir wollen kündigen, aber den bezahlten Zeitraum noch nutzen. Geht das?",
				"Gilt die Kündigung sofort oder erst zum Ende des Abrechnungszeitraums?",
			},
			Facts: func(c *Ctx) (inc, exc []string) {
				if c.German() {
					return []string{"Ende des laufenden Abrechnungszeitraums"}, []string{}
				}
				return []string{"end of the current billing period"}, []string{}
			},
		},
		{
			ID: "cancel-data", Area: "cancellation", Weight: 1.2,
			Docs: []string{docCancellation, docHCCancel}, DeDocs: []string{docCancellationDE},
			Tracks: []string{docCancellation, docHCCancel, docCancellationDE},
			Plans:  paid, Regions: allRegion,
			Subjects: []string{"Data after cancellation", "What happens to our data?", "Data retention", "Will our files be deleted?"},
			EN: []string{
				"What happens to our data after we cancel?",
				"If we cancel, how long do you keep our files?",
				"We might come back next year. Will our data still be there after cancelling?",
				"data retention after cancellation?",
				"After our paid plan ends, when is data above the free limits deleted?",
				"How long do we have to reactivate before we lose our projects?",
				"Does cancelling delete everything right away?",
				"If I cancel now and resubscribe later, is our content restored?",
			},
			DeSubjects: []string{"Daten nach Kündigung", "Datenaufbewahrung", "Werden unsere Daten gelöscht?"},
			DE: []string{
				"Was passiert mit unseren Daten nach der Kündigung?",
				"Wie lange bewahren Sie unsere Dateien nach einer Kündigung auf?",
				"Vielleicht kommen wir nächstes Jahr zurück. Sind unsere Daten dann noch da?",
				"Datenaufbewahrung nach Kündigung?",
				"Wann werden Daten über dem Free-Limit gelöscht, wenn der bezahlte Tarif endet?",
				"Wie lange haben wir Zeit, den Tarif wieder zu aktivieren, ohne Projekte zu verlieren?",
				"Löscht eine Kündigung sofort alles?",
				"Wenn ich jetzt kündige und später wieder buche, ist dann alles wiederhergestellt?",
			},
			Facts: func(c *Ctx) (inc, exc []string) {
				if c.V(docCancellation) == 2 || c.V(docCancellationDE) == 2 || c.V(docHCCancel) == 2 {
					return []string{"120 days"}, []string{"180 days"}
				}
				return []string{"180 days"}, []string{"120 days"}
			},
		},
		{
			ID: "chargeback", Area: "chargebacks", Weight: 1.0, Overlay: true,
			Docs:  []string{docChargeback},
			Plans: paidAll, Regions: allRegion,
			Subjects: []string{"Chargeback", "Bank dispute", "Disputed payment", "dispute opened by mistake"},
			EN: []string{
				"I disputed your charge with my bank. Can you just refund me instead?",
				"My bank opened a chargeback on your charge. What happens now?",
				"We filed a dispute for {amount} by accident. How do we fix this?",
				"How long will the chargeback take?",
				"chargeback opened - will my account be closed?",
				"I contested the payment with my card company because I didn't recognise it. Now I see it was yours. What should I do?",
				"Can you refund the disputed charge while the bank is looking into it?",
				"Our bank is investigating a payment to you. What's the usual timeline?",
			},
			Facts: same("10 weeks"),
		},
		{
			ID: "trial-end", Area: "trials", Weight: 1.0, Overlay: true,
			Docs:  []string{docTrials},
			Plans: notEnt, Regions: allRegion,
			Subjects: []string{"Trial ending", "Will I be charged after the trial?", "Trial question", "end of trial"},
			EN: []string{
				"Will my card be charged automatically when the trial ends?",
				"What happens when our Pro trial is over? Do we get billed?",
				"I started a trial. Do I need to cancel before it ends to avoid being charged?",
				"trial ending - will I be billed?",
				"What happens after the free trial, is there an automatic charge?",
				"We're on a trial and haven't added a card. Will we be charged at the end?",
				"Do trials convert into paid plans by themselves?",
				"Our trial ends on {date}. Is there any charge coming?",
			},
			Facts: same("never charge"),
		},
		{
			ID: "trial-extend", Area: "trials", Weight: 0.8,
			Docs:  []string{docTrials},
			Plans: notEnt, Regions: allRegion,
			Subjects: []string{"Trial extension", "More time to test", "Extend trial please", "trial"},
			EN: []string{
				"Can you extend our trial? We haven't had time to test properly.",
				"Is it possible to get a few more days on the trial?",
				"Our trial ends tomorrow and half the team was sick. Extension possible?",
				"trial extension pls",
				"How long can a trial be extended?",
				"We need more time to evaluate. Can the trial be extended?",
				"Could you add some days to our trial? Our decision meeting is next week.",
				"Can support extend trials, and by how much?",
			},
			Facts: same("7 days"),
		},
		{
			ID: "free-limits", Area: "free-plan", Weight: 1.0,
			Docs: []string{docFreePlan}, Tracks: []string{docFreePlan},
			Plans: []string{"free"}, Regions: allRegion,
			Subjects: []string{"Free plan limits", "How many users on Free?", "Can't invite teammate", "free plan"},
			EN: []string{
				"How many members can we have on the Free plan?",
				"What are the limits of the Free plan?",
				"Can I invite more colleagues without paying?",
				"free plan member limit?",
				"How much storage and how many users does the Free plan include?",
				"We're a small team — can we all use the free plan?",
				"What's included for free?",
				"I can't invite another teammate. Is there a cap on the Free plan?",
			},
			Facts: byVersion(docFreePlan, map[int]fx{
				1: {inc: []string{"3 members"}, exc: []string{"5 members"}},
				2: {inc: []string{"5 members"}, exc: []string{"3 members"}},
			}),
		},
		{
			ID: "free-charged", Area: "free-plan", Weight: 0.8,
			Docs:  []string{docFreePlan},
			Plans: []string{"free"}, Regions: allRegion,
			Subjects: []string{"Am I going to be charged?", "Free plan charges", "Card needed for Free?", "billing email on free plan"},
			EN: []string{
				"I'm on the Free plan, why would I be charged anything?",
				"Do you need my card for the free plan?",
				"Will I ever be charged if I stay on Free?",
				"free plan - any hidden charges?",
				"Does the Free plan charge automatically when we hit the limits?",
				"I got an email about billing but I'm on the free plan. Am I going to be charged?",
				"Is the free plan really free forever, no card?",
				"What happens if we go over the free storage, do you bill us?",
			},
			Facts: same("never charged"),
		},
		{
			ID: "free-inactive", Area: "free-plan", Weight: 0.7,
			Docs:  []string{docFreePlan},
			Plans: []string{"free"}, Regions: allRegion,
			Subjects: []string{"Inactive workspace", "Will my free account be deleted?", "Dormant workspace", "inactivity"},
			EN: []string{
				"Will our free workspace be deleted if we don't use it for a while?",
				"How long can a Free workspace stay inactive before it's removed?",
				"We haven't logged in for a long time. Is our free account still there?",
				"inactive free workspace deletion?",
				"Do you delete free accounts that aren't used?",
				"I'm going on sabbatical. Will my free workspace survive a year without logins?",
				"Do you warn before deleting an inactive free workspace, and after how long?",
				"What's your policy on dormant free workspaces?",
			},
			Facts: same("18 months"),
		},
		{
			ID: "nonprofit", Area: "discounts", Weight: 1.2, Overlay: true,
			Docs: []string{docDiscounts}, Tracks: []string{docDiscounts},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Nonprofit discount", "Charity pricing", "NGO discount?", "Discount for nonprofits"},
			EN: []string{
				"Do you offer a nonprofit discount?",
				"We're a registered charity. Is there a discount for us?",
				"How much is the nonprofit discount on annual plans?",
				"NGO discount?",
				"Our nonprofit would like to buy {plan} annually. Any special pricing?",
				"We're a small charity in {country}. Do you discount for nonprofits?",
				"Is there a charity discount and how do we apply?",
				"What percentage off do registered nonprofits get?",
			},
			Facts: byVersion(docDiscounts, map[int]fx{
				1: {inc: []string{"25%"}, exc: []string{"30%"}},
				2: {inc: []string{"30%"}, exc: []string{"25%"}},
			}),
		},
		{
			ID: "education", Area: "discounts", Weight: 0.9, Overlay: true,
			Docs:  []string{docDiscounts},
			Plans: paid, Regions: allRegion,
			Subjects: []string{"Education discount", "Discount for schools", "University pricing", "edu pricing"},
			EN: []string{
				"Do you have an education discount?",
				"We're a university department. What discount can we get?",
				"Is there special pricing for schools?",
				"edu discount?",
				"I'm buying for our school. How much off do educational institutions get?",
				"Does your academic discount apply to annual {plan}?",
				"Our college wants to buy seats for staff. Any discount?",
				"What's the discount for accredited schools?",
			},
			Facts: same("40%"),
		},
		{
			ID: "ent-payment-terms", Area: "invoices", Weight: 1.2,
			Docs: []string{docEnterprise}, Tracks: []string{docEnterprise},
			Plans: ent, Regions: allRegion,
			Subjects: []string{"Payment terms", "Invoice due date", "Net terms", "When is {inv} due?"},
			EN: []string{
				"What are the payment terms on our enterprise invoices?",
				"When is our enterprise invoice due?",
				"How many days do we have to pay the invoice?",
				"payment terms net?",
				"Our AP team needs to know the due date for your invoices.",
				"Can you confirm the standard payment terms for our contract invoices?",
				"Invoice {inv} arrived today. By when must it be paid?",
				"Procurement asks what payment term your invoices carry.",
			},
			Facts: byVersion(docEnterprise, map[int]fx{
				1: {inc: []string{"30 days"}, exc: []string{"45 days"}},
				2: {inc: []string{"45 days"}, exc: []string{"30 days"}},
			}),
		},
		{
			ID: "ent-po", Area: "invoices", Weight: 0.8,
			Docs:  []string{docEnterprise},
			Plans: ent, Regions: allRegion,
			Subjects: []string{"PO number", "Purchase order on invoice", "New PO", "PO for renewal"},
			EN: []string{
				"We need a new PO number on our invoices. How much notice do you need?",
				"Our purchase order changes at renewal. When should we send you the new number?",
				"How do we get our PO number onto the invoice, and by when?",
				"PO number update deadline?",
				"Procurement issued a new PO. Can you add it to the next invoice?",
				"Our finance system rejects invoices without a PO. How far ahead must we send it?",
				"What's the lead time for adding a purchase order number before renewal?",
				"Can you put our new PO on the renewal invoice next month?",
			},
			Facts: same("10 business days"),
		},
		{
			ID: "ent-overdue", Area: "invoices", Weight: 0.8,
			Docs:  []string{docEnterprise},
			Plans: ent, Regions: allRegion,
			Subjects: []string{"Overdue invoice", "Late payment", "Will we be suspended?", "Payment delay {inv}"},
			EN: []string{
				"Our invoice is overdue because of an internal approval delay. Will our account be suspended?",
				"What happens if we pay the enterprise invoice late?",
				"Do you suspend enterprise accounts for late payment?",
				"late payment consequences?",
				"We're a few weeks late on invoice {inv}. Are we at risk of losing access?",
				"Will we get reminders before anything happens to an overdue invoice?",
				"Our payment run slipped. What's your process for overdue enterprise invoices?",
				"If the invoice isn't paid on time, do you cut off access?",
			},
			Facts: same("never suspended automatically"),
		},
	}
}
