package web

import (
	"math"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/store"
)

// Every verdict colour pair in app.css reaches WCAG AA contrast (4.5:1) for its text.
func TestVerdictColoursContrast(t *testing.T) {
	css, err := assetFS.ReadFile("assets/app.css")
	require.NoError(t, err)
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`--([a-z-]+):\s*(#[0-9a-fA-F]{6})`).FindAllStringSubmatch(string(css), -1) {
		vars[m[1]] = m[2]
	}
	for _, v := range []string{"ok", "stale", "unsupported", "blocked", "unchecked"} {
		fg, bg := vars[v+"-fg"], vars[v+"-bg"]
		require.NotEmpty(t, fg, "--%s-fg", v)
		require.NotEmpty(t, bg, "--%s-bg", v)
		assert.GreaterOrEqual(t, contrast(fg, bg), 4.5, "%s: %s on %s", v, fg, bg)
	}
}

// contrast is the WCAG 2 contrast ratio of two #rrggbb colours.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

func luminance(hex string) float64 {
	var rgb [3]float64
	for i := range rgb {
		n, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(n) / 255
		if c <= 0.03928 {
			rgb[i] = c / 12.92
		} else {
			rgb[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*rgb[0] + 0.7152*rgb[1] + 0.0722*rgb[2]
}

func TestContrastOfKnownPairs(t *testing.T) {
	assert.InDelta(t, 21, contrast("#000000", "#ffffff"), 0.01)
	assert.InDelta(t, 1, contrast("#777777", "#777777"), 0.01)
}

func TestAbstentionChart(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC) // a Wednesday
	since := now.AddDate(0, 0, -14)
	c := abstentionChart([]store.AreaWeek{
		{Area: "refunds", Week: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), Drafts: 4, Abstained: 1},
		{Area: "cancellation", Week: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Drafts: 2, Abstained: 2},
	}, since, now)
	require.Len(t, c.Rows, 2)
	assert.Equal(t, "cancellation", c.Rows[0].Area, "areas in alphabetical order")
	require.Len(t, c.Rows[1].Bars, 3, "weeks of 11-16, 11-23 and 11-30")
	full, quarter := c.Rows[0].Bars[0], c.Rows[1].Bars[2]
	assert.Equal(t, chartBarMax, full.H, "2 of 2 abstained: a full bar")
	assert.Equal(t, 9, quarter.H, "1 of 4: a quarter of 34 px, rounded")
	assert.Equal(t, "refunds, week of 2026-11-30: 1 of 4 abstained (25%)", quarter.Title)
	assert.True(t, c.Rows[1].Bars[0].Empty)
	assert.Equal(t, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), monday(now))
	assert.Equal(t, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), monday(time.Date(2026, 12, 6, 23, 0, 0, 0, time.UTC)), "Sunday belongs to the week before")
}

func TestAttachedClaims(t *testing.T) {
	claims := []drafts.ClaimCheck{
		{Sentence: "A refund within the 14-day window covers 100% of the annual charge."},
		{Sentence: "Refunds go back to the original payment method"},
	}
	assert.Empty(t, attached("Hi,", claims), "a greeting is inside 'within' but is no claim")
	assert.Len(t, attached("A refund within the 14-day window covers 100% of the annual charge", claims), 1)
	assert.Len(t, attached("Refunds go back to the original payment method within 5 to 10 business days.", claims), 1)
}
