package zendesk_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/supportdraft/supportdraft/helpdesk"
	"github.com/supportdraft/supportdraft/integrations/zendesk"
	"github.com/supportdraft/supportdraft/integrations/zendesk/zendesktest"
	"github.com/supportdraft/supportdraft/ticket"
)

// The signature scheme of Zendesk's "Verifying webhook authenticity" page:
// base64(HMAC-SHA256(secret, timestamp + body)), the timestamp an RFC 3339 time.
func TestVerifySignature(t *testing.T) {
	t.Parallel()
	secret := []byte("dGhpcyBzaWduaW5nIHNlY3JldCBpcyBzaG9ydA")
	body := []byte(`{"type":"zen:event-type:ticket.created","detail":{"id":"35436"}}`)
	now := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)
	ts := now.Add(-30 * time.Second).Format(time.RFC3339)
	old := now.Add(-6 * time.Minute).Format(time.RFC3339)
	unix, oldUnix := fmt.Sprint(now.Unix()), fmt.Sprint(now.Add(-6*time.Minute).Unix())
	for _, tc := range []struct {
		name, sig, ts string
		body          []byte
		want          error
	}{
		{"good", zendesk.Sign(secret, ts, body), ts, body, nil},
		{"good, Unix seconds", zendesk.Sign(secret, unix, body), unix, body, nil},
		{"stale, Unix seconds", zendesk.Sign(secret, oldUnix, body), oldUnix, body, zendesk.ErrSignatureStale},
		{"forged with another secret", zendesk.Sign([]byte("another secret entirely"), ts, body), ts, body, zendesk.ErrSignatureBad},
		{"body changed", zendesk.Sign(secret, ts, body), ts, append(body, ' '), zendesk.ErrSignatureBad},
		{"timestamp changed", zendesk.Sign(secret, ts, body), now.Format(time.RFC3339), body, zendesk.ErrSignatureBad},
		{"hex instead of base64", "6d1f00", ts, body, zendesk.ErrSignatureBad},
		{"stale", zendesk.Sign(secret, old, body), old, body, zendesk.ErrSignatureStale},
		{"no signature", "", ts, body, zendesk.ErrSignatureMissing},
		{"no timestamp", zendesk.Sign(secret, ts, body), "", body, zendesk.ErrSignatureMissing},
		{"timestamp not a time", zendesk.Sign(secret, "yesterday", body), "yesterday", body, zendesk.ErrSignatureBad},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := zendesk.VerifySignature(secret, tc.body, tc.sig, tc.ts, now); !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("VerifySignature = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestParseEvent(t *testing.T) {
	t.Parallel()
	created, err := zendesk.ParseEvent(zendesktest.Fixture(t, "event_ticket_created.json"))
	if err != nil || !created.Drafts() {
		t.Fatalf("ticket.created: %+v, %v", created, err)
	}
	if n, err := created.TicketNumber(); n != 35436 || err != nil {
		t.Fatalf("TicketNumber = %d, %v", n, err)
	}
	added, err := zendesk.ParseEvent(zendesktest.Fixture(t, "event_comment_added.json"))
	if err != nil || !added.Drafts() || added.Type != zendesk.EventCommentAdded {
		t.Fatalf("comment_added: %+v, %v", added, err)
	}
	other, err := zendesk.ParseEvent([]byte(`{"type":"zen:event-type:ticket.priority_changed","detail":{"id":"1"}}`))
	if err != nil || other.Drafts() {
		t.Fatalf("priority_changed should parse and not draft: %+v, %v", other, err)
	}
	bySubject, _ := zendesk.ParseEvent([]byte(`{"type":"zen:event-type:ticket.created","subject":"zen:ticket:77"}`))
	if n, err := bySubject.TicketNumber(); n != 77 || err != nil {
		t.Fatalf("TicketNumber from subject = %d, %v", n, err)
	}
	for body, want := range map[string]string{
		`{"type":`:              "invalid JSON",
		`{"detail":{"id":"1"}}`: `"type"`,
		`{"type":7}`:            `"type"`,
	} {
		if _, err := zendesk.ParseEvent([]byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseEvent(%s) error = %v; want one naming %s", body, err, want)
		}
	}
	noID, _ := zendesk.ParseEvent([]byte(`{"type":"zen:event-type:ticket.created","detail":{"id":"abc"}}`))
	if _, err := noID.TicketNumber(); err == nil || !strings.Contains(err.Error(), `"detail.id"`) {
		t.Errorf("TicketNumber of a non-number = %v", err)
	}
}

func thread(t *testing.T) *zendesk.Thread {
	t.Helper()
	var tr struct{ Ticket zendesk.APITicket }
	var cs struct {
		Comments []zendesk.Comment
		Users    []zendesk.User
	}
	if err := json.Unmarshal(zendesktest.Fixture(t, "ticket.json"), &tr); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(zendesktest.Fixture(t, "comments.json"), &cs); err != nil {
		t.Fatal(err)
	}
	th := &zendesk.Thread{Ticket: tr.Ticket, Comments: cs.Comments, Users: map[int64]zendesk.User{}}
	for _, u := range cs.Users {
		th.Users[u.ID] = u
	}
	return th
}

var fields = zendesk.Fields{Plan: 360001, Region: 360002}

// The documented ticket and comments map to a valid ticket revision: public comments only
// (the internal note is not the conversation), authors by role, plan and region from the
// configured custom fields, the organization as the account.
func TestMap(t *testing.T) {
	t.Parallel()
	got, err := zendesk.Map(thread(t), fields)
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Validate(); err != nil {
		t.Fatalf("mapped ticket is not valid: %v", err)
	}
	at := time.Date(2026, 4, 2, 10, 5, 0, 0, time.UTC)
	want := ticket.Ticket{TicketID: "zendesk-35436", Revision: 2, UpdatedAt: at, Channel: "email", Subject: "Refund for my annual plan",
		Account: ticket.Account{ID: "zendesk-org-509974", Plan: "pro", Region: "eu", Locale: "en", Name: "Ana Lopez"},
		Messages: []ticket.Message{
			{Author: "customer", At: time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC), Body: "Our annual Pro plan renewed five days ago. Can we still get a refund of the annual charge?"},
			{Author: "customer", At: at, Body: "It is the annual plan, billed on 28 March."},
		}}
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if !bytes.Equal(gj, wj) {
		t.Fatalf("Map =\n%s\nwant\n%s", gj, wj)
	}

	// An agent's public reply is an agent message and a new revision.
	th := thread(t)
	th.Comments = append(th.Comments, zendesk.Comment{ID: 1280, AuthorID: 235323, PlainBody: "Thanks, checking.", Public: true, CreatedAt: at.Add(time.Hour)})
	next, err := zendesk.Map(th, fields)
	if err != nil || next.Revision != 3 || next.Messages[2].Author != "agent" {
		t.Fatalf("after an agent reply: %+v, %v", next, err)
	}
	if !zendesk.AwaitsReply(got) || zendesk.AwaitsReply(next) {
		t.Fatal("AwaitsReply: a customer's last comment awaits a reply, an agent's does not")
	}
	// An internal note (supportdraft's own write-back) changes nothing.
	th = thread(t)
	th.Comments = append(th.Comments, zendesk.Comment{ID: 1281, AuthorID: 235323, PlainBody: "supportdraft: approved draft", CreatedAt: at.Add(time.Hour)})
	same, _ := zendesk.Map(th, fields)
	sj, _ := json.Marshal(same)
	if !bytes.Equal(sj, gj) {
		t.Fatalf("an internal note changed the revision:\n%s", sj)
	}
}

