package testenv

import (
	"bytes"
	"sync"
)

// LogBuffer is a log sink a server (or poller) and its test share: the server writes from
// its own goroutines while the test reads, so both go through one lock.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything written so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
