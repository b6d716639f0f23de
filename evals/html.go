package evals

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"strings"

	"github.com/supportdraft/supportdraft/calibration"
)

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":    func(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) },
	"conf":   meanConfidence,
	"join":   func(s []string) string { return strings.Join(s, "; ") },
	"sub":    func(a, b float64) float64 { return a - b },
	"add":    func(a, b float64) float64 { return a + b },
	"mul100": func(v float64) float64 { return 100 * v },
	"mul":    func(a, b float64) float64 { return a * b },
	// rubricMean is a rubric criterion's mean, or "not scored".
	"rubricMean": criterionMean,
}).Parse(reportTemplate))

// Chart geometry, in SVG user units.
const (
	chartWidth  = 300
	chartLabelW = 70  // room for "baseline" left of the bars
	chartBarMax = 170 // length of a bar at 100%
	chartBarH   = 22
	chartTop    = 8
)

// barChart is one metric's chart: a bar for the system and one for the baseline, and a
// marker at the target when the metric has one.
type barChart struct {
	Key, Target string
	Bars        []chartBar
	Height      int
	HasGoal     bool
	GoalX       float64
}

type chartBar struct {
	Label, Value string
	Y, W, TextX  float64
	Class        string // system-ok | system-missed | baseline
}

// charts builds one chart per contract metric. Rates are drawn on a 0–100% scale; counts
// on a scale set by the larger of the two arms, so the pair is comparable at a glance.
func (r *Report) charts() []barChart {
	var out []barChart
	for _, row := range metricRows {
		sys, base := row.get(&r.Metrics), row.get(&r.Baseline)
		scale := 1.0
		if !row.rate && !row.fixed {
			scale = max(sys, base, 1)
		}
		c := barChart{Key: row.key, Target: row.target, Height: chartTop*2 + 2*chartBarH + 8}
		sysClass := "system-ok"
		if row.missed(&r.Metrics) {
			sysClass = "system-missed"
		}
		for i, b := range []struct {
			label, class, value string
			v                   float64
		}{{"system", sysClass, row.format(&r.Metrics), sys}, {"baseline", "baseline", row.format(&r.Baseline), base}} {
			w := chartBarMax * min(b.v/scale, 1)
			c.Bars = append(c.Bars, chartBar{Label: b.label, Value: b.value, Class: b.class,
				Y: float64(chartTop + i*(chartBarH+8)), W: w, TextX: chartLabelW + w + 4})
		}
		if row.target != "" && (row.rate || row.fixed) {
			c.HasGoal, c.GoalX = true, chartLabelW+chartBarMax*row.goal
		}
		out = append(out, c)
	}
	return out
}

// labelChart is the grouped bar chart of the four QA labels, system beside baseline.
type labelChart struct {
	Groups []labelGroup
	Width  int
}

// labelGroup is one label's pair of bars; heights are in SVG units, bars stand on the
// baseline y = labelChartBase.
type labelGroup struct {
	Label      string
	X          float64
	SysN, BasN int
	SysH, BasH float64
}

// labelChartBase is the y of the axis the label bars stand on.
const labelChartBase = 140.0

func (r *Report) labelChart() labelChart {
	const plotH, groupW = 120.0, 90.0
	top := 1
	for _, l := range Labels {
		top = max(top, r.Labels[l], r.Baseline.Labels[l])
	}
	c := labelChart{Width: int(groupW) * len(Labels)}
	for i, l := range Labels {
		c.Groups = append(c.Groups, labelGroup{Label: l, X: float64(i)*groupW + 10,
			SysN: r.Labels[l], BasN: r.Baseline.Labels[l],
			SysH: plotH * float64(r.Labels[l]) / float64(top), BasH: plotH * float64(r.Baseline.Labels[l]) / float64(top)})
	}
	return c
}

// Reliability diagram geometry: a square plot of side relPlot, offset by relPad for the axes.
const (
	relPlot = 240.0
	relPad  = 36.0
)