func TestMapRefusesWhatTheContractNeeds(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		change func(*zendesk.Thread, *zendesk.Fields)
		want   string
	}{
		"no plan field configured": {func(_ *zendesk.Thread, f *zendesk.Fields) { f.Plan = 0 }, "SUPPORTDRAFT_ZENDESK_PLAN_FIELD"},
		"region field empty":       {func(th *zendesk.Thread, _ *zendesk.Fields) { th.Ticket.CustomFields[1].Value = nil }, "custom field 360002"},
		"only internal notes": {func(th *zendesk.Thread, _ *zendesk.Fields) {
			for i := range th.Comments {
				th.Comments[i].Public = false
			}
		}, "no public comment"},
	} {
		t.Run(name, func(t *testing.T) {
			th, f := thread(t), fields
			tc.change(th, &f)
			if _, err := zendesk.Map(th, f); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Map error = %v; want one naming %s", err, tc.want)
			}
		})
	}
}

func TestTicketNumber(t *testing.T) {
	t.Parallel()
	if n, ok := zendesk.TicketNumber(zendesk.TicketID(35436)); !ok || n != 35436 {
		t.Fatalf("round trip = %d, %v", n, ok)
	}
	for _, id := range []string{"T-1001", "zendesk-", "zendesk-x1", "zendesk--4"} {
		if _, ok := zendesk.TicketNumber(id); ok {
			t.Errorf("TicketNumber(%q) accepted", id)
		}
	}
}

