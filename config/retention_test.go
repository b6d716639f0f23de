package config

import (
	"testing"
	"time"
)

func TestRetentionTakesDaysOrDurations(t *testing.T) {
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"90d", 90 * 24 * time.Hour, true},
		{"2160h", 90 * 24 * time.Hour, true},
		{"7d", 7 * 24 * time.Hour, true},
		{"6d", 0, false},
		{"90", 0, false},
		{"d", 0, false},
		{"-90d", 0, false},
	}
	for _, tc := range cases {
		got, err := ParseRetention(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseRetention(%q) = %v, %v; want %v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
	t.Setenv("SUPPORTDRAFT_RETENTION", "")
	if c, err := FromEnv(); err != nil || c.Retention != DefaultRetention {
		t.Errorf("default retention: %v, %v", c.Retention, err)
	}
}
