package auth

import (
	"sync"
	"time"
)

// replayWindow is how long an accepted delivery is remembered: a timestamp may be up to
// SignatureTolerance early or late, so after twice that it is refused as stale anyway.
const replayWindow = 2 * SignatureTolerance

// recentDeliveries remembers the deliveries this process accepted within replayWindow.
// The store's webhook_deliveries table is the shared record (every API replica reads
// it); this copy answers when the store cannot, so a Postgres outage neither lets a
// replay through on this replica nor turns the send hook's fail-open answer into a 503.
// Only verified signatures are added, so its size is bounded by the help desk's own
// traffic over ten minutes, not by what strangers send.
type recentDeliveries struct {
	mu     sync.Mutex
	seen   map[Signed]time.Time
	pruned time.Time // when expired entries were last dropped
}

// add records s at now and reports whether it was new within the window.
func (r *recentDeliveries) add(s Signed, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = map[Signed]time.Time{}
	}
	if at, ok := r.seen[s]; ok && now.Sub(at) < replayWindow {
		return false
	}
	if now.Sub(r.pruned) >= time.Minute {
		for k, at := range r.seen {
			if now.Sub(at) >= replayWindow {
				delete(r.seen, k)
			}
		}
		r.pruned = now
	}
	r.seen[s] = now
	return true
}
