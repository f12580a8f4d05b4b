package report

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/solbehave/solbehave/internal/views"
	sqlviews "github.com/solbehave/solbehave/sql"
)

// section is one part of the evaluation: its figures and the sql/ views
// whose tables it shows.
type section struct {
	ID, Title string
	Figures   []string // figure ids
	Views     []string // sql/ view names, in order
}

// sections follow the paper's evaluation; a sql/ view none of them names
// (and that is not a dataset helper) lands in "Other views".
var sections = []section{
	{ID: "claims", Title: "The paper beside this run (paper_claims, paper_tables)", Views: []string{"paper_claims", "paper_tables"}},
	{ID: "construction", Title: "Benchmark construction", Figures: []string{"fig2", "funnel"},
		Views: []string{"construction_funnel", "fig2_size_distribution", "verify_summary"}},
	{ID: "compilation", Title: "Compilation (Tables II and VII)", Figures: []string{"compile-size"},
		Views: []string{"table2_compile", "table7_size"}},
	{ID: "replay", Title: "Replay oracles (Figure 4, Table IV)", Figures: []string{"fig4a-match", "fig4a-divergent", "fig4b", "coverage"},
		Views: []string{"fig4_replay", "fig4_complementarity", "table4_coverage", "o3_reach", "oracle_agreement", "model_differences", "replay_secondary"}},
	{ID: "fuzzing", Title: "Differential fuzzing (Tables V and VI)", Figures: []string{"o1"},
		Views: []string{"table5_o1", "table6_oracles"}},
	{ID: "dcr", Title: "DCR extraction (Table III, §IV-D/E)", Views: []string{"table3_dcr_validation", "dcr_stats"}},
	{ID: "vuln", Title: "Vulnerabilities", Figures: []string{"vuln"},
		Views: []string{"vuln_detected", "vuln_introduced", "vuln_eval", "vuln_ablation"}},
	{ID: "mutants", Title: "Oracle check by mutation analysis", Figures: []string{"mutants"},
		Views: []string{"mutant_kills"}},
}

// maxTableRows bounds a table on the page; the view has the rest.
const maxTableRows = 200

// table is one view's rows, rendered as text.
type table struct {
	View, About string
	Columns     []string
	Rows        [][]cell
	Total       int64 // rows the view has; Rows holds at most maxTableRows
	NoData      string
	Class       string // the table's CSS class: "claims", page-wide with wrapping text
}

type cell struct {
	Text    string
	Numeric bool
	Class   string // "off": a paper_claims row whose interval excludes the paper's value
	Title   string // a tooltip (the claim's id, the reason a value is missing)
	Note    string // a line under the text (a claim's reason for having no run value)
}

// Classes is the cell's CSS classes.
func (c cell) Classes() string {
	if c.Numeric {
		return strings.TrimSpace("num " + c.Class)
	}
	return c.Class
}

// Truncated tells whether the view has more rows than the page shows.
func (t table) Truncated() bool { return t.Total > int64(len(t.Rows)) }

// viewFiles maps every sql/ view to its file.
func viewFiles() map[string]sqlviews.File {
	out := map[string]sqlviews.File{}
	for _, f := range sqlviews.Files() {
		out[f.View()] = f
	}
	return out
}

func helper(f sqlviews.File) bool { return strings.HasPrefix(f.About(), "dataset helper") }

// queryTable reads the rows of a query over a dataset as a table.
func queryTable(ctx context.Context, db *sql.DB, name, query string) (table, error) {
	t := table{View: name}
	rows, err := db.QueryContext(ctx, query)
	if missingObject(err) {
		t.NoData = "no data yet (" + firstLine(err.Error()) + ")"
		return t, nil
	}
	if err != nil {
		return t, fmt.Errorf("report: %s: %w", name, err)
	}
	defer rows.Close()
	if err := fillTable(&t, rows); err != nil {
		return t, err
	}
	if len(t.Rows) == 0 {
		t.NoData = "no data yet"
	}
	return t, nil
}

