// Package zendesktest is an in-process Zendesk Support API for tests: it answers with the
// documented JSON of testdata/ (see testdata/README.md for the pages) for any ticket
// number, checks the API-token authentication, and records the write-backs it receives
// (which then appear among the ticket's comments, as in Zendesk).
package zendesktest

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

//go:embed testdata/*.json
var fixtures embed.FS

// Fixture returns a file of testdata/ (the documented shapes).
func Fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := fixtures.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	return b
}

// Note is one write-back received: the ticket and the comment of the update.
type Note struct {
	Ticket int64
	Body   string
	Public bool
}

// Server is the fake API. Email and Token are the credentials it accepts.
type Server struct {
	*httptest.Server
	Email, Token string
	// PageSize splits the comments into pages linked by next_page (0: one page).
	PageSize int
	// UpdateStatus answers every ticket update with this status (0: 200 with the documented body).
	UpdateStatus int
	// LoseAnswers drops the connection after writing this many notes, as a lost answer.
	LoseAnswers int
	// ExtraComments are appended to the documented comments (Comment fields' JSON names).
	ExtraComments []map[string]any
	// LastCommentAt, when set, moves the comments' times so that the last documented one is at it:
	// a live draft reads policy in force at the ticket's time.
	LastCommentAt time.Time

	ticket, comments, updated []byte // the fixtures answered

	mu    sync.Mutex
	notes []Note
}

// New starts a fake API, closed when the test ends.
func New(t testing.TB) *Server {
	s := &Server{Email: "api@acme.example", Token: "zd-api-token", ticket: Fixture(t, "ticket.json"),
		comments: Fixture(t, "comments.json"), updated: Fixture(t, "update_ticket_response.json")}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v2/tickets/{file}", s.showTicket)
	mux.HandleFunc("PUT /api/v2/tickets/{file}", s.updateTicket)
	mux.HandleFunc("GET /api/v2/tickets/{id}/comments.json", s.listComments)
	s.Server = httptest.NewServer(s.authenticated(mux))
	t.Cleanup(s.Close)
	return s
}

// Notes returns the write-backs received so far.
func (s *Server) Notes() []Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Note(nil), s.notes...)
}

// authenticated refuses requests without "{email}/token:{token}" basic authentication,
// with the documented 401 body.
func (s *Server) authenticated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		if !ok || user != s.Email+"/token" || pass != s.Token {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"Couldn't authenticate you"}`))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func ticketNumber(w http.ResponseWriter, s string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimSuffix(s, ".json"), 10, 64)
	if err != nil || !strings.HasSuffix(s, ".json") {
		http.Error(w, `{"error":"RecordNotFound","description":"Not found"}`, http.StatusNotFound)
		return 0, false
	}
	return n, true
}

// showTicket answers ticket.json with the asked number as its id.
func (s *Server) showTicket(w http.ResponseWriter, r *http.Request) {
	n, ok := ticketNumber(w, r.PathValue("file"))
	if !ok {
		return
	}
	var doc map[string]map[string]any
	_ = json.Unmarshal(s.ticket, &doc)
	doc["ticket"]["id"] = n
	writeJSON(w, http.StatusOK, doc)
}

// listComments answers comments.json (users side-loaded), in pages of PageSize.
func (s *Server) listComments(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("include") != "users" {
		http.Error(w, `{"error":"expected include=users"}`, http.StatusBadRequest)
		return
	}
	var doc map[string]any
	_ = json.Unmarshal(s.comments, &doc)
	comments := doc["comments"].([]any)
	documented := comments[len(comments)-1].(map[string]any)["created_at"].(string)
	for _, c := range s.ExtraComments {
		comments = append(comments, c)
	}
	n, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	for i, note := range s.Notes() {
		if note.Ticket == n {
			comments = append(comments, map[string]any{"id": 9000 + i, "type": "Comment", "author_id": 235323, "body": note.Body,
				"plain_body": note.Body, "public": note.Public, "created_at": "2026-04-02T10:30:00Z"})
		}
	}
	doc["comments"] = comments
	if !s.LastCommentAt.IsZero() {
		last, _ := time.Parse(time.RFC3339, documented)
		for _, c := range comments {
			c := c.(map[string]any)
			at, _ := time.Parse(time.RFC3339, c["created_at"].(string))
			c["created_at"] = at.Add(s.LastCommentAt.Sub(last)).UTC().Format(time.RFC3339)
		}
	}
	if s.PageSize > 0 {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		from, to := (page-1)*s.PageSize, min(page*s.PageSize, len(comments))
		if to < len(comments) {
			doc["next_page"] = fmt.Sprintf("%s/api/v2/tickets/%s/comments.json?include=users&page=%d", s.URL, r.PathValue("id"), page+1)
		}
		doc["comments"] = comments[min(from, len(comments)):to]
	}
	writeJSON(w, http.StatusOK, doc)
}

// updateTicket reads the documented update body strictly and records its comment.
func (s *Server) updateTicket(w http.ResponseWriter, r *http.Request) {
	n, ok := ticketNumber(w, r.PathValue("file"))
	if !ok {
		return
	}
	if r.Header.Get("Content-Type") != "application/json" {
		http.Error(w, `{"error":"expected application/json"}`, http.StatusUnsupportedMediaType)
		return
	}
	var body struct {
		Ticket struct {
			Comment *struct {
				Body   string `json:"body"`
				Public *bool  `json:"public"`
			} `json:"comment"`
		} `json:"ticket"`
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil || body.Ticket.Comment == nil || body.Ticket.Comment.Public == nil {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"error": "RecordInvalid", "description": "expected ticket.comment with body and public"})
		return
	}
	if s.UpdateStatus != 0 {
		writeJSON(w, s.UpdateStatus, map[string]string{"error": "failed"})
		return
	}
	s.mu.Lock()
	s.notes = append(s.notes, Note{Ticket: n, Body: body.Ticket.Comment.Body, Public: *body.Ticket.Comment.Public})
	s.mu.Unlock()
	if s.LoseAnswers > 0 {
		s.LoseAnswers--
		panic(http.ErrAbortHandler) // the note is written, the answer never arrives
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(bytes.ReplaceAll(s.updated, []byte("35436"), []byte(strconv.FormatInt(n, 10))))
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
