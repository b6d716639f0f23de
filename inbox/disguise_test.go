package inbox

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A review rule on "chargeback" holds against the probe's disguises and against every
// letter that Unicode's confusables.txt lists as looking like an "h" (text/testdata).
func TestRulesSeeThroughDisguises(t *testing.T) {
	rules, err := ParseRules([]byte("rules:\n  - action: review\n    phrases: [chargeback]\n"))
	if err != nil {
		t.Fatal(err)
	}
	bodies := []string{"I will file a charge\u200bback.", "I will file a charge&shy;back.", "I will file a ch\u0430rgeback.",
		"I will file a CHARGE\u00adBACK.", "I will file a ｃｈａｒｇｅｂａｃｋ."}
	f, err := os.Open("../text/testdata/confusables-hij.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ";")
		if len(fields) < 2 || strings.Contains(sc.Text(), "#*") || strings.TrimSpace(fields[1]) != "0068" {
			continue // only the letters that look like "h"
		}
		src, err := strconv.ParseUint(strings.TrimSpace(fields[0]), 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, "I will file a c"+string(rune(src))+"argeback.")
	}
	if len(bodies) < 15 {
		t.Fatalf("only %d disguises read", len(bodies))
	}
	plain, err := (Classifier{}).Triage(t.Context(), &Message{Subject: "Bank dispute", Body: "I will file a chargeback."})
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range bodies {
		m := &Message{MessageID: "<m@x>", ThreadID: "th-1", ReceivedAt: time.Now(), From: Address{Email: "a@b.example"}, Body: body}
		if r, _ := rules.Match(m); r == nil || r.Action != ActionReview {
			t.Errorf("%q: the chargeback review rule did not match", body)
		}
		m.Subject = "Bank dispute"
		if tr, _ := (Classifier{}).Triage(t.Context(), m); tr == nil || *tr != *plain {
			t.Errorf("%q: triage %+v, the plain text's %+v", body, tr, plain)
		}
	}
	if r, _ := rules.Match(&Message{Body: "I will charge it back to my card"}); r != nil {
		t.Errorf("a message without the phrase matched: %v", r)
	}
}
