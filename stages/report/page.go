package report

import (
	"bytes"
	"context"
	"database/sql"
	"github.com/solbehave/solbehave/internal/views"
	"html/template"
	"sort"

	sqlviews "github.com/solbehave/solbehave/sql"
)

// page is what the template renders.
type page struct {
	Sections []pageSection
	Summary  []summaryItem
	Made     *Made // the run that drew the page; nil when unknown
	Runs     table // run information: the latest runs that made this warehouse
	Models   []ModelLine
}

// ModelLine says which runs wrote one model's rows (an evaluation grows
// model by model), or the release they were imported from.
type ModelLine struct {
	Model, Units, Source string // Units: "" for an imported model (its rows have no units here)
}

// Made is the run that draws the page: it writes its runs row only when it
// ends, after the page, so the page names it itself.
type Made struct {
	RunID, Started, Command, Version string
	// Reference is the extractor whose graphs judge every model in O3's
	// fixed setting, as the run chose it (--reference-extractor or its default).
	Reference string
}

// runsQuery is the run information: the last runs recorded (runs dataset).
const runsQuery = `SELECT run_id, started_at, ended_at, exit_status, command, tool_version, vcs_revision,
	engine, seed, units_ran, units_skipped, units_failed FROM runs ORDER BY started_at DESC, run_id DESC LIMIT 10`

type pageSection struct {
	ID, Title string
	Figures   []drawn
	Tables    []table
}

type summaryItem struct {
	Label string
	Value int64
}

// Shown is the count with thousands separators (847,540).
func (s summaryItem) Shown() string { return groupThousands(s.Value) }

// summaryQueries are the headline counts at the top of the page.
var summaryQueries = []struct{ label, query string }{
	{"contracts", "SELECT count(*) FROM contracts"},
	{"kept in the benchmark", "SELECT count(*) FROM contracts WHERE kept"},
	{"samples", "SELECT count(*) FROM samples"},
	{"replayed calls", "SELECT count(*) FROM replay_calls"},
	{"fuzzed (function, sample) pairs", "SELECT count(*) FROM fuzz_results"},
	{"failed units", "SELECT count(*) FROM errors"},
}

// Render builds the report page from the views of db (it snapshots the
// views it reads more than once into tables of db: give it a db of its own): every figure it can
// draw, every table of the sql/ views, "no data yet" for the rest. The page
// is self-contained: inline CSS and SVG, no script, nothing fetched.
func Render(ctx context.Context, db *sql.DB) ([]byte, error) { return RenderMade(ctx, db, nil) }

// RenderMade is Render for a page drawn by the run made.
func RenderMade(ctx context.Context, db *sql.DB, made *Made) ([]byte, error) {
	return RenderPage(ctx, db, made, nil)
}

