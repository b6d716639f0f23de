package mailbox_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	imapclient "github.com/emersion/go-imap/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/supportdraft/supportdraft/activities"
	"github.com/supportdraft/supportdraft/email"
	"github.com/supportdraft/supportdraft/inbox"
	"github.com/supportdraft/supportdraft/intake"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/mailbox"
	"github.com/supportdraft/supportdraft/store"
)

// The child process a test kills: a poller as `supportdraft intake imap` runs one.
const (
	envChildURL   = "MAILBOX_TEST_CHILD_DATABASE_URL"
	envChildUser  = "MAILBOX_TEST_CHILD_USER"
	envChildQueue = "MAILBOX_TEST_CHILD_QUEUE"
)

func TestMain(m *testing.M) {
	if url := os.Getenv(envChildURL); url != "" {
		if err := runChild(url, os.Getenv(envChildUser), os.Getenv(envChildQueue)); err != nil {
			fmt.Fprintln(os.Stderr, "mailbox test poller:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runChild(databaseURL, user, queue string) error {
	st, done, err := testenv.ChildStack(context.Background(), databaseURL)
	if err != nil {
		return err
	}
	defer done()
	p := poller(st.Store, st.Temporal, imapAddr(), user, queue, slog.New(slog.NewTextHandler(os.Stderr, nil)))
	return p.Run(context.Background())
}

// imapAddr is the Dovecot test instance scripts/imap.sh starts; without it the test fails:
// CI must never pass without the real server.
func imapAddr() string { return os.Getenv("TEST_IMAP_ADDR") }

func requireIMAP(t *testing.T) {
	t.Helper()
	if imapAddr() == "" || os.Getenv("TEST_IMAP_PASSWORD") == "" {
		t.Fatal("TEST_IMAP_ADDR and TEST_IMAP_PASSWORD are not set: run the tests with scripts/test.sh, or eval \"$(scripts/imap.sh)\"")
	}
}

var own, _ = inbox.NewSupport([]string{"billing@company.example"})

func poller(s *store.Store, c client.Client, addr, user, queue string, log *slog.Logger) *mailbox.Poller {
	return &mailbox.Poller{
		Config: mailbox.Config{Addr: addr, User: user, Password: os.Getenv("TEST_IMAP_PASSWORD"), Mailbox: "INBOX",
			TLS: mailbox.TLSNone, Poll: time.Minute},
		Store:  s,
		Target: intake.Target{Store: s, Temporal: c, TaskQueue: queue, Draft: true, Own: own},
		Log:    log,
	}
}

// funnelPoller is where every poller test that drafts starts: a poller of a mailbox user
// of the test's own, delivering to the intake and draft workflows on a task queue of the
// test's own.
func funnelPoller(t *testing.T, s *store.Store, log *slog.Logger) (p *mailbox.Poller, user string) {
	t.Helper()
	requireIMAP(t)
	c := testenv.Temporal(t)
	tq := testenv.StartFunnelWorker(t, testenv.Stack(t, s, c, nil), "test-imap-",
		&activities.Intake{Store: s, Rules: &inbox.Rules{}, Support: own, Triager: inbox.Classifier{}})
	user = testenv.Unique("imap-")
	return poller(s, c, imapAddr(), user, tq, log), user
}

// appendMail puts raw messages in user's INBOX over IMAP, as a mail server delivers them.
func appendMail(t *testing.T, user string, msgs ...[]byte) {
	t.Helper()
	appendTo(t, user, "INBOX", msgs...)
}

func appendTo(t *testing.T, user, folder string, msgs ...[]byte) {
	t.Helper()
	c := signIn(t, user)
	defer func() { _ = c.Logout() }()
	for _, m := range msgs {
		require.NoError(t, c.Append(folder, nil, time.Now(), bytes.NewBuffer(m)))
	}
}

func signIn(t *testing.T, user string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.Dial(imapAddr())
	require.NoError(t, err)
	require.NoError(t, c.Login(user, os.Getenv("TEST_IMAP_PASSWORD")))
	return c
}

var fixtureID = regexp.MustCompile(`<([a-z0-9-]+)@`)

// fixtures are package email's test mails with message IDs unique to run.
func fixtures(t *testing.T, run string, names ...string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, n := range names {
		raw, err := os.ReadFile(filepath.Join("..", "email", "testdata", n))
		require.NoError(t, err)
		out[n] = fixtureID.ReplaceAll(raw, []byte("<"+run+"-$1@"))
	}
	return out
}

// questions are the plain billing questions that fill the batch up to 20.
var questions = []string{
	"How do I switch from monthly to annual billing?",
	"My card was declined this morning. How do I update the payment method?",
	"Please cancel our subscription at the end of the term.",
	"Can you resend the invoice for November with our VAT number?",
	"We were charged twice for December. Can you refund one charge?",
	"Do you offer a discount for non-profits?",
	"How do I downgrade from Business to Pro?",
	"Where can I download all our past invoices?",
	"Why did the price of our plan go up this month?",
	"Can we pay by bank transfer instead of card?",
	"Please delete the card on file for our account.",
	"Is tax included in the price shown on the pricing page?",
}

func plainMail(run string, i int, question string) []byte {
	return fmt.Appendf(nil, "From: Customer %d <c%d@customer.example>\r\nTo: billing@company.example\r\nSubject: Billing question %d\r\n"+
		"Message-ID: <%s-q%d@customer.example>\r\nDate: Thu, 03 Dec 2026 09:%02d:00 +0000\r\nMIME-Version: 1.0\r\n"+
		"Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", i, i, i, run, i, i, question)
}

// countDelivered is how many of user's mailbox messages are through the funnel.
func countDelivered(t *testing.T, s *store.Store, user string) int {
	t.Helper()
	var n int
	require.NoError(t, s.Pool().QueryRow(context.Background(),
		`SELECT count(*) FROM imap_messages WHERE mailbox LIKE $1 AND delivered_at IS NOT NULL`, user+"@%").Scan(&n))
	return n
}

// TestPollerTakesEachMessageOnceAcrossACrash appends 20 messages over IMAP — plain,
// multipart with quoted-printable, HTML-only, ISO-8859-1, Shift_JIS, one with an
// attachment, a reply, an auto-reply — to a real Dovecot mailbox. A poller in a child
// process is killed (SIGKILL) mid-batch; a new poller resumes, and each message has gone
// through the funnel exactly once: one intake run each, no duplicate recorded, every UID
// delivered. A 21st message appended while the poller waits in IDLE is taken at once,
// well before its one-minute poll. Nothing the customers wrote reaches the logs.
func TestPollerTakesEachMessageOnceAcrossACrash(t *testing.T) {
	s, url := testenv.StoreURL(t)
	log := &testenv.LogBuffer{}
	p, user := funnelPoller(t, s, slog.New(slog.NewTextHandler(log, nil)))
	run := testenv.Unique("m")
	ctx := context.Background()

	fx := fixtures(t, run, "plain.eml", "multipart_qp.eml", "html_only.eml", "latin1.eml", "shift_jis.eml",
		"attachment.eml", "reply.eml", "autoreply.eml")
	batch := [][]byte{fx["plain.eml"], fx["multipart_qp.eml"], fx["html_only.eml"], fx["latin1.eml"],
		fx["shift_jis.eml"], fx["attachment.eml"], fx["reply.eml"], fx["autoreply.eml"]}
	for i, q := range questions {
		batch = append(batch, plainMail(run, i, q))
	}
	require.Len(t, batch, 20)
	appendMail(t, user, batch...)

	childLog := &testenv.LogBuffer{}
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), envChildURL+"="+url, envChildUser+"="+user, envChildQueue+"="+p.Target.TaskQueue)
	child.Stderr = childLog
	require.NoError(t, child.Start())
	t.Cleanup(func() { _ = child.Process.Kill(); _ = child.Wait() })
	require.Eventually(t, func() bool { return countDelivered(t, s, user) >= 3 }, time.Minute, 5*time.Millisecond,
		"the first poller takes messages; log:\n%s", childLog)
	require.NoError(t, child.Process.Kill())
	_ = child.Wait()
	killedAt := countDelivered(t, s, user)
	require.Less(t, killedAt, 20, "the poller was killed mid-batch")
	var inFlight int
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT count(*) FROM imap_messages WHERE mailbox LIKE $1 AND delivered_at IS NULL`, user+"@%").Scan(&inFlight))
	t.Logf("poller killed after %d of 20 messages delivered, %d claimed and in flight", killedAt, inFlight)

	pctx, stop := context.WithCancel(ctx)
	var runErr error
	done := make(chan struct{})
	go func() { runErr = p.Run(pctx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	require.Eventually(t, func() bool { return countDelivered(t, s, user) == 20 }, 2*time.Minute, 20*time.Millisecond,
		"the restarted poller resumes; log:\n%s", log)

	late := plainMail(run, 99, "One more: can I get a receipt for the refund?")
	appendMail(t, user, late)
	require.Eventually(t, func() bool { return countDelivered(t, s, user) == 21 }, 15*time.Second, 20*time.Millisecond,
		"IDLE wakes the poller for new mail long before its one-minute poll")
	stop()
	<-done
	require.NoError(t, runErr)

	rows, err := s.Pool().Query(ctx, `SELECT uid, message_id, refused FROM imap_messages WHERE mailbox = $1 ORDER BY uid`, p.Name())
	require.NoError(t, err)
	ids := map[string]bool{}
	var uids []int64
	for rows.Next() {
		var uid int64
		var id, refused string
		require.NoError(t, rows.Scan(&uid, &id, &refused))
		assert.Empty(t, refused)
		ids[id] = true
		uids = append(uids, uid)
	}
	require.NoError(t, rows.Err())
	require.Len(t, uids, 21)
	assert.Len(t, ids, 21, "one message ID per UID")
	for id := range ids {
		events, err := s.FunnelEvents(ctx, id)
		require.NoError(t, err)
		steps := map[string]int{}
		for _, e := range events {
			steps[e.Step]++
		}
		assert.Equal(t, 1, steps[inbox.StepKillSwitch], "message %s ran through the funnel once: %v", id, events)
		assert.Zero(t, steps[inbox.StepDuplicate], "message %s was not read twice", id)
	}

	auto, err := s.FunnelEvents(ctx, "<"+run+"-auto-1@customer.example>")
	require.NoError(t, err)
	assert.Equal(t, inbox.StepFilters+"/"+inbox.OutcomeSkip, auto[len(auto)-1].Step+"/"+auto[len(auto)-1].Outcome, "the auto-reply stops at the filters")

	for id, want := range map[string]string{
		"<" + run + "-sjis-1@kokyaku.example>":  "年間プランの返金をお願いします。",
		"<" + run + "-latin1-1@client.example>": "j'ai été débité deux fois",
		"<" + run + "-html-1@customer.example>": "Our invoice is missing the VAT number & the company address.",
		"<" + run + "-mp-1@kunde.example>":      "können wir die jährliche Gebühr zurückbekommen?",
		"<" + run + "-att-1@customer.example>":  "[Attachments, not read: invoice-2026-12.pdf (application/pdf)]",
	} {
		m, err := s.Message(ctx, id)
		require.NoError(t, err)
		assert.Contains(t, m.Body, want, id)
	}
	first, err := s.Message(ctx, "<"+run+"-plain-1@customer.example>")
	require.NoError(t, err)
	reply, err := s.Message(ctx, "<"+run+"-plain-3@customer.example>")
	require.NoError(t, err)
	assert.Equal(t, first.ThreadID, reply.ThreadID, "the reply joins its thread")
	assert.Equal(t, 1, reply.Thread.EarlierMessages)
	var revisions int
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT count(*) FROM inbox_revisions WHERE ticket_id = $1`, first.ThreadID).Scan(&revisions))
	assert.Equal(t, 2, revisions, "both customer messages of the thread became revisions of its ticket")

	for _, words := range []string{"renewed five days ago", "返金", "débité", "VAT number", "out of the office", "receipt for the refund"} {
		assert.NotContains(t, childLog.String()+log.String(), words, "customer text in a poller's log")
	}
}

