package cli

import (
	"strings"
	"testing"
)

// Without a server and a user, `intake imap` is a usage error naming the variables, before
// it connects to anything.
func TestIntakeIMAPNeedsAServerAndAUser(t *testing.T) {
	t.Setenv("SUPPORTDRAFT_IMAP_ADDR", "")
	t.Setenv("SUPPORTDRAFT_IMAP_USER", "")
	_, err, code := run(t, newIntakeIMAPCmd(), "--once")
	if code != 2 || err == nil || !strings.Contains(err.Error(), "SUPPORTDRAFT_IMAP_ADDR") || !strings.Contains(err.Error(), "SUPPORTDRAFT_IMAP_USER") {
		t.Fatalf("exit %d, error %v", code, err)
	}
}
