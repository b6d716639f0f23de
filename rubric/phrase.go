package rubric

import (
	"errors"
	"strings"

	"github.com/supportdraft/supportdraft/text"
)

// phrase is a rubric phrase read as words, matched on word boundaries: "login to" is found
// in "Login to your workspace" but "refund" is not found in "refunded".
type phrase struct {
	text  string   // as the rubric wrote it, trimmed
	words []string // folded
	// exact: matched as written (case and all), for a banned form that differs from the
	// preferred one only in case.
	exact bool
}

type termPhrase struct {
	phrase
	preferred string
}

func newPhrase(s string) (phrase, error) {
	s = text.CollapseSpace(s)
	ws := text.WordSpans(s)
	if len(ws) == 0 {
		return phrase{}, errors.New("empty phrase (it has no letters or digits)")
	}
	p := phrase{text: s}
	for _, w := range ws {
		p.words = append(p.words, w.Word)
	}
	return p, nil
}

// sameWords reports whether two phrases are the same words, ignoring case.
func sameWords(a, b phrase) bool {
	return strings.Join(a.words, " ") == strings.Join(b.words, " ")
}

// find returns the byte ranges in s (whose words are words) where the phrase stands.
func (p phrase) find(s string, words []text.WordSpan) [][2]int {
	var out [][2]int
	for i := 0; i+len(p.words) <= len(words); i++ {
		match := true
		for j, w := range p.words {
			if words[i+j].Word != w {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		span := [2]int{words[i].Start, words[i+len(p.words)-1].End}
		if p.exact && text.CollapseSpace(s[span[0]:span[1]]) != p.text {
			continue
		}
		out = append(out, span)
	}
	return out
}
