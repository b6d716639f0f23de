package text

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestNormalizeConfusablesTxt reads lines of Unicode's own confusables.txt (testdata):
// every source character that Go's Unicode tables know, that the file does not mark as a
// symbol ("#*": not a letter anyone writes in a word) and whose target is one Latin
// letter normalises to that letter, alone and inside a word.
func TestNormalizeConfusablesTxt(t *testing.T) {
	f, err := os.Open("testdata/confusables-hij.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checked, unknown := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") || strings.Contains(line, "#*") {
			continue
		}
		fields := strings.Split(line, ";")
		src, err1 := strconv.ParseUint(strings.TrimSpace(fields[0]), 16, 32)
		dst, err2 := strconv.ParseUint(strings.TrimSpace(fields[1]), 16, 32)
		if err1 != nil || err2 != nil {
			t.Fatalf("unreadable line %q", line)
		}
		r, want := rune(src), string(rune(dst))
		if !unicode.In(r, unicode.L, unicode.N, unicode.S, unicode.P, unicode.M) {
			unknown++ // newer than this Go's Unicode tables
			continue
		}
		if got := Normalize(string(r)); got != want {
			t.Errorf("%s: Normalize(%q) = %q, want %q", strings.TrimSpace(strings.SplitN(line, "#", 2)[1]), string(r), got, want)
		}
		if got := Normalize("c" + string(r) + "argeback"); got != "c"+want+"argeback" {
			t.Errorf("inside a word: %q", got)
		}
		checked++
	}
	if checked < 75 {
		t.Fatalf("only %d lines checked (%d unknown to Go's tables)", checked, unknown)
	}
}

// The probe's disguises, and text that must not change.
func TestNormalizeDisguisesAndPlainText(t *testing.T) {
	for in, want := range map[string]string{
		"charge\u200bback":             "chargeback",
		"charge&shy;back":              "chargeback",
		"charge\u00adback":             "chargeback",
		"ch\u0430rgeback":              "chargeback",
		"ＣＨＡＲＧＥＢＡＣＫ":                   "CHARGEBACK",
		"c\u200dh\u2060a\ufeffrgeback": "chargeback",
		"refund within 14 days":        "refund within 14 days",
		"Rückerstattung für café":      "Rückerstattung für café",
		"AT&amp;T bills 10%":           "AT&T bills 10%",
		"0 1 l O I":                    "0 1 l O I",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