// The client reads a ticket through the documented endpoints (pages followed) and writes
// an approved draft back as a private comment with PUT /api/v2/tickets/{id}.json.
func TestClientAgainstTheDocumentedAPI(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	zd := zendesktest.New(t)
	zd.PageSize = 2
	c := zendesk.NewClient(zd.URL, zd.Email, zd.Token)

	th, err := c.Thread(ctx, 4242)
	if err != nil {
		t.Fatal(err)
	}
	if th.Ticket.ID != 4242 || len(th.Comments) != 3 || th.Users[20978392].Role != "end-user" {
		t.Fatalf("Thread = %+v", th)
	}
	mapped, err := zendesk.Map(th, fields)
	if err != nil || mapped.TicketID != "zendesk-4242" || mapped.Revision != 2 {
		t.Fatalf("Map(Thread) = %+v, %v", mapped, err)
	}

	d := helpdesk.DraftReply{TicketID: "zendesk-4242", Iteration: 3, Reply: "Annual plans are refundable within 14 days.", ApprovedBy: "rita"}
	if err := c.Deliver(ctx, d); err != nil {
		t.Fatal(err)
	}
	notes := zd.Notes()
	if len(notes) != 1 || notes[0].Ticket != 4242 || notes[0].Public || !strings.Contains(notes[0].Body, d.Reply) || !strings.Contains(notes[0].Body, "rita") {
		t.Fatalf("notes = %+v", notes)
	}

	// A retry finds the note among the comments and adds no second one, also when the
	// first answer was lost after the note was written.
	if err := c.Deliver(ctx, d); err != nil || len(zd.Notes()) != 1 {
		t.Fatalf("retry of a delivered draft: %v, %d notes", err, len(zd.Notes()))
	}
	zd.LoseAnswers = 1
	d4 := d
	d4.Iteration = 4
	if err := c.Deliver(ctx, d4); err == nil || errors.Is(err, helpdesk.ErrRefused) {
		t.Fatalf("a lost answer should be a retryable error, got %v", err)
	}
	if err := c.Deliver(ctx, d4); err != nil || len(zd.Notes()) != 2 {
		t.Fatalf("retry after a lost answer: %v, %d notes", err, len(zd.Notes()))
	}

	// A ticket from elsewhere goes to the next help desk, or is refused without one.
	if err := c.Deliver(ctx, helpdesk.DraftReply{TicketID: "T-1"}); !errors.Is(err, helpdesk.ErrRefused) {
		t.Fatalf("non-Zendesk ticket without Next = %v", err)
	}
	next := &recorder{}
	c.Next = next
	if err := c.Deliver(ctx, helpdesk.DraftReply{TicketID: "T-1"}); err != nil || len(next.got) != 1 {
		t.Fatalf("non-Zendesk ticket with Next = %v, %+v", err, next.got)
	}

	// Refusals are permanent; rate limits and server errors may be retried.
	for status, permanent := range map[int]bool{http.StatusForbidden: true, http.StatusUnprocessableEntity: true,
		http.StatusTooManyRequests: false, http.StatusConflict: false, http.StatusBadGateway: false} {
		zd.UpdateStatus = status
		fresh := d
		fresh.Iteration = 10 + status // not delivered yet: the update is attempted
		err := c.Deliver(ctx, fresh)
		if err == nil || errors.Is(err, helpdesk.ErrRefused) != permanent {
			t.Errorf("HTTP %d: err = %v, permanent want %v", status, err, permanent)
		}
	}
	bad := zendesk.NewClient(zd.URL, zd.Email, "wrong token")
	if _, err := bad.Thread(ctx, 1); !errors.Is(err, helpdesk.ErrRefused) || !strings.Contains(err.Error(), "401") {
		t.Fatalf("wrong API token = %v", err)
	}
}

