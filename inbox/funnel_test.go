package inbox

import (
	"github.com/supportdraft/supportdraft/ticket"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFirstResponse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		thread  Thread
		outcome string
	}{
		{Thread{}, OutcomePass},
		{Thread{EarlierMessages: 2}, OutcomePass},
		{Thread{AgentReplied: true, EarlierMessages: 1}, OutcomeSkip},
	}
	for _, tc := range cases {
		r := FirstResponse(tc.thread)
		if r.Outcome != tc.outcome || (r.Outcome == OutcomeSkip && r.Stage != StageNotFirst) {
			t.Errorf("%+v: got %+v", tc.thread, r)
		}
	}
}

func TestRevisionKeepsTheWholeThread(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 2, 9, 14, 0, 0, time.UTC)
	first := &Message{MessageID: "<1@x>", ThreadID: "th-1", ReceivedAt: at, Subject: "Refund", Body: "Can I get a refund?",
		From: Address{Email: "ana@customer.example", Name: "Ana Ruiz"}, Account: &ticket.Account{ID: "A-1", Plan: "pro", Region: "eu", Locale: "de"}}
	r1 := Revision(nil, first)
	if r1.TicketID != "th-1" || r1.Revision != 1 || r1.Account.Plan != "pro" || len(r1.Messages) != 1 || r1.Subject != "Refund" ||
		r1.Account.Name != "Ana Ruiz" {
		t.Fatalf("first revision: %+v", r1)
	}
	second := &Message{MessageID: "<2@x>", ThreadID: "th-1", ReceivedAt: at.Add(time.Hour), Subject: "Re: Refund", Body: "And how long does it take?",
		Account: first.Account}
	r2 := Revision(r1, second)
	if r2.Revision != 2 || len(r2.Messages) != 2 || r2.Subject != "Refund" || !r2.UpdatedAt.Equal(second.ReceivedAt) {
		t.Fatalf("second revision: %+v", r2)
	}
	if len(r1.Messages) != 1 {
		t.Fatal("the earlier revision must not change")
	}
	if err := r2.Validate(); err != nil {
		t.Fatalf("a mapped revision must be a valid ticket: %v", err)
	}
	unknown := Revision(nil, &Message{ThreadID: "th-2", ReceivedAt: at, Subject: "Price?", Body: ""})
	if unknown.Account.Plan != UnknownAccount || unknown.Messages[0].Body != "Price?" {
		t.Fatalf("unknown sender: %+v", unknown)
	}
}

