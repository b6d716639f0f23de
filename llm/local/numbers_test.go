package local

import "testing"

func TestAskedKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		question string
		want     quantityKind
	}{
		{"How long until the workspace is read-only?", kindDuration},
		{"When does our credit run out?", kindDuration},
		{"Card declined - when will you lock us out?", kindDuration},
		{"refund sent last week, timeline?", kindDuration},
		{"What happens when the trial is over? Do we get billed?", 0},
		{"When my refund?", kindDuration},
		{"When I cancel, do I lose the exported data?", 0},
		{"When searching in Drive, can I look only in one folder.", 0},
		{"How much VAT do you add for a company in Spain?", kindMoney | kindPercent},
		{"What percentage off do schools get?", kindPercent},
		{"Can I change the company name on an invoice?", 0},
	}
	for _, tt := range tests {
		if got := askedKinds(tt.question); got != tt.want {
			t.Errorf("askedKinds(%q) = %b, want %b", tt.question, got, tt.want)
		}
	}
}

func TestStatesKind(t *testing.T) {
	t.Parallel()
	if !statesKind("Refunds arrive within 8 business days.", kindDuration) {
		t.Error("a duration is a duration")
	}
	if statesKind("We retry a failed payment 4 times.", kindDuration) {
		t.Error("a count of retries is not a duration")
	}
	if !statesKind("Schools get 45% off.", kindMoney|kindPercent) {
		t.Error("a rate answers how much")
	}
}
