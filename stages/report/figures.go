package report

import (
	"context"
	"database/sql"
	"fmt"
	"math"

	"github.com/solbehave/solbehave/internal/svg"
)

// figure is one chart of the report: a query returning (category, series,
// value) rows, ordered as they should be drawn, and how to draw them.
type figure struct {
	ID      string
	Title   string
	Caption string
	Query   string
	Kind    string // "bars", "stacked" or "heatmap"
	Percent bool
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
		Caption: "Share of contracts per bucket of non-trivial functions, crawled vs reproducibility-verified (fig2_size_distribution).",
		Query:   `SELECT size_bucket, stage, share FROM fig2_size_distribution ORDER BY bucket_order, stage`},
	{ID: "funnel", Title: "Benchmark construction funnel", Kind: "bars", YLabel: "contracts",
		Caption: "Contracts left after each admission filter (construction_funnel).",
		Query: `SELECT step, 'contracts', contracts FROM construction_funnel
			WHERE (SELECT max(contracts) FROM construction_funnel) > 0 ORDER BY step_order`},
	{ID: "compile-size", Title: "Compile rate by contract size", Kind: "bars", Percent: true, YLabel: "compiling samples",
		Caption: "Share of samples that compile after repair, per size bucket and model (samples joined with contracts; Table VII by model).",
		Query: `SELECT c.size_bucket, s.model, avg(CASE WHEN s.compiled_repaired THEN 1.0 ELSE 0.0 END)
			FROM samples s JOIN contracts c USING (contract_id) WHERE c.size_bucket <> '0'
			GROUP BY c.size_bucket, s.model ORDER BY min(` + bucketOrder + `), s.model`},
	{ID: "fig4a", Title: "Figure 4(a): divergent contracts per oracle", Kind: "bars", Percent: true, YLabel: "contracts with Ĉ ≠ C*",
		Caption: "Per model, the share of compared contracts on which some sample disagrees with the original (sample_verdicts: every oracle that reports verdicts).",
		Query: `WITH per_contract AS (
				SELECT oracle, graph_setting, profile, model, contract_id, bool_or(divergent) AS divergent
				FROM sample_verdicts GROUP BY ALL)
			SELECT model, ` + oracleLabel + ` AS o, avg(CASE WHEN divergent THEN 1.0 ELSE 0.0 END)
			FROM per_contract GROUP BY ALL ORDER BY model, o`},
	{ID: "fig4b", Title: "Figure 4(b): divergent contracts by flagging oracle", Kind: "stacked", YLabel: "divergent contracts",
		Caption: "Each bar splits a model's divergent contracts by the combination of oracles that flag them.",
		Query: `WITH per AS (
				SELECT model, contract_id, ` + oracleLabel + ` AS o, bool_or(divergent) AS d
				FROM sample_verdicts GROUP BY ALL),
			flags AS (
				SELECT model, contract_id, string_agg(o, ' + ' ORDER BY o) FILTER (WHERE d) AS combo
				FROM per GROUP BY ALL)
			SELECT model, combo, count(*) FROM flags WHERE combo IS NOT NULL GROUP BY ALL ORDER BY model, combo`},
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
	{ID: "vuln", Title: "Vulnerability rates", Kind: "bars", Percent: true, YLabel: "runs with a finding",
		Caption: "Per vulnerability class, the share of detector runs (full detector, status ok) with a finding: originals vs each model's compiling samples (vuln_runs, vuln_findings).",
		Query: `WITH runs AS (
				SELECT contract_id, subject, model, sample FROM vuln_runs
				WHERE status = 'ok' AND ablation = 'none' AND subject IN ('original', 'sample')),
			found AS (SELECT DISTINCT contract_id, subject, model, sample, class FROM vuln_findings WHERE ablation = 'none'),
			classes AS (SELECT unnest(['reentrancy', 'arithmetic', 'block_state', 'delegatecall', 'frozen_ether']) AS class)
			SELECT c.class, CASE WHEN r.subject = 'original' THEN '(originals)' ELSE r.model END AS who,
				avg(CASE WHEN f.class IS NULL THEN 0.0 ELSE 1.0 END)
			FROM runs r CROSS JOIN classes c
			LEFT JOIN found f ON f.contract_id = r.contract_id AND f.subject = r.subject AND f.model = r.model
				AND f.sample = r.sample AND f.class = c.class
			GROUP BY ALL ORDER BY c.class, who`},
	{ID: "mutants", Title: "Mutant kill matrix", Kind: "heatmap",
		Caption: "Share of mutated samples each oracle exposes, per mutation operator; (none): unmutated samples of the mutant generator, where exposure is a false alarm (mutant_kills).",
		Query:   `SELECT operator, ` + oracleLabel + ` AS o, exposed_rate, exposed || '/' || compared FROM mutant_kills ORDER BY operator, o`},
}

// drawn is a figure ready for the page: its SVG, or why there is none.
type drawn struct {
	figure
	SVG    string
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
	switch f.Kind {
	case "heatmap":
		d.SVG = heatmap(f, pts).SVG()
	default:
		d.SVG = bars(f, pts).SVG()
	}
	return d, nil
}

// point is one (category, series, value) row, with an optional label.
type point struct {
	cat, series, label string
	value              float64
}

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
		var v sql.NullFloat64
		dest := []any{&cat, &series, &v}
		if len(cols) > 3 {
			dest = append(dest, &label)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		val := math.NaN()
		if v.Valid {
			val = v.Float64
		}
		out = append(out, point{cat: cat.String, series: series.String, label: label.String, value: val})
	}
	return out, rows.Err()
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

func bars(f figure, pts []point) svg.Bars {
	cats, ci := order(pts, func(p point) string { return p.cat })
	names, si := order(pts, func(p point) string { return p.series })
	series := make([]svg.Series, len(names))
	for i, n := range names {
		series[i] = svg.Series{Name: n, Values: nans(len(cats))}
	}
	for _, p := range pts {
		series[si[p.series]].Values[ci[p.cat]] = p.value
	}
	return svg.Bars{Title: f.Title, Categories: cats, Series: series, Stacked: f.Kind == "stacked",
		Percent: f.Percent, YLabel: f.YLabel}
}

func heatmap(f figure, pts []point) svg.Heatmap {
	rows, ri := order(pts, func(p point) string { return p.cat })
	cols, ci := order(pts, func(p point) string { return p.series })
	m := svg.Heatmap{Title: f.Title, Rows: rows, Cols: cols}
	for range rows {
		m.Values = append(m.Values, nans(len(cols)))
		m.Labels = append(m.Labels, make([]string, len(cols)))
	}
	for _, p := range pts {
		m.Values[ri[p.cat]][ci[p.series]] = p.value
		m.Labels[ri[p.cat]][ci[p.series]] = p.label
	}
	return m
}

func nans(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.NaN()
	}
	return v
}