// TestPollerResumesAClaimedMessage is the crash the test above may or may not hit: the
// poller claimed a UID and its message went through the funnel, but the poller died before
// marking it delivered. The next poller resumes it without a second intake run and without
// recording a duplicate, then takes the rest.
func TestPollerResumesAClaimedMessage(t *testing.T) {
	s := testenv.Store(t)
	p, user := funnelPoller(t, s, slog.New(slog.DiscardHandler))
	run := testenv.Unique("r")
	ctx := context.Background()
	appendMail(t, user, plainMail(run, 1, questions[0]), plainMail(run, 2, questions[1]))

	im := signIn(t, user)
	status, err := im.Select("INBOX", true)
	require.NoError(t, err)
	_ = im.Logout()
	first := store.MailboxUID{Mailbox: p.Name(), Validity: status.UidValidity, UID: 1}
	id := fmt.Sprintf("<%s-q1@customer.example>", run)
	fresh, err := s.ClaimUID(ctx, first, id, "")
	require.NoError(t, err)
	require.True(t, fresh)
	raw := plainMail(run, 1, questions[0])
	m, err := email.Parse(raw, time.Now())
	require.NoError(t, err)
	res, err := p.Target.DeliverMail(ctx, m)
	require.NoError(t, err)
	require.Equal(t, inbox.DecisionDraft, res.Decision.Decision)

	n, err := p.Once(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the claimed UID and the new one")
	assert.Equal(t, 2, countDelivered(t, s, user))
	events, err := s.FunnelEvents(ctx, id)
	require.NoError(t, err)
	var steps []string
	for _, e := range events {
		steps = append(steps, e.Step)
	}
	assert.NotContains(t, steps, inbox.StepDuplicate, "the resumed message is not a duplicate of itself")
	assert.Equal(t, 1, countStep(steps, inbox.StepKillSwitch), "one intake run")
	n, err = p.Once(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "nothing is taken twice")
}

// TestPollerStartsAfreshOnANewUIDValidity: a mailbox deleted and created again has a new
// UIDVALIDITY, and its UIDs start over. The poller reads it afresh; a message it took
// before is a duplicate to the funnel (no second draft), a new one goes through.
func TestPollerStartsAfreshOnANewUIDValidity(t *testing.T) {
	s := testenv.Store(t)
	p, user := funnelPoller(t, s, slog.New(slog.DiscardHandler))
	run := testenv.Unique("v")
	ctx := context.Background()
	im := signIn(t, user)
	require.NoError(t, im.Create("Support"))
	old := plainMail(run, 1, questions[2])
	appendTo(t, user, "Support", old)

	p.Mailbox = "Support"
	n, err := p.Once(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)

	require.NoError(t, im.Delete("Support"))
	require.NoError(t, im.Create("Support"))
	_ = im.Logout()
	appendTo(t, user, "Support", old, plainMail(run, 2, questions[3]))
	n, err = p.Once(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the new UIDVALIDITY's messages are read from UID 1")

	var validities int
	require.NoError(t, s.Pool().QueryRow(ctx, `SELECT count(DISTINCT uid_validity) FROM imap_messages WHERE mailbox = $1`, p.Name()).Scan(&validities))
	assert.Equal(t, 2, validities)
	events, err := s.FunnelEvents(ctx, fmt.Sprintf("<%s-q1@customer.example>", run))
	require.NoError(t, err)
	assert.Equal(t, inbox.StepDuplicate, events[len(events)-1].Step, "the message read again is a duplicate to the funnel")
	events, err = s.FunnelEvents(ctx, fmt.Sprintf("<%s-q2@customer.example>", run))
	require.NoError(t, err)
	assert.Equal(t, inbox.StepKillSwitch, events[0].Step, "the new message runs the funnel")
}

func countStep(steps []string, step string) int {
	n := 0
	for _, s := range steps {
		if s == step {
			n++
		}
	}
	return n
}

// TestPollerRefusesWhatCannotWork: a plain-text password to another machine, an unknown
// TLS mode and a wrong password are errors naming the server, before any message is taken.
func TestPollerRefusesWhatCannotWork(t *testing.T) {
	requireIMAP(t)
	p := poller(nil, nil, "imap.company.example:143", "billing", "", slog.New(slog.DiscardHandler))
	_, err := p.Once(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "password in clear")

	p.TLS = "ssl"
	_, err = p.Once(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), `TLS mode "ssl"`)

	p = poller(nil, nil, imapAddr(), testenv.Unique("imap-"), "", slog.New(slog.DiscardHandler))
	p.Password = "wrong"
	err = p.Run(context.Background())
	require.Error(t, err, "a wrong password is returned, not retried forever")
	assert.Contains(t, err.Error(), "sign in to IMAP server "+imapAddr())
}
