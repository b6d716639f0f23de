package inbox

import "testing"

func TestRecipients(t *testing.T) {
	t.Parallel()
	s, err := NewSupport([]string{"billing@company.example", " Support@company.example "})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name          string
		to, cc, bcc   []string
		wantAmbiguous bool
	}{
		{"support in to", []string{"billing@company.example"}, nil, nil, false},
		{"support in to with teammates copied", []string{"billing@company.example"}, []string{"cfo@customer.example"}, nil, false},
		{"display name and case", []string{"Billing Team <BILLING@company.example>"}, nil, nil, false},
		{"plus tag", []string{"billing+eu@company.example"}, nil, nil, false},
		{"second support address", []string{"support@company.example"}, nil, nil, false},
		{"support only in cc", []string{"jen@customer.example"}, []string{"billing@company.example"}, nil, true},
		{"support only in bcc", []string{"team@customer.example"}, nil, []string{"billing@company.example"}, true},
		{"support nowhere: blind copy or forward", []string{"team@customer.example"}, nil, nil, true},
		{"a lookalike domain is not support", []string{"billing@company.example.evil"}, nil, nil, true},
	}
	for _, tc := range cases {
		r := s.Classify(&Message{To: tc.to, Cc: tc.cc, Bcc: tc.bcc})
		if r.Ambiguous != tc.wantAmbiguous || r.Reason == "" {
			t.Errorf("%s: ambiguous %v (%s), want %v", tc.name, r.Ambiguous, r.Reason, tc.wantAmbiguous)
		}
	}
}

func TestSupportGlobs(t *testing.T) {
	t.Parallel()
	s, err := NewSupport(DefaultSupportAddresses)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Is("billing@quokka.example") || !s.Is("help@acme.example") || s.Is("jen@quokka.example") {
		t.Fatal("default globs should match billing@, support@ and help@ on any domain, nothing else")
	}
	for _, bad := range [][]string{nil, {""}, {"billing"}, {"[x@y"}} {
		if _, err := NewSupport(bad); err == nil {
			t.Errorf("NewSupport(%q) should fail", bad)
		}
	}
}

// A customer's own billing@ mailbox writing to ours is a person; our own address writing
// to us is a loop.
func TestOnlyOurOwnDomainIsALoop(t *testing.T) {
	s, err := NewSupport([]string{"billing@*"})
	if err != nil {
		t.Fatal(err)
	}
	customer := &Message{From: Address{Email: "billing@maplecrest.example"}, To: []string{"billing@ledgerly.example"}, Body: "Can we switch to annual billing now?"}
	if r := RecipientStep(customer, s); r.Outcome == OutcomeSkip {
		t.Errorf("a customer's billing@ mailbox was taken for a loop: %+v", r)
	}
	ours := &Message{From: Address{Email: "Billing+eu@ledgerly.example"}, To: []string{"billing@ledgerly.example"}, Body: "Re: your refund"}
	if r := RecipientStep(ours, s); r.Outcome != OutcomeSkip || r.Stage != StageAutomated {
		t.Errorf("our own address writing to us: %+v, want skipped as a loop", r)
	}
}

func TestSupportUnion(t *testing.T) {
	a, err := NewSupport([]string{"billing@company.example"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewSupport([]string{"payments@*"})
	if err != nil {
		t.Fatal(err)
	}
	u := a.Union(b)
	if !u.Is("billing@company.example") || !u.Is("payments@any.example") || u.Is("ana@customer.example") {
		t.Fatal("the union holds both sets of addresses and no other")
	}
	if a.Is("payments@any.example") {
		t.Fatal("a union leaves its operands as they were")
	}
	if (*Support)(nil).Union(b) != b || a.Union(nil) != a {
		t.Fatal("a nil side adds nothing")
	}
}
