package text

import (
	"html"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

// Normalize is the form of a text that rules, the guard and triage read, so a disguise that a
// person reads through cannot slip a word past them: HTML character references decoded
// ("charge&shy;back"), Unicode NFKC (full-width and mathematical letters, ligatures),
// format and other invisible characters removed (zero-width spaces and joiners, soft
// hyphens, bidi controls, variation selectors), and each letter of another script that
// Unicode's confusables data (UTS #39) says looks like a Latin letter replaced by that
// letter ("ch\u0430rgeback" with a Cyrillic а). ASCII is never changed, so digits and
// punctuation keep their meaning, and letters with their own accents (é, ü) stay. Normalize
// is for reading only: what is shown or stored keeps the text as written.
func Normalize(s string) string {
	if isPlainASCII(s) {
		return s
	}
	if strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s)
	}
	s = norm.NFKC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case invisible(r):
		default:
			b.WriteString(latinSkeleton(r))
		}
	}
	return b.String()
}

// isPlainASCII is text Normalize leaves as it is: ASCII with no character reference.
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i] == '&' {
			return false
		}
	}
	return true
}

// invisible reports characters that draw nothing and only split a word for a reader
// that is not a person: format characters (Cf: zero-width space and joiners, soft
// hyphen, bidi controls, BOM), variation selectors and Unicode's other default-ignorable
// code points (the combining grapheme joiner, Hangul fillers).
func invisible(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// skeletons remembers latinSkeleton's answers: a text repeats few distinct letters.
var skeletons sync.Map // rune → string

// latinSkeleton is r's UTS #39 skeleton when that is Latin letters only (Cyrillic а →
// a, Greek Η → H), else r itself: a confusable that maps to another non-Latin letter, a
// digit or punctuation is left alone, so only disguised Latin words change.
func latinSkeleton(r rune) string {
	if v, ok := skeletons.Load(r); ok {
		return v.(string)
	}
	out := string(r)
	if sk := confusables.Skeleton(out); sk != out && isLatinLetters(sk) {
		out = sk
	}
	skeletons.Store(r, out)
	return out
}

func isLatinLetters(s string) bool {
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return s != ""
}