type recorder struct{ got []helpdesk.DraftReply }

func (r *recorder) Deliver(_ context.Context, d helpdesk.DraftReply) error {
	r.got = append(r.got, d)
	return nil
}

// The package is the zip Zendesk installs: a manifest whose ticket_sidebar points at the
// server with signed URLs on, the translations and both logos at their required sizes.
func TestPackage(t *testing.T) {
	t.Parallel()
	sidebar, err := zendesk.SidebarURL("https://sd.example.com/")
	if err != nil || sidebar != "https://sd.example.com/app/zendesk/sidebar" {
		t.Fatalf("SidebarURL = %q, %v", sidebar, err)
	}
	var b bytes.Buffer
	if err := zendesk.Package(&b, sidebar); err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range z.File {
		r, _ := f.Open()
		files[f.Name], _ = io.ReadAll(r)
	}
	var m struct {
		SignedURLs       bool   `json:"signedUrls"`
		FrameworkVersion string `json:"frameworkVersion"`
		Location         struct {
			Support struct {
				TicketSidebar struct {
					URL string `json:"url"`
				} `json:"ticket_sidebar"`
			} `json:"support"`
		} `json:"location"`
	}
	if err := json.Unmarshal(files["manifest.json"], &m); err != nil {
		t.Fatal(err)
	}
	if !m.SignedURLs || m.FrameworkVersion != "2.0" || m.Location.Support.TicketSidebar.URL != sidebar {
		t.Fatalf("manifest = %+v", m)
	}
	if !json.Valid(files["translations/en.json"]) {
		t.Fatal("translations/en.json missing or not JSON")
	}
	for name, size := range map[string]int{"assets/logo.png": 320, "assets/logo-small.png": 128} {
		img, err := png.Decode(bytes.NewReader(files[name]))
		if err != nil || img.Bounds().Dx() != size || img.Bounds().Dy() != size {
			t.Fatalf("%s: %v", name, err)
		}
	}
	for _, bad := range []string{"http://sd.example.com", "ftp://sd.example.com", "sd.example.com", "https://sd.example.com/?x=1"} {
		if _, err := zendesk.SidebarURL(bad); err == nil {
			t.Errorf("SidebarURL(%q) accepted", bad)
		}
	}
	if _, err := zendesk.SidebarURL("http://127.0.0.1:8080"); err != nil {
		t.Errorf("a loopback http URL is for local trials: %v", err)
	}
}

func TestSidebarCSP(t *testing.T) {
	t.Parallel()
	if got := zendesk.SidebarCSP("", []string{"https://acme.zendesk.com"}); !strings.HasSuffix(got, "frame-ancestors https://acme.zendesk.com") ||
		!strings.Contains(got, "script-src 'self' https://static.zdassets.com;") {
		t.Fatalf("CSP = %s", got)
	}
	if got := zendesk.SidebarCSP("", nil); !strings.HasSuffix(got, "frame-ancestors 'none'") {
		t.Fatalf("CSP with no origins = %s", got)
	}
}
