package email_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/email"
	"github.com/supportdraft/supportdraft/inbox"
)

var received = time.Date(2026, 12, 3, 17, 0, 0, 0, time.UTC)

func parseFile(t *testing.T, name string) *inbox.Message {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	m, err := email.Parse(raw, received)
	require.NoError(t, err)
	require.NoError(t, m.Validate(), "a parsed mail is a valid inbox message")
	return m
}

// TestParseDecodesWhatMailersSend: transfer encodings, charsets and HTML-only mail all
// arrive as UTF-8 text, with the headers the funnel reads.
func TestParseDecodesWhatMailersSend(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file, from, name, subject string
		body                      []string // substrings of the text
		notInBody                 []string
	}{
		{file: "plain.eml", from: "ana@customer.example", name: "Ana Lima", subject: "Refund for my annual plan",
			body: []string{"Our annual Pro plan renewed five days ago. Can we still get a refund?"}},
		{file: "multipart_qp.eml", from: "juergen@kunde.example", name: "Jürgen Müller", subject: "Rückerstattung für den Jahresplan",
			body:      []string{"können wir die jährliche Gebühr zurückbekommen? Der Plan wurde vor fünf Tagen verlängert."},
			notInBody: []string{"<p>", "=C3"}},
		{file: "html_only.eml", from: "bea@customer.example", name: "Bea", subject: "Invoice VAT number",
			body:      []string{"Our invoice is missing the VAT number & the company address.", "Can you add them?"},
			notInBody: []string{"<p>", "&amp;", "color: red"}},
		{file: "latin1.eml", from: "rene@client.example", name: "René", subject: "Facture en double pour décembre",
			body: []string{"j'ai été débité deux fois pour décembre"}},
		{file: "shift_jis.eml", from: "yamada@kokyaku.example", name: "山田", subject: "返金について",
			body: []string{"年間プランの返金をお願いします。"}},
		{file: "attachment.eml", from: "carl@customer.example", name: "Carl", subject: "Charged twice, invoice attached",
			body:      []string{"We were charged twice this month.", "[Attachments, not read: invoice-2026-12.pdf (application/pdf)]"},
			notInBody: []string{"PDF-1.4"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			m := parseFile(t, tc.file)
			assert.Equal(t, tc.from, m.From.Email)
			assert.Equal(t, tc.name, m.From.Name)
			assert.Equal(t, tc.subject, m.Subject)
			assert.Equal(t, []string{"billing@company.example"}, m.To)
			assert.Equal(t, received, m.ReceivedAt)
			for _, s := range tc.body {
				assert.Contains(t, m.Body, s)
			}
			for _, s := range tc.notInBody {
				assert.NotContains(t, m.Body, s)
			}
			assert.Regexp(t, `^mail-[0-9a-f]{20}$`, m.ThreadID)
			assert.True(t, strings.HasPrefix(m.MessageID, "<") && strings.HasSuffix(m.MessageID, ">"))
		})
	}
}

// TestParseKeepsTheScreensHeaders: an auto-reply keeps the headers the funnel's automated
// check reads, so it is skipped there like any other auto-reply.
func TestParseKeepsTheScreensHeaders(t *testing.T) {
	t.Parallel()
	m := parseFile(t, "autoreply.eml")
	v, ok := m.Header("Auto-Submitted")
	assert.True(t, ok)
	assert.Equal(t, "auto-replied", v)
	auto, _ := inbox.Automated(m)
	assert.True(t, auto)
	assert.False(t, func() bool { auto, _ := inbox.Automated(parseFile(t, "plain.eml")); return auto }())
}

// TestThreadsByReferences: a reply lands in its thread's root's ticket, whatever message of
// the thread it answers; In-Reply-To and References are listed nearest first.
func TestThreadsByReferences(t *testing.T) {
	t.Parallel()
	first := parseFile(t, "plain.eml")
	reply := parseFile(t, "reply.eml")
	assert.Equal(t, first.ThreadID, reply.ThreadID, "References' first ID is the thread's root")
	assert.Equal(t, []string{"<agent-2@company.example>", "<plain-1@customer.example>"}, email.References(reply))
	assert.Empty(t, email.References(first))
	assert.NotEqual(t, first.ThreadID, parseFile(t, "html_only.eml").ThreadID)
}

// TestParseRefusesNamingWhatIsWrong: bad input is refused with the header at fault, and
// the error never quotes the message.
func TestParseRefusesNamingWhatIsWrong(t *testing.T) {
	t.Parallel()
	secret := "Sensitive-customer-words"
	for _, tc := range []struct{ name, raw, want string }{
		{"empty", "  \r\n", "the message is empty"},
		{"no headers", "\r\n" + secret, "no header lines"},
		{"no from", "To: billing@company.example\r\nSubject: " + secret + "\r\n\r\n" + secret, `header "From" is missing`},
		{"bad from", "From: " + secret + "\r\nTo: billing@company.example\r\n\r\nhi", `header "From" is missing or is not an address`},
		{"bad to", "From: a@b.example\r\nTo: " + secret + " <<\r\n\r\nhi", `header "To" is not a list of addresses`},
		{"too long", "From: a@b.example\r\nMessage-ID: <big@b.example>\r\n\r\n" + strings.Repeat("a", inbox.MaxBody+1), fmt.Sprintf("longer than %d bytes", inbox.MaxBody)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := email.Parse([]byte(tc.raw), received)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), secret)
		})
	}
}

// TestMessageWithoutIDGetsAStableOne: the same bytes give the same ID, so a redelivery of
// a message without Message-ID is still a duplicate; different bytes give another.
func TestMessageWithoutIDGetsAStableOne(t *testing.T) {
	t.Parallel()
	raw := "From: a@b.example\r\nTo: billing@company.example\r\nSubject: hi\r\n\r\nwhere is my invoice?"
	a, err := email.Parse([]byte(raw), received)
	require.NoError(t, err)
	b, err := email.Parse([]byte(raw), received.Add(time.Hour))
	require.NoError(t, err)
	c, err := email.Parse([]byte(raw+"!"), received)
	require.NoError(t, err)
	assert.Equal(t, a.MessageID, b.MessageID)
	assert.NotEqual(t, a.MessageID, c.MessageID)
}

// TestLoop: our own address as sender, or named by X-Loop, is a loop; a customer's own
// support address is not ours.
func TestLoop(t *testing.T) {
	t.Parallel()
	own, err := inbox.NewSupport([]string{"billing@company.example"})
	require.NoError(t, err)
	for _, tc := range []struct {
		name    string
		from    string
		headers map[string]string
		loop    bool
	}{
		{"customer", "ana@customer.example", nil, false},
		{"our own sender", "Billing <billing@company.example>", nil, true},
		{"plus tag", "billing+tickets@company.example", nil, true},
		{"x-loop ours", "relay@lists.example", map[string]string{"X-Loop": "billing@company.example"}, true},
		{"x-loop someone else", "ana@customer.example", map[string]string{"x-loop": "lists@customer.example"}, false},
		{"customer's own support desk", "support@customer.example", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loop, _ := email.Loop(&inbox.Message{From: inbox.Address{Email: tc.from}, Headers: tc.headers}, own)
			assert.Equal(t, tc.loop, loop)
		})
	}
}