func TestParseIsStrict(t *testing.T) {
	t.Parallel()
	good := `{"message_id":"<a@b>","thread_id":"th-1","received_at":"2026-11-02T09:14:00Z","from":{"email":"ana@c.example"},"to":["billing@x.example"],"subject":"s","body":"b","thread":{"agent_replied":false,"earlier_messages":0}}`
	if _, err := Parse([]byte(good)); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, body, want string }{
		{"misspelt field", strings.Replace(good, `"thread_id"`, `"threadid"`, 1), `field "threadid": unknown field`},
		{"missing message_id", strings.Replace(good, `"message_id":"<a@b>",`, "", 1), `"message_id" is required`},
		{"missing thread_id", strings.Replace(good, `"thread_id":"th-1",`, "", 1), `"thread_id" is required`},
		{"missing from", strings.Replace(good, `"from":{"email":"ana@c.example"},`, "", 1), `"from.email" is required`},
		{"account without plan", strings.Replace(good, `"body":"b",`, `"body":"b","account":{"id":"A"},`, 1), `"account" needs "plan" and "region"`},
		{"bad label", strings.Replace(good, `"body":"b",`, `"body":"b","expect":{"decision":"maybe"},`, 1), `"expect.decision" is "maybe"`},
		{"two objects", good + good, "unexpected data after the JSON value"},
		{"repeated key", strings.Replace(good, `"subject":"s"`, `"subject":"s","subject":"t"`, 1), `"subject": duplicate key`},
		{"thread ID with a slash", strings.Replace(good, `"th-1"`, `"th/1"`, 1), `field "thread_id" is "th/1"`},
		{"thread ID with a newline", strings.Replace(good, `"th-1"`, `"th\n1"`, 1), `field "thread_id"`},
		{"thread ID not ASCII", strings.Replace(good, `"th-1"`, `"thé1"`, 1), `field "thread_id"`},
		{"message ID with NUL", strings.Replace(good, `"<a@b>"`, `"<a\u0000@b>"`, 1), `field "message_id" must be printable ASCII`},
		{"message ID with a newline", strings.Replace(good, `"<a@b>"`, `"<a\n@b>"`, 1), `field "message_id" must be printable ASCII`},
		{"message ID not ASCII", strings.Replace(good, `"<a@b>"`, `"<é@b>"`, 1), `field "message_id" must be printable ASCII`},
		{"plan *", strings.Replace(good, `"body":"b",`, `"body":"b","account":{"plan":"*","region":"eu"},`, 1), `field "account.plan" is "*"`},
		{"plan of 5,000 characters", strings.Replace(good, `"body":"b",`, `"body":"b","account":{"plan":"`+strings.Repeat("p", 5000)+`","region":"eu"},`, 1), `field "account.plan"`},
		{"subject of 400 KB", strings.Replace(good, `"subject":"s"`, `"subject":"`+strings.Repeat("s", 400_000)+`"`, 1), `field "subject" is longer than 1000 bytes`},
		{"too deep", strings.Replace(good, `"body":"b",`, `"body":"b","headers":`+strings.Repeat("[", 100)+strings.Repeat("]", 100)+`,`, 1), "nested more than 16 levels"},
	}
	for _, tc := range cases {
		if _, err := Parse([]byte(tc.body)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestReport(t *testing.T) {
	t.Parallel()
	label := func(decision, stage, bucket string, genuine bool) *Message {
		e := &Expect{Decision: decision, Stage: stage, Genuine: genuine}
		if bucket != "" {
			e.Bucket = &bucket
		}
		return &Message{Expect: e}
	}
	msgs := []*Message{
		label(DecisionDraft, StageNone, BucketRefunds, true),
		label(DecisionReview, StageRecipients, BucketInvoiceTax, true),
		label(DecisionDraft, StageNone, BucketCancellation, true), // dropped as automated: a genuine loss
		label(DecisionSkip, StageNotFirst, "", true),              // the rep's: not dropped
		label(DecisionSkip, StageDuplicate, "", true),
	}
	decisions := []Decision{
		{Decision: DecisionDraft, Stage: StageNone, Bucket: BucketRefunds},
		{Decision: DecisionReview, Stage: StageRecipients, Bucket: BucketPlanChange},
		{Decision: DecisionSkip, Stage: StageAutomated},
		{Decision: DecisionSkip, Stage: StageNotFirst},
		{Decision: DecisionSkip, Stage: StageDuplicate},
	}
	r := BuildReport(msgs, decisions)
	if r.Messages != 5 || r.Drafted != 2 || r.ForcedReview != 1 || r.Stages.Automated != 1 || r.Stages.NotFirst != 1 || r.Stages.Duplicate != 1 {
		t.Fatalf("counts: %+v", r)
	}
	if *r.DecisionAccuracy != 0.8 || *r.BucketAccuracy != 0.333 || *r.GenuineDropped != 1 {
		t.Fatalf("label figures: decision %v bucket %v dropped %v", *r.DecisionAccuracy, *r.BucketAccuracy, *r.GenuineDropped)
	}
	wantMisses := []Miss{{Want: "review invoice_tax", Got: "review plan_change"}, {Want: "draft cancellation", Got: "skip -"}}
	if !slices.Equal(r.Misses, wantMisses) {
		t.Fatalf("misses: %+v, want %+v", r.Misses, wantMisses)
	}
	if r.Decisions[2].Bucket != nil || *r.Decisions[0].Bucket != BucketRefunds {
		t.Fatal("bucket is null when triage did not run")
	}
	if u := BuildReport([]*Message{{}}, decisions[:1]); u.DecisionAccuracy != nil || u.GenuineDropped != nil {
		t.Fatal("an unlabelled set has no label figures")
	}
}
