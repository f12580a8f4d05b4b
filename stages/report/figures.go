package report

import (
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/solbehave/solbehave/internal/chart"
)

// figure is one chart of the report: a query returning (category, series,
// value) rows, ordered as they should be drawn, and how to draw them.
type figure struct {
	ID      string
	Title   string
	Caption string
	Query   string
	Kind    string // "bars" or "stacked"
	Percent bool   // values are 0-1 rates
	YLabel  string
}

// oracleLabel names an oracle with its graph setting and Algorithm 1
// profile, e.g. "O3 (matched, paper)".
const oracleLabel = `oracle || CASE WHEN graph_setting <> '' THEN ' (' || graph_setting ||
	CASE WHEN profile <> '' THEN ', ' || profile ELSE '' END || ')' ELSE '' END`

const bucketOrder = `CASE size_bucket WHEN '1-5' THEN 1 WHEN '6-10' THEN 2 WHEN '11-20' THEN 3 WHEN '21-30' THEN 4 ELSE 5 END`

// figures are drawn from the paper's views where their shape is settled, and
// otherwise straight from the datasets (whose columns schemas/ documents), so
// a figure does not wait on a view still being written.
var figures = []figure{
	{ID: "fig2", Title: "Figure 2: contract size distribution", Kind: "bars", Percent: true, YLabel: "share of contracts",
		Caption: "Share of contracts per bucket of non-trivial functions, at the crawled and the reproducibility-verified stage (fig2_size_distribution); every bucket of the paper is shown, empty ones at 0.",
		Query: `SELECT size_bucket, stage, share_rate FROM fig2_size_distribution
			WHERE (SELECT sum(contracts) FROM fig2_size_distribution) > 0 ORDER BY bucket_order, stage`},
	{ID: "funnel", Title: "Benchmark construction funnel", Kind: "bars", YLabel: "contracts",
		Caption: "Contracts left after each admission filter (construction_funnel).",
		Query: `SELECT step, 'contracts', contracts FROM construction_funnel
			WHERE (SELECT max(contracts) FROM construction_funnel) > 0 ORDER BY step_order`},
	{ID: "compile-size", Title: "Compile rate by contract size", Kind: "bars", Percent: true, YLabel: "compiling samples",
		Caption: "Share of samples that compile after repair, per size bucket and model (samples joined with contracts; Table VII by model).",
		Query: `SELECT c.size_bucket, s.model, avg(CASE WHEN s.compiled_repaired THEN 1.0 ELSE 0.0 END)
			FROM samples s JOIN contracts c USING (contract_id) WHERE c.size_bucket <> '0'
			GROUP BY c.size_bucket, s.model ORDER BY min(` + bucketOrder + `), s.model`},
	{ID: "fig4a-match", Title: "Figure 4(a): status match rate per oracle", Kind: "bars", Percent: true, YLabel: "status match (mean over contracts)",
		Caption: "Per model, the mean over compared contracts of the share of calls whose status on the sample equals the original's (fig4_replay); whiskers: its 95% bootstrap interval over contracts.",
		Query: `SELECT model, ` + oracleLabel + ` AS o, status_match_rate, status_match_rate_ci_low AS lo, status_match_rate_ci_high AS hi
			FROM fig4_replay WHERE n > 0 ORDER BY model, o`},
	{ID: "fig4a-divergent", Title: "Figure 4(a): divergent contracts per oracle", Kind: "bars", YLabel: "divergent contracts",
		Caption: "Per model, the contracts on which some sample disagrees with the original on some call's status (fig4_replay); whiskers: the 95% bootstrap interval over the n compared contracts of the divergent share, times n.",
		Query: `SELECT model, ` + oracleLabel + ` AS o, divergent, divergent_rate_ci_low * n AS lo, divergent_rate_ci_high * n AS hi
			FROM fig4_replay WHERE n > 0 ORDER BY model, o`},
	{ID: "fig4b", Title: "Figure 4(b): divergent contracts found by O2, O3 or both", Kind: "stacked", YLabel: "divergent contracts",
		Caption: "Per model (and O3 graph setting and profile), the divergent contracts only O2 flags, both flag, and only O3 flags (fig4_complementarity).",
		Query: `WITH c AS (SELECT model || CASE WHEN graph_setting <> '' THEN ' (' || graph_setting || CASE WHEN profile <> '' THEN ', ' || profile ELSE '' END || ')' ELSE '' END AS m,
				o2_only, "both", o3_only FROM fig4_complementarity)
			SELECT m, k, v FROM (
				SELECT m, 'O2 only' AS k, o2_only AS v, 1 AS o FROM c UNION ALL
				SELECT m, 'both', "both", 2 FROM c UNION ALL
				SELECT m, 'O3 only', o3_only, 3 FROM c) ORDER BY m, o`},
	{ID: "coverage", Title: "Function coverage per oracle (Table IV)", Kind: "bars", Percent: true, YLabel: "functions called",
		Caption: "Mean share of a contract's functions that the oracle calls at least once (coverage; O3 per extractor).",
		Query: `WITH per_contract AS (
				SELECT oracle, graph_setting, profile, model, contract_id, avg(CASE WHEN calls > 0 THEN 1.0 ELSE 0.0 END) AS covered
				FROM coverage GROUP BY ALL)
			SELECT ` + oracleLabel + ` AS o, CASE WHEN model = '' THEN 'every model' ELSE model END AS m, avg(covered)
			FROM per_contract GROUP BY ALL ORDER BY o, m`},
	{ID: "o1", Title: "Differential fuzzing: equivalent functions (Table V)", Kind: "bars", Percent: true, YLabel: "equivalent (function, sample) pairs",
		Caption: "Per model, the share of fuzzed (function, sample) pairs with no disagreement within the budget (fuzz_results).",
		Query:   `SELECT model, 'O1 equivalent', avg(CASE WHEN equivalent THEN 1.0 ELSE 0.0 END) FROM fuzz_results GROUP BY model ORDER BY model`},
	{ID: "vuln", Title: "Detection rate: runs with a finding per class", Kind: "bars", Percent: true, YLabel: "runs with a finding",
		Caption: "Detection rate: per vulnerability class, the share of detector runs (full detector, status ok) that report a finding, on the originals and on each model's compiling samples, whether or not the original has it (vuln_detected). The introduced-vulnerability rate, findings a sample has and its original lacks, is the vuln_introduced table below.",
		Query: `SELECT class, CASE WHEN subject = 'original' THEN '(originals)' ELSE model END, detected_rate
			FROM vuln_detected ORDER BY CASE class WHEN 'reentrancy' THEN 0 WHEN 'arithmetic' THEN 1 WHEN 'block_state' THEN 2
				WHEN 'delegatecall' THEN 3 ELSE 4 END, subject, model`},
	{ID: "mutants", Title: "Mutants exposed per oracle", Kind: "bars", Percent: true, YLabel: "mutated samples exposed",
		Caption: "Share of mutated samples each oracle exposes, per mutation operator; (none): unmutated samples of the mutant generator, where exposure is a false alarm (mutant_kills).",
		Query:   `SELECT operator, ` + oracleLabel + ` AS o, exposed_rate FROM mutant_kills ORDER BY operator, o`},
}

