package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/store"
)

// Spool keeps the send-check verdicts the API answered but could not write to send_checks
// (Postgres down or slow): one JSON line each in a local file, fsynced before the hook gets
// its answer, and replayed into the database once it is back. An "unchecked" send is
// therefore always on record somewhere durable.
type Spool struct {
	path string
	mu   sync.Mutex
}

// spooled is one line of the spool file.
type spooled struct {
	TicketID string           `json:"ticket_id"`
	Check    drafts.SendCheck `json:"check"`
	At       time.Time        `json:"at"`
}

// NewSpool keeps the spool in dir/send-checks.jsonl, creating dir (owner-only: verdicts
// name tickets).
func NewSpool(dir string) (*Spool, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("send-check spool %s: %w", dir, err)
	}
	return &Spool{path: filepath.Join(dir, "send-checks.jsonl")}, nil
}

// Add appends one verdict and syncs the file.
func (s *Spool) Add(ticketID string, c drafts.SendCheck, at time.Time) error {
	line, err := json.Marshal(spooled{TicketID: ticketID, Check: c, At: at})
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("open spool %s: %w", s.path, err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("write spool %s: %w", s.path, err)
	}
	return f.Sync()
}

// Replay writes every spooled verdict into send_checks, with the time it was given, and
// keeps those that still fail. It returns how many reached the database.
func (s *Spool) Replay(ctx context.Context, st *store.Store) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	raw, err := os.ReadFile(s.path)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read spool %s: %w", s.path, err)
	}
	var keep bytes.Buffer
	done := 0
	var firstErr error
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		var e spooled
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			continue // a torn last line from a crash mid-write: nothing to replay
		}
		if firstErr == nil {
			firstErr = st.RecordSendCheckAt(ctx, e.TicketID, e.Check, e.At)
			if firstErr == nil {
				done++
				continue
			}
		}
		keep.Write(sc.Bytes())
		keep.WriteByte('\n')
	}
	if err := writeAtomic(s.path, keep.Bytes()); err != nil {
		return done, err
	}
	return done, firstErr
}

// Pending counts the verdicts waiting in the spool.
func (s *Spool) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	raw, err := os.ReadFile(s.path)
	if err != nil {
		return 0
	}
	return bytes.Count(raw, []byte("\n"))
}

// writeAtomic replaces path with data through a synced temporary file and a rename.
func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("rewrite spool %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("rewrite spool %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("rewrite spool %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