// RenderPage is RenderMade with the models' provenance.
func RenderPage(ctx context.Context, db *sql.DB, made *Made, models []ModelLine) ([]byte, error) {
	p, err := build(ctx, db)
	if err != nil {
		return nil, err
	}
	p.Made, p.Models = made, models
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// computedOnce are the views the page reads more than once, directly or
// through others (each interval view runs a bootstrap; paper_claims reads
// them all): build snapshots them into tables first.
var computedOnce = []string{"bootstrap_weights", "contract_outcomes", "paired_outcomes", "rate_intervals",
	"contract_values", "value_intervals", "table4_contracts", "table6_contracts", "table2_compile", "table4_coverage",
	"table5_o1", "table6_oracles", "fig4_replay", "fig4_complementarity", "oracle_agreement", "model_differences",
	"dcr_stats", "o3_reach"}

func build(ctx context.Context, db *sql.DB) (page, error) {
	var p page
	if err := views.Materialize(ctx, db, computedOnce...); err != nil {
		return p, err
	}
	for _, q := range summaryQueries {
		var n int64
		if err := db.QueryRowContext(ctx, q.query).Scan(&n); err != nil {
			if missingObject(err) {
				continue
			}
			return p, err
		}
		p.Summary = append(p.Summary, summaryItem{q.label, n})
	}
	runs, err := queryTable(ctx, db, "runs", runsQuery)
	if err != nil {
		return p, err
	}
	p.Runs = runs
	figs := map[string]figure{}
	for _, f := range figures {
		figs[f.ID] = f
	}
	files := viewFiles()
	shown := map[string]bool{}
	for _, s := range sections {
		ps := pageSection{ID: s.ID, Title: s.Title}
		for _, id := range s.Figures {
			d, err := draw(ctx, db, figs[id])
			if err != nil {
				return p, err
			}
			ps.Figures = append(ps.Figures, d)
		}
		for _, v := range s.Views {
			shown[v] = true
			f, ok := files[v]
			if !ok {
				ps.Tables = append(ps.Tables, table{View: v, NoData: "no data yet (the view is not in this build)"})
				continue
			}
			read := readTable
			if v == "paper_claims" {
				read = func(ctx context.Context, db *sql.DB, _, about string) (table, error) {
					return claimsTable(ctx, db, about)
				}
			}
			t, err := read(ctx, db, v, f.About())
			if err != nil {
				return p, err
			}
			ps.Tables = append(ps.Tables, t)
		}
		p.Sections = append(p.Sections, ps)
	}
	other, err := otherTables(ctx, db, files, shown)
	if err != nil {
		return p, err
	}
	if len(other) > 0 {
		p.Sections = append(p.Sections, pageSection{ID: "other", Title: "Other views", Tables: other})
	}
	return p, nil
}

// otherTables shows the sql/ views no section names, except dataset helpers.
func otherTables(ctx context.Context, db *sql.DB, files map[string]sqlviews.File, shown map[string]bool) ([]table, error) {
	var names []string
	for v, f := range files {
		if !shown[v] && !helper(f) {
			names = append(names, v)
		}
	}
	sort.Strings(names)
	var out []table
	for _, v := range names {
		t, err := readTable(ctx, db, v, files[v].About())
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// SVGHTML marks the figure's SVG, which package svg escapes, as safe HTML.
func (d drawn) SVGHTML() template.HTML { return template.HTML(d.SVG) }

var pageTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>solbehave report</title>
<style>
body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { margin-bottom: 0.2em; }
h2 { border-bottom: 2px solid #4e79a7; padding-bottom: 0.2em; margin-top: 2em; }
nav a { margin-right: 1em; }
.summary { display: flex; flex-wrap: wrap; gap: 1em; margin: 1em 0; }
.summary div { background: #f3f6fa; padding: 0.5em 1em; border-radius: 4px; }
.summary b { display: block; font-size: 1.4em; }
figure { margin: 1.5em 0; }
figure .scroll svg { display: block; }
.downloads { font-size: 0.85em; margin-left: 1em; }
figcaption { font-size: 0.9em; color: #555; max-width: 720px; }
figcaption b { color: #222; }
.nodata { color: #888; font-style: italic; padding: 1em; border: 1px dashed #ccc; max-width: 690px; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ddd; padding: 2px 6px; }
th { background: #f3f6fa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.scroll { overflow-x: auto; max-width: 100%; }
td { white-space: nowrap; max-width: 40em; overflow: hidden; text-overflow: ellipsis; }
table.claims { width: 100%; }
table.claims td { white-space: normal; max-width: none; }
table.claims td.num { white-space: nowrap; }
td.off { background: #fde2e2; }
table.claims .note { color: #777; font-size: 0.9em; }
h3 code { font-size: 0.95em; }
.about { color: #555; font-size: 0.9em; margin: 0; }
</style>
</head>
<body>
<h1>solbehave report</h1>
<p>Does the Solidity a model regenerates behave like the original contract? The tables and figures of the SolBehave evaluation, computed from this run's warehouse.</p>
<div class="summary">{{range .Summary}}<div><b>{{.Shown}}</b>{{.Label}}</div>{{end}}</div>
<nav>{{range .Sections}}<a href="#{{.ID}}">{{.Title}}</a> {{end}}<a href="#runs">Run information</a></nav>
{{range .Sections}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
{{range .Figures}}
<figure data-figure="{{.ID}}">
{{if .SVG}}<div class="scroll">{{.SVGHTML}}</div>{{else}}<div class="nodata">{{.NoData}}</div>{{end}}
<figcaption><b>{{.Title}}.</b> {{.Caption}}{{if .SVG}}<span class="downloads">download: <a download="{{.ID}}.svg" href="{{.SVGURL}}">SVG</a> · <a download="{{.ID}}.pdf" href="{{.PDFURL}}">PDF</a></span>{{end}}</figcaption>
</figure>
{{end}}
{{range .Tables}}
<h3><code>{{.View}}</code></h3>
{{if .About}}<p class="about">{{.About}}</p>{{end}}
{{if .NoData}}<div class="nodata" data-table="{{.View}}">{{.NoData}}</div>{{else}}
<div class="scroll"><table data-table="{{.View}}"{{with .Class}} class="{{.}}"{{end}}>
<tr>{{range .Columns}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td{{with .Classes}} class="{{.}}"{{end}}{{with .Title}} title="{{.}}"{{end}}>{{.Text}}{{with .Note}}<div class="note">{{.}}</div>{{end}}</td>{{end}}</tr>
{{end}}</table></div>
{{if .Truncated}}<p class="about">first {{len .Rows}} of {{.Total}} rows</p>{{end}}
{{end}}
{{end}}
</section>
{{end}}
<section id="runs">
<h2>Run information</h2>
{{with .Made}}<p class="made" data-run="{{.RunID}}">This page was drawn by run <code>{{.RunID}}</code>{{if .Started}}, started {{.Started}}{{end}}{{if .Command}}: <code>{{.Command}}</code>{{end}}{{if .Version}} (solbehave {{.Version}}){{end}}.{{if .Reference}} O3's fixed graphs: reference extractor <code data-param="reference-extractor">{{.Reference}}</code>.{{end}}</p>{{end}}
{{if and .Made .Runs.NoData}}<p class="about" data-table="runs">No earlier run is recorded in this data folder.</p>
{{else}}{{with .Runs}}{{if .NoData}}<div class="nodata" data-table="runs">{{.NoData}}</div>{{else}}
<p class="about">The runs recorded in this data folder before this page was drawn (runs dataset), latest first: the run drawing a page records its row when it ends.</p>
<div class="scroll"><table data-table="runs">
<tr>{{range .Columns}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td{{if .Numeric}} class="num"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</table></div>{{end}}{{end}}{{end}}
{{with .Models}}<p class="about">Each model's rows and the runs that wrote them (runs add models; <code>solbehave forget</code> removes one):</p>
<div class="scroll"><table data-table="model_runs">
<tr><th>model</th><th>units</th><th>written by</th></tr>
{{range .}}<tr><td>{{.Model}}</td><td class="num">{{.Units}}</td><td>{{.Source}}</td></tr>
{{end}}</table></div>{{end}}
</section>
</body>
</html>
`))