// reliabilityChart is the reliability diagram: per confidence bin, the share of grounded
// drafts of the system and the baseline, against the diagonal a calibrated score follows.
type reliabilityChart struct {
	Bars          []reliabilityBar
	Size, Pad     float64
	Plot, AxisY   float64
	Ticks         []reliabilityTick
	ECE, BaseECE  float64
	AUROC, BaseAU float64
}

// reliabilityBar is one arm's bar in one bin, in SVG coordinates.
type reliabilityBar struct {
	X, Y, W, H float64
	Class      string
	Title      string
}

type reliabilityTick struct {
	Pos   float64
	Label string
}

func (r *Report) reliabilityChart() reliabilityChart {
	c := reliabilityChart{Size: relPlot + 2*relPad, Pad: relPad, Plot: relPlot, AxisY: relPad + relPlot,
		ECE: r.ExpectedCalibrationError, BaseECE: r.Baseline.ExpectedCalibrationError,
		AUROC: r.ConfidenceAUROC, BaseAU: r.Baseline.ConfidenceAUROC}
	binW := relPlot / calibration.ReliabilityBins
	for i := 0; i <= 4; i++ {
		v := float64(i) / 4
		c.Ticks = append(c.Ticks, reliabilityTick{Pos: relPlot * v, Label: fmt.Sprintf("%.2g", v)})
	}
	for arm, bins := range [][]ReliabilityBin{r.Reliability, r.Baseline.Reliability} {
		class, name := "system-ok", "system"
		if arm == 1 {
			class, name = "baseline", "baseline"
		}
		for i, b := range bins {
			if b.N == 0 {
				continue
			}
			h := relPlot * b.GroundedShare
			c.Bars = append(c.Bars, reliabilityBar{X: relPad + float64(i)*binW + float64(arm)*binW/2 + 1,
				Y: relPad + relPlot - h, W: binW/2 - 2, H: h, Class: class,
				Title: fmt.Sprintf("%s, confidence %.1f–%.1f: %d drafts, mean confidence %.2f, %.0f%% grounded",
					name, b.Lo, b.Hi, b.N, b.MeanConfidence, 100*b.GroundedShare)})
		}
	}
	return c
}

// Rows in the example tables; the JSON has every case.
const (
	maxSystemRows   = 120
	maxBaselineRows = 40
)

// systemCasesToRead lists the system drafts a reader should look at, worst first:
// unsupported and failed drafts, abstentions on answerable tickets, then incomplete ones.
func (r *Report) systemCasesToRead() []Case {
	rank := func(c Case) int {
		switch {
		case c.Label == LabelUnsupported || c.Failed():
			return 0
		case c.Label == LabelAbstained && c.Useful != nil && !*c.Useful:
			return 1
		case c.Label == LabelIncomplete:
			return 2
		}
		return -1 // grounded or a useful abstention: nothing to read
	}
	var out []Case
	for level := 0; level <= 2; level++ {
		for _, c := range r.Cases {
			if rank(c) == level && len(out) < maxSystemRows {
				out = append(out, c)
			}
		}
	}
	return out
}

// baselineCasesToRead shows what similarity-only retrieval would have put in front of an
// agent: its unsupported drafts.
func (r *Report) baselineCasesToRead() []Case {
	var out []Case
	for _, c := range r.Baseline.Cases {
		if c.Label == LabelUnsupported && len(out) < maxBaselineRows {
			out = append(out, c)
		}
	}
	return out
}

// WriteHTML writes the self-contained HTML report to path.
func (r *Report) WriteHTML(path string) error {
	var buf bytes.Buffer
	data := map[string]any{
		"R": r, "Charts": r.charts(), "LabelChart": r.labelChart(), "Labels": Labels, "Reliability": r.reliabilityChart(),
		"SystemCases": r.systemCasesToRead(), "BaselineCases": r.baselineCasesToRead(),
		"MaxSystem": maxSystemRows, "MaxBaseline": maxBaselineRows,
		"ChartWidth": chartWidth, "LabelW": chartLabelW, "BarH": chartBarH, "AxisY": labelChartBase,
	}
	if err := htmlTemplate.Execute(&buf, data); err != nil {
		return fmt.Errorf("render HTML report: %w", err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write HTML report: %w", err)
	}
	return nil
}