// readTable reads up to maxTableRows rows of a view.
func readTable(ctx context.Context, db *sql.DB, view, aboutText string) (table, error) {
	t := table{View: view, About: aboutText}
	q := quote(view)
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+q).Scan(&t.Total); err != nil {
		if missingObject(err) {
			t.NoData = "no data yet (" + firstLine(err.Error()) + ")"
			return t, nil
		}
		return t, fmt.Errorf("report: view %s: %w", view, err)
	}
	if t.Total == 0 {
		t.NoData = "no data yet"
		return t, nil
	}
	rows, err := db.QueryContext(ctx, fmt.Sprintf("SELECT * FROM %s LIMIT %d", q, maxTableRows))
	if err != nil {
		return t, fmt.Errorf("report: view %s: %w", view, err)
	}
	defer rows.Close()
	return t, fillTable(&t, rows)
}

// fillTable reads every row into t, shares (columns ending in _rate) as %,
// and a value with its 95% interval as one cell, "x [lo–hi]".
func fillTable(t *table, rows *sql.Rows) error {
	types, _ := rows.ColumnTypes()
	numeric := make([]bool, len(types))
	var names []string
	for i, c := range types {
		names = append(names, c.Name())
		numeric[i] = numericType(c.DatabaseTypeName())
	}
	bounds := intervalColumns(names)
	for i, n := range names {
		if _, ok := bounds.of[i]; !ok {
			t.Columns = append(t.Columns, n)
		}
	}
	return views.EachRow(rows, func(vals []any) error {
		cells := make([]cell, 0, len(vals))
		for i, v := range vals {
			if _, ok := bounds.of[i]; ok {
				continue
			}
			c := cell{Text: cellText(names[i], v), Numeric: numeric[i]}
			if lh, ok := bounds.at[i]; ok {
				c.Text += intervalText(names[i], vals[lh[0]], vals[lh[1]])
			}
			cells = append(cells, c)
		}
		t.Rows = append(t.Rows, cells)
		return nil
	})
}

// intervals pairs a value's column with its interval's: at maps the value's
// index to its (low, high) indexes, of maps each bound's index to the value's.
type intervals struct {
	at map[int][2]int
	of map[int]int
}

// intervalColumns finds the columns X_ci_low and X_ci_high beside a column
// X (and ci_low, ci_high beside run_value: paper_claims).
func intervalColumns(names []string) intervals {
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	out := intervals{at: map[int][2]int{}, of: map[int]int{}}
	for i, n := range names {
		base, ok := strings.CutSuffix(n, "ci_low")
		if !ok {
			continue
		}
		hi, ok := index[base+"ci_high"]
		if !ok {
			continue
		}
		value := strings.TrimSuffix(base, "_")
		if base == "" {
			value = "run_value"
		}
		v, ok := index[value]
		if !ok {
			continue
		}
		out.at[v] = [2]int{i, hi}
		out.of[i], out.of[hi] = v, v
	}
	return out
}

// intervalText is " [lo–hi]" in the value's format, "" when there is none.
func intervalText(column string, lo, hi any) string {
	l, lok := lo.(float64)
	h, hok := hi.(float64)
	if !lok || !hok {
		return ""
	}
	return " [" + views.Readable(column, l) + "–" + views.Readable(column, h) + "]"
}

func numericType(t string) bool {
	for _, p := range []string{"INT", "BIGINT", "SMALLINT", "TINYINT", "HUGEINT", "UBIGINT", "UINTEGER", "DOUBLE", "FLOAT", "DECIMAL"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// cellText renders a value of a column for a person: floats as the table
// format shows them (shares as %).
func cellText(column string, v any) string {
	switch x := v.(type) {
	case nil:
		if correlation(column) {
			return "not defined" // too few models, or one oracle rates every model alike
		}
		return "–"
	case float64:
		return views.Readable(column, x)
	case float32:
		return views.Readable(column, float64(x))
	case string:
		return x
	case []byte:
		return fmt.Sprintf("%x", x)
	case time.Time:
		return x.Format(time.RFC3339)
	case *big.Int:
		return x.String()
	}
	return fmt.Sprint(v)
}

// correlation tells the correlation columns (oracle_agreement), whose NULL
// means "not defined", not "no data".
func correlation(column string) bool {
	return column == "spearman_rho" || column == "pearson_r"
}

// missingObject tells a query over a view or dataset that does not exist
// yet (another engineer's view not landed; an old warehouse) from a broken one.
func missingObject(err error) bool {
	return err != nil && strings.Contains(err.Error(), "Catalog Error")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
