package llm

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCappedKeepsTheNewestTextWithinEveryCap(t *testing.T) {
	t.Parallel()
	small := Limits{Chars: 100, Sentences: 4, Questions: 2}
	cases := []struct {
		name      string
		messages  []Message
		wantKept  []string // bodies kept, oldest first
		wantLimit string
	}{
		{"a normal ticket is untouched",
			[]Message{{"customer", "Hi. Can I get a refund?"}, {"agent", "Which plan?"}, {"customer", "Pro."}},
			[]string{"Hi. Can I get a refund?", "Which plan?", "Pro."}, ""},
		{"older messages go first when the characters run out",
			[]Message{{"customer", strings.Repeat("a", 80) + "."}, {"customer", "Can I get a refund for the annual plan?"}},
			[]string{"Can I get a refund for the annual plan?"}, "characters"},
		{"a long message keeps its first sentences",
			[]Message{{"customer", "One. Two. Three. Four. Five. Six."}},
			[]string{"One. Two. Three. Four."}, "sentences"},
		{"questions are capped on their own",
			[]Message{{"customer", "Why? How? When? What?"}},
			[]string{"Why? How?"}, "questions"},
		{"one sentence longer than the cap is cut to it",
			[]Message{{"customer", "Hello"}, {"customer", strings.Repeat("é", 80)}},
			[]string{strings.Repeat("é", 50)}, "characters"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, tr := Request{Subject: "Refund", Messages: tc.messages}.Capped(small)
			var bodies []string
			for _, m := range out.Messages {
				bodies = append(bodies, m.Body)
			}
			assert.Equal(t, tc.wantKept, bodies)
			assert.Equal(t, tc.wantLimit, tr.Limit)
			if tc.wantLimit == "" {
				assert.Empty(t, tr.Note())
				return
			}
			assert.LessOrEqual(t, tr.KeptChars, small.Chars)
			assert.Contains(t, tr.Note(), "Read the whole thread before sending")
			assert.Contains(t, tr.Note(), tc.wantLimit+" cap")
		})
	}
}

// The caps hold whatever the ticket's size, and RequestFromTicket applies them, so the
// drafter, the judge and retrieval all read the same bounded text.
func TestDefaultLimitsBoundAHugeTicket(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("Can I get a refund for my annual plan? ", 5000) // 195 KB of questions
	out, tr := Request{Messages: []Message{{"customer", body}}}.Capped(DefaultLimits)
	require.Len(t, out.Messages, 1)
	assert.LessOrEqual(t, len(out.Messages[0].Body), DefaultLimits.Chars)
	assert.Equal(t, DefaultLimits.Questions, strings.Count(out.Messages[0].Body, "?"))
	assert.Equal(t, "questions", tr.Limit)
	assert.Equal(t, len(body), tr.TotalChars)
}
