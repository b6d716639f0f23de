package guard

import (
	"slices"
	"testing"
)

func TestPlaceholders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"double braces", "Hi {{first_name}}, and {{ plan.name }}.", []string{"{{first_name}}", "{{ plan.name }}"}},
		{"single braces", "Hi {name}, your {0} is ready.", []string{"{name}", "{0}"}},
		{"dollar braces", "Total: ${amount}.", []string{"${amount}"}},
		{"bracketed caps", "Dear [NAME], regards [FIRST NAME] [AGENT-NAME]", []string{"[NAME]", "[FIRST NAME]", "[AGENT-NAME]"}},
		{"bracketed snake case", "Dear [first_name],", []string{"[first_name]"}},
		{"bracketed placeholder words", "Dear [Customer Name], see [insert link].", []string{"[Customer Name]", "[insert link]"}},
		{"angle tokens", "Dear <FIRST_NAME> or <name> or <Agent Name>,", []string{"<FIRST_NAME>", "<name>", "<Agent Name>"}},
		{"printf verbs", "Hello %s, you owe %d (%v), %1$s.", []string{"%s", "%d", "%v", "%1$s"}},
		{"double underscores", "Hi __FIRST_NAME__ and __X__.", []string{"__FIRST_NAME__", "__X__"}},
		{"in order of appearance", "<name> then {{x}} then [NAME]", []string{"<name>", "{{x}}", "[NAME]"}},
		{"percent-wrapped names", "Hi %FIRST_NAME%, from %agent_name% on %PLAN%.", []string{"%FIRST_NAME%", "%agent_name%", "%PLAN%"}},
		{"python named format", "Hi %(first_name)s, you owe %(amount)d.", []string{"%(first_name)s", "%(amount)d"}},
		{"hash-wrapped names", "Your ticket #TICKET_ID# is open.", []string{"#TICKET_ID#"}},
		{"a blank to fill in", "Hi ___, your refund of ____ is on its way.", []string{"___", "____"}},
		{"XXX markers", "Your refund of XXX EUR reaches you by XXXX.", []string{"XXX", "XXXX"}},
		{"the gap note", "Thanks.\n\n[Not covered by current policy: 2 sentences removed — please answer this part yourself.]",
			[]string{"[Not covered by current policy: 2 sentences removed — please answer this part yourself.]"}},
		{"a bracketed note to the agent", "Hi Anna, [Note to agent: confirm the amount first] your refund is on its way.",
			[]string{"[Note to agent: confirm the amount first]"}},

		{"plain text", "Thanks for reaching out.", nil},
		{"markdown link", "See [our refund policy](https://example.com/refunds) or [HELP](https://x.y).", nil},
		{"citations", "As the policy says [1] and [2, 3].", nil},
		{"ordinary brackets", "It was [sic] late, [Update] fixed, [ ] open.", nil},
		{"email and url in angle brackets", "Write to <billing@example.com> or <https://example.com/help>.", nil},
		{"html tags", "<p>Hello<br>there</p> <strong>now</strong>", nil},
		{"comparisons", "if a < b and c > d", nil},
		{"percentages", "A 10% discount, 100%sure, 50 % deposit", nil},
		{"markdown bold", "This is __important__.", nil},
		{"masked card numbers", "The card XXXX-XXXX-XXXX-4242 and account XXXX 1234 were charged.", nil},
		{"prices, ticket numbers and shell variables", "It costs $15 or US$20; see ticket #4521, issue #12# and $SITE_ID.", nil},
		{"percentages side by side", "Between 10% and 20% of 5%.", nil},
		{"words containing XXX", "Size XXXL, XXXV", nil},
		{"a labelled markdown link", "See [Refunds: annual plans](https://example.com/r).", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Placeholders(tt.text); !slices.Equal(got, tt.want) {
				t.Fatalf("Placeholders(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}