// drawn is a figure ready for the page: its SVG (inline, and as a download
// with the PDF), or why there is none.
type drawn struct {
	figure
	SVG    string
	SVGURL template.URL // data: URL of the SVG file
	PDFURL template.URL // data: URL of the PDF file
	NoData string
}

// draw runs the figure's query and renders it.
func draw(ctx context.Context, db *sql.DB, f figure) (drawn, error) {
	d := drawn{figure: f}
	pts, err := points(ctx, db, f.Query)
	if missingObject(err) {
		d.NoData = "no data yet (" + firstLine(err.Error()) + ")"
		return d, nil
	}
	if err != nil {
		return d, fmt.Errorf("report: figure %s: %w", f.ID, err)
	}
	if len(pts) == 0 {
		d.NoData = "no data yet"
		return d, nil
	}
	c := bars(f, pts)
	svg, err := c.SVG()
	if err != nil {
		return d, fmt.Errorf("report: figure %s: %w", f.ID, err)
	}
	pdf, err := c.PDF()
	if err != nil {
		return d, fmt.Errorf("report: figure %s: %w", f.ID, err)
	}
	d.SVG = inlineSVG(svg)
	d.SVGURL = template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(svg))
	d.PDFURL = template.URL("data:application/pdf;base64," + base64.StdEncoding.EncodeToString(pdf))
	return d, nil
}

// inlineSVG drops the XML prolog and comment of an SVG file, so it can sit
// in the page, and marks its root for the page's style.
func inlineSVG(b []byte) string {
	s := string(b)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return strings.Replace(s, "<svg", `<svg class="chart" role="img"`, 1)
}

// point is one (category, series, value) row, with an optional label and
// an optional 95% interval (lo, hi: NaN for none).
type point struct {
	cat, series, label string
	value, lo, hi      float64
}

// points reads a figure's rows: category, series and value first, then
// optional columns by name, label and the interval's lo and hi.
func points(ctx context.Context, db *sql.DB, query string) ([]point, error) {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []point
	for rows.Next() {
		var cat, series, label sql.NullString
		var v, lo, hi sql.NullFloat64
		dest := []any{&cat, &series, &v}
		for _, c := range cols[min(3, len(cols)):] {
			switch c {
			case "lo":
				dest = append(dest, &lo)
			case "hi":
				dest = append(dest, &hi)
			default:
				dest = append(dest, &label)
			}
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		out = append(out, point{cat: cat.String, series: series.String, label: label.String,
			value: orNaN(v), lo: orNaN(lo), hi: orNaN(hi)})
	}
	return out, rows.Err()
}

func orNaN(v sql.NullFloat64) float64 {
	if v.Valid {
		return v.Float64
	}
	return math.NaN()
}

// order lists the distinct values in first-seen order (the query's).
func order(pts []point, key func(point) string) ([]string, map[string]int) {
	var names []string
	index := map[string]int{}
	for _, p := range pts {
		k := key(p)
		if _, ok := index[k]; !ok {
			index[k] = len(names)
			names = append(names, k)
		}
	}
	return names, index
}

func bars(f figure, pts []point) chart.Bars {
	cats, ci := order(pts, func(p point) string { return p.cat })
	names, si := order(pts, func(p point) string { return p.series })
	series := make([]chart.Series, len(names))
	for i, n := range names {
		series[i] = chart.Series{Name: n, Values: nans(len(cats)), Low: nans(len(cats)), High: nans(len(cats))}
	}
	for _, p := range pts {
		s, c := series[si[p.series]], ci[p.cat]
		s.Values[c], s.Low[c], s.High[c] = p.value, p.lo, p.hi
	}
	return chart.Bars{Title: f.Title, Categories: cats, Series: series, Stacked: f.Kind == "stacked",
		Percent: f.Percent, YLabel: f.YLabel}
}

func nans(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.NaN()
	}
	return v
}
