package evals

// reportTemplate is the HTML report: one file, inline CSS and inline SVG, no scripts and
// nothing fetched, so it can be attached to a CI run or mailed to QA and opens anywhere.
// It lives in a Go string rather than an embedded file so the package is its Go files.
const reportTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>supportdraft eval — {{.R.Tickets}} tickets</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1100px; color: #1d2330; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; } h2 { font-size: 1.15rem; margin-top: 2.2rem; border-bottom: 1px solid #dde; padding-bottom: .3rem; }
.meta { color: #5a6275; } .meta code { background: #f2f3f7; padding: 0 .25rem; border-radius: 3px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 1rem; }
.card { border: 1px solid #e1e4ec; border-radius: 6px; padding: .6rem .8rem; }
.card h3 { font-size: .95rem; margin: 0 0 .2rem; font-family: ui-monospace, monospace; }
.card .target { color: #5a6275; font-size: .85rem; }
svg text { font: 12px system-ui, sans-serif; fill: #1d2330; }
.system-ok { fill: #2f7d4f; } .system-missed { fill: #c0392b; } .baseline { fill: #8a94a8; }
.goal { stroke: #1d2330; stroke-dasharray: 3 2; stroke-width: 1.5; }
table { border-collapse: collapse; width: 100%; margin-top: .5rem; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #eceef3; vertical-align: top; }
th { background: #f6f7fa; font-weight: 600; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.label-grounded { color: #2f7d4f; } .label-unsupported { color: #c0392b; font-weight: 600; } .label-incomplete { color: #a66a00; } .label-abstained { color: #3d5a99; }
.small { font-size: .85rem; color: #5a6275; }
</style>
</head>
<body>
<h1>supportdraft eval</h1>
<p class="meta">Corpus <code>{{.R.Run.Corpus}}</code> ({{.R.Run.Versions}} versions), tickets <code>{{.R.Run.Tickets}}</code>:
{{.R.Tickets}} replayed, {{.R.SkippedLines}} lines skipped, {{len .R.Run.Failures}} drafts failed.
Drafter <code>{{.R.Run.Drafter}}</code>, judge <code>{{.R.Run.Judge}}</code>, embedder <code>{{.R.Run.Embedder}}</code>.
Started {{.R.Run.StartedAt.Format "2006-01-02 15:04 UTC"}}, wall time {{printf "%.1f" .R.ElapsedS}} s.</p>
<p class="meta"><b>System</b>: retrieval filtered to the versions eligible at the ticket's updated_at for its plan and region.
<b>Baseline</b>: similarity-only retrieval, no metadata filters. Both run the same workflow, drafter, judge and guard;
every figure is judged by the eval against the corpus at each ticket's instant, not by the drafts' own checks.
Green: the system meets the target; red: it misses it; the dashed line marks the target.</p>

<h2>Metrics: system vs baseline</h2>
<div class="grid">
{{range .Charts}}<div class="card">
<h3>{{.Key}}</h3>{{if .Target}}<div class="target">target {{.Target}}</div>{{end}}
<svg width="{{$.ChartWidth}}" height="{{.Height}}" viewBox="0 0 {{$.ChartWidth}} {{.Height}}" role="img" aria-label="{{.Key}}: system {{(index .Bars 0).Value}}, baseline {{(index .Bars 1).Value}}">
{{range .Bars}}<text x="0" y="{{add .Y 15}}">{{.Label}}</text>
<rect class="{{.Class}}" x="{{$.LabelW}}" y="{{.Y}}" width="{{printf "%.1f" .W}}" height="{{$.BarH}}" rx="2"></rect>
<text x="{{printf "%.1f" .TextX}}" y="{{add .Y 15}}">{{.Value}}</text>
{{end}}{{if .HasGoal}}<line class="goal" x1="{{printf "%.1f" .GoalX}}" x2="{{printf "%.1f" .GoalX}}" y1="2" y2="{{.Height}}"></line>{{end}}
</svg>
</div>
{{end}}</div>

<h2>QA labels</h2>
<svg width="{{.LabelChart.Width}}" height="175" viewBox="0 0 {{.LabelChart.Width}} 175" role="img" aria-label="QA labels, system vs baseline">
{{range .LabelChart.Groups}}<rect class="system-ok" x="{{.X}}" y="{{sub $.AxisY .SysH}}" width="30" height="{{.SysH}}"></rect>
<text x="{{.X}}" y="{{sub (sub $.AxisY .SysH) 3}}">{{.SysN}}</text>
<rect class="baseline" x="{{add .X 32}}" y="{{sub $.AxisY .BasH}}" width="30" height="{{.BasH}}"></rect>
<text x="{{add .X 32}}" y="{{sub (sub $.AxisY .BasH) 3}}">{{.BasN}}</text>
<text x="{{.X}}" y="{{add $.AxisY 16}}">{{.Label}}</text>
{{end}}</svg>
<p class="small">Green: system; grey: baseline.</p>
<table>
<tr><th>label</th><th class="num">system</th><th class="num">baseline</th><th class="num">mean confidence (system)</th><th class="num">mean confidence (baseline)</th></tr>
{{range .Labels}}<tr><td class="label-{{.}}">{{.}}</td><td class="num">{{index $.R.Labels .}}</td><td class="num">{{index $.R.Baseline.Labels .}}</td>
<td class="num">{{conf $.R.ConfidenceByLabel .}}</td><td class="num">{{conf $.R.Baseline.ConfidenceByLabel .}}</td></tr>
{{end}}</table>
<p class="small">Useful abstentions: system {{.R.Counts.UsefulAbstentions}} of {{.R.Counts.LabelledAbstentions}},
baseline {{.R.Baseline.Counts.UsefulAbstentions}} of {{.R.Baseline.Counts.LabelledAbstentions}}.
A calibrated confidence is high for grounded drafts and low for the others.
Material sentences: system {{.R.Counts.UnsupportedSentences}} unsupported of {{.R.Counts.MaterialSentences}},
baseline {{.R.Baseline.Counts.UnsupportedSentences}} of {{.R.Baseline.Counts.MaterialSentences}}.</p>

<h2>Calibration: does confidence say which drafts are grounded?</h2>
{{with .Reliability}}<svg width="{{.Size}}" height="{{.Size}}" viewBox="0 0 {{.Size}} {{.Size}}" role="img" aria-label="reliability diagram: AUROC system {{printf "%.2f" .AUROC}}, baseline {{printf "%.2f" .BaseAU}}">
<rect x="{{.Pad}}" y="{{.Pad}}" width="{{.Plot}}" height="{{.Plot}}" fill="#f6f7fa"></rect>
{{range .Bars}}<rect class="{{.Class}}" x="{{printf "%.1f" .X}}" y="{{printf "%.1f" .Y}}" width="{{printf "%.1f" .W}}" height="{{printf "%.1f" .H}}"><title>{{.Title}}</title></rect>
{{end}}<line class="goal" x1="{{.Pad}}" y1="{{.AxisY}}" x2="{{add .Pad .Plot}}" y2="{{.Pad}}"></line>
{{range .Ticks}}<text x="{{add $.Reliability.Pad .Pos}}" y="{{add $.Reliability.AxisY 14}}" text-anchor="middle">{{.Label}}</text>
<text x="{{sub $.Reliability.Pad 4}}" y="{{sub $.Reliability.AxisY .Pos}}" text-anchor="end">{{.Label}}</text>
{{end}}<text x="{{add .Pad (mul .Plot 0.5)}}" y="{{sub .Size 4}}" text-anchor="middle">confidence</text>
<text x="10" y="{{sub .Pad 10}}">share grounded</text>
</svg>
<p class="small">Per confidence bin of 0.1, the share of drafts the eval labels grounded (green: system, grey: baseline; hover for counts).
A calibrated confidence follows the dashed diagonal. Expected calibration error: system {{printf "%.3f" .ECE}}, baseline {{printf "%.3f" .BaseECE}};
AUROC of confidence for grounded vs the rest: system {{printf "%.2f" .AUROC}}, baseline {{printf "%.2f" .BaseAU}}.</p>{{end}}
<p class="small">Abstention recall (unanswerable tickets that abstained): system {{pct .R.AbstentionRecall}} ({{.R.UnanswerableAbstained}} of {{.R.Unanswerable}}),
baseline {{pct .R.Baseline.AbstentionRecall}}. False abstentions (answerable tickets that abstained): system {{pct .R.FalseAbstentionRate}} ({{.R.AnswerableAbstained}} of {{.R.Answerable}}),
baseline {{pct .R.Baseline.FalseAbstentionRate}}.</p>
<table>
<tr><th class="num">forced review below</th><th class="num">drafts forced</th><th class="num">not-grounded caught</th><th class="num">grounded held back</th></tr>
{{range .R.Thresholds}}<tr><td class="num">{{printf "%.2f" .Threshold}}</td><td class="num">{{pct .Forced}}</td><td class="num">{{pct .Caught}}</td><td class="num">{{pct .GroundedForced}}</td></tr>
{{end}}</table>

<h2>Draft quality (rubric)</h2>
<table>
<tr><th>criterion</th><th class="num">system mean</th><th class="num">below 1</th><th class="num">not scored</th><th class="num">baseline mean</th><th class="num">below 1</th><th class="num">not scored</th></tr>
{{range $i, $c := .R.Rubric}}{{$b := index $.R.Baseline.Rubric $i}}<tr><td>{{$c.Criterion}}</td><td class="num">{{rubricMean $c}}</td><td class="num">{{$c.Flagged}}</td><td class="num">{{$c.NotScored}}</td>
<td class="num">{{rubricMean $b}}</td><td class="num">{{$b.Flagged}}</td><td class="num">{{$b.NotScored}}</td></tr>
{{end}}</table>
<p class="small">Each criterion's mean over the drafts it scored, 0 to 1; a criterion nothing scored (human-sounding without a judge model) is counted apart, never as a number.</p>

<h2>Abstention by policy area (system)</h2>
<table>
<tr><th>area</th><th class="num">tickets</th><th class="num">answerable</th><th class="num">abstained</th><th>abstention rate</th><th class="num">useful</th></tr>
{{range .R.PerArea}}<tr><td>{{.Area}}</td><td class="num">{{.Tickets}}</td><td class="num">{{.Answerable}}</td><td class="num">{{.Abstained}}</td>
<td><svg width="160" height="14" viewBox="0 0 160 14"><rect x="0" y="2" width="100" height="10" fill="#eceef3"></rect><rect class="baseline" x="0" y="2" width="{{printf "%.1f" (mul100 .AbstentionRate)}}" height="10"></rect><text x="106" y="12">{{pct .AbstentionRate}}</text></svg></td>
<td class="num">{{.UsefulAbstentions}}</td></tr>
{{end}}</table>

{{with .R.Reviews}}<h2>Agreement with the QA reviewer</h2>
<p>{{.Reviewed}} reviews, {{.Compared}} compared: agreement {{pct .Rate}}, Cohen's kappa {{printf "%.2f" .Kappa}}.</p>
<table>
<tr><th>label</th><th class="num">reviewer</th><th class="num">eval</th><th class="num">both</th><th class="num">agreement</th><th class="num">precision</th></tr>
{{range $l := $.Labels}}{{with index $.R.Reviews.PerLabel $l}}<tr><td class="label-{{$l}}">{{$l}}</td><td class="num">{{.Reviewer}}</td><td class="num">{{.Automatic}}</td><td class="num">{{.Both}}</td><td class="num">{{pct .Agreement}}</td><td class="num">{{pct .Precision}}</td></tr>{{end}}
{{end}}</table>
{{if .Disagreements}}<table><tr><th>ticket</th><th>reviewer</th><th>eval</th><th>note</th></tr>
{{range .Disagreements}}<tr><td>{{.TicketID}}</td><td>{{.Reviewer}}</td><td>{{.Automatic}}</td><td>{{.Note}}</td></tr>
{{end}}</table>{{end}}
{{end}}

<h2>System drafts to look at</h2>
<p class="small">Unsupported and failed drafts first, then abstentions on answerable tickets, then incomplete drafts; at most {{.MaxSystem}} rows. The JSON report has every case with its evidence.</p>
{{template "cases" .SystemCases}}
<h2>What the baseline would have sent</h2>
<p class="small">Unsupported drafts of the similarity-only baseline; at most {{.MaxBaseline}} rows.</p>
{{template "cases" .BaselineCases}}
</body>
</html>
{{define "cases"}}<table>
<tr><th>ticket</th><th>area</th><th>label</th><th class="num">conf.</th><th>finding</th></tr>
{{range .}}<tr><td>{{.TicketID}}</td><td>{{.Area}}</td><td class="label-{{.Label}}">{{if .Label}}{{.Label}}{{else}}failed{{end}}</td><td class="num">{{printf "%.2f" .Confidence}}</td>
<td>{{if .Error}}error: {{.Error}}<br>{{end}}{{if .StaleCited}}stale source: {{join .StaleCited}}<br>{{end}}{{if .UnsupportedSentences}}unsupported: “{{join .UnsupportedSentences}}”<br>{{end}}{{if .Violations}}states forbidden: {{join .Violations}}<br>{{end}}{{if and .Unanswerable (ne .Label "abstained")}}answered, but no eligible policy covers this ticket<br>{{end}}{{if .MissingFacts}}missing: {{join .MissingFacts}}<br>{{end}}{{if .Cited}}cites {{join .Cited}}{{end}}</td></tr>
{{else}}<tr><td colspan="5">none</td></tr>
{{end}}</table>{{end}}
`
