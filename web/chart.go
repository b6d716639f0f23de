package web

import (
	"fmt"
	"slices"
	"time"

	"github.com/supportdraft/supportdraft/store"
)

// chart is the abstention rate per policy area per week, laid out for an inline SVG:
// one row of bars per area, one bar per week, the bar's height the rate.
type chart struct {
	Width, Height int
	Weeks         []weekLabel
	Rows          []chartRow
}

type weekLabel struct {
	X     int
	Label string
}

type chartRow struct {
	Area string
	Y    int // top of the row
	Bars []bar
}

type bar struct {
	X, Y, W, H int
	Title      string // "refunds, week of 2026-11-23: 3 of 12 abstained (25%)"
	Label      string // "25%", under the bar
	LabelY     int
	Empty      bool // no drafts that week
}

const (
	chartLabelW = 120 // room for the area names
	chartBarW   = 30
	chartGap    = 6
	chartRowH   = 50
	chartBarMax = 34 // height of a 100% bar
	chartTop    = 20 // room for the week labels
)

// abstentionChart lays out the weeks from since to now for every area that had drafts.
func abstentionChart(rows []store.AreaWeek, since, now time.Time) chart {
	var weeks []time.Time
	for w := monday(since); !w.After(now); w = w.AddDate(0, 0, 7) {
		weeks = append(weeks, w)
	}
	var areas []string
	counts := map[string]map[time.Time]store.AreaWeek{}
	for _, r := range rows {
		if counts[r.Area] == nil {
			counts[r.Area] = map[time.Time]store.AreaWeek{}
			areas = append(areas, r.Area)
		}
		counts[r.Area][monday(r.Week)] = r
	}
	slices.Sort(areas)
	c := chart{Width: chartLabelW + len(weeks)*(chartBarW+chartGap), Height: chartTop + len(areas)*chartRowH}
	for i, w := range weeks {
		if i%2 == 0 {
			c.Weeks = append(c.Weeks, weekLabel{X: chartLabelW + i*(chartBarW+chartGap), Label: w.Format("01-02")})
		}
	}
	for j, a := range areas {
		row := chartRow{Area: a, Y: chartTop + j*chartRowH}
		for i, w := range weeks {
			aw := counts[a][w]
			b := bar{X: chartLabelW + i*(chartBarW+chartGap), W: chartBarW}
			base := row.Y + chartBarMax
			if aw.Drafts == 0 {
				b.Empty, b.Y, b.H = true, base-1, 1
				b.Title = fmt.Sprintf("%s, week of %s: no drafts", a, w.Format("2006-01-02"))
			} else {
				rate := float64(aw.Abstained) / float64(aw.Drafts)
				b.H = max(1, int(rate*chartBarMax+0.5))
				b.Y = base - b.H
				b.Title = fmt.Sprintf("%s, week of %s: %d of %d abstained (%.0f%%)", a, w.Format("2006-01-02"), aw.Abstained, aw.Drafts, 100*rate)
				b.Label, b.LabelY = fmt.Sprintf("%.0f%%", 100*rate), base+9
			}
			row.Bars = append(row.Bars, b)
		}
		c.Rows = append(c.Rows, row)
	}
	return c
}

// monday is the start (00:00 UTC) of t's ISO week, as Postgres' date_trunc('week') has it.
func monday(t time.Time) time.Time {
	t = t.UTC()
	d := (int(t.Weekday()) + 6) % 7
	return time.Date(t.Year(), t.Month(), t.Day()-d, 0, 0, 0, 0, time.UTC)
}
