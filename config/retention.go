package config

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// DefaultRetention is how long customer and agent text is kept when SUPPORTDRAFT_RETENTION
// is not set.
const DefaultRetention = 90 * 24 * time.Hour

// minRetention is the shortest retention accepted: Temporal keeps closed workflows at
// least a day, and a draft may stay open for days (SUPPORTDRAFT_DRAFT_IDLE_TIMEOUT), so a
// shorter window would purge the text of drafts still being worked on.
const minRetention = 7 * 24 * time.Hour

// ParseRetention reads a retention: a whole number of days ("90d") or a Go duration
// ("2160h"), at least 7 days.
func ParseRetention(v string) (time.Duration, error) {
	var d time.Duration
	if days, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil {
			return 0, fmt.Errorf("%q: use a whole number of days such as 90d, or a Go duration such as 2160h", v)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(v); err != nil {
			return 0, fmt.Errorf("%q: use a whole number of days such as 90d, or a Go duration such as 2160h", v)
		}
	}
	if d < minRetention {
		return 0, fmt.Errorf("%q is shorter than 7 days: drafts stay open for days, and their text with them", v)
	}
	return d, nil
}

// retentionEnv reads SUPPORTDRAFT_RETENTION.
func retentionEnv() (time.Duration, error) {
	v := os.Getenv("SUPPORTDRAFT_RETENTION")
	if v == "" {
		return DefaultRetention, nil
	}
	d, err := ParseRetention(v)
	if err != nil {
		return 0, fmt.Errorf("SUPPORTDRAFT_RETENTION=%w", err)
	}
	return d, nil
}
