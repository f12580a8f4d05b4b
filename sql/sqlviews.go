// Package sqlviews embeds the project's DuckDB views, one per `*.sql` file in
// this folder. internal/views loads them on top of the dataset views (one per
// registered dataset in package schemas).
//
// File convention (checked by this package's tests):
//
//	-- <view>: <paper table/figure it reproduces, or "dataset helper">
//	-- depends: <view or dataset>, ...        (optional)
//	CREATE OR REPLACE VIEW <view> AS
//	SELECT ...;
//	COMMENT ON VIEW <view> IS '...';
//
// An aggregate whose floating-point result depends on the order of its input
// (avg, corr, stddev_pop, ...) orders it: avg(x ORDER BY x). DuckDB
// aggregates in parallel, so an unordered average of DOUBLEs can change in its
// last digit from one query to the next over the same rows.
//
// A view may read a versioned data file of this folder (the papers' values
// in paper_claims.csv): `{{<name>.csv}}` in its SQL becomes a VALUES list of
// the file's rows (every cell a string), named by the file's header, so the
// values live in the CSV and the DuckDB file still needs no path. Likewise
// `{{<name>.cte}}` becomes the file's SQL: CTEs several views share (the
// bootstrap interval of rate_intervals and value_intervals, the resamples they
// and bootstrap_weights draw), written once; a .cte file may name another.
//
// The file name is <view>.sql. Views may build on each other; the loader
// orders files by their `-- depends:` lines and retries a failed view after
// the others until no more progress is made, so a missing header only costs a
// retry.
package sqlviews

import (
	"embed"
	"encoding/csv"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
)

//go:embed *.sql *.csv *.cte
var files embed.FS

// File is one embedded view definition.
type File struct {
	Name string // file name, e.g. "verify_summary.sql"
	Text string // the SQL, header comments included
}

// View is the name of the view the file defines (its file name without .sql).
func (f File) View() string { return strings.TrimSuffix(f.Name, ".sql") }

// About is the header's description: the leading comment lines before
// `-- depends:`, without the view's own name.
func (f File) About() string {
	var parts []string
	for _, line := range strings.Split(f.Text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "--") || strings.HasPrefix(line, "-- depends:") || strings.HasPrefix(line, "-- columns:") {
			break
		}
		parts = append(parts, strings.TrimSpace(strings.TrimPrefix(line, "--")))
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.Join(parts, " "), f.View()+":"))
}

// Depends lists the names on the file's `-- depends:` header lines.
func (f File) Depends() []string { return f.HeaderList("depends") }

// HeaderList lists, in order, the comma-separated names on the file's
// `-- <key>:` lines (several lines concatenate); nil when it has none.
func (f File) HeaderList(key string) []string {
	var names []string
	for _, line := range strings.Split(f.Text, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "-- "+key+":")
		if !ok {
			continue
		}
		for _, n := range strings.Split(rest, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
	}
	return names
}

// Files returns every embedded view, sorted by name.
func Files() []File {
	entries, err := fs.ReadDir(files, ".")
	if err != nil { // cannot happen: the FS is compiled in
		panic(err)
	}
	out := make([]File, 0, len(entries))
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		text, err := fs.ReadFile(files, e.Name())
		if err != nil {
			panic(err)
		}
		out = append(out, File{Name: e.Name(), Text: inline(string(text))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// reference is a `{{<name>.csv}}` or `{{<name>.cte}}` reference to a file of
// this folder.
var reference = regexp.MustCompile(`\{\{([a-z][a-z0-9_]*\.(csv|cte))\}\}`)

// inline replaces every `{{<name>.csv}}` in text with the file's rows, and
// every `{{<name>.cte}}` with the file's SQL: CTEs that views share.
func inline(text string) string {
	return reference.ReplaceAllStringFunc(text, func(ref string) string {
		m := reference.FindStringSubmatch(ref)
		if m[2] == "csv" {
			return CSVValues(m[1])
		}
		return CTE(m[1])
	})
}

// CTE is the embedded file name's SQL, without its trailing newline. A file
// that is missing panics: it is compiled in and tested.
func CTE(name string) string {
	data, err := fs.ReadFile(files, name)
	if err != nil {
		panic(err)
	}
	return strings.TrimRight(inline(string(data)), "\n")
}

// CSVValues is the embedded CSV file name as a DuckDB VALUES list of strings,
// aliased to the file's base name with its header as column names. A file
// that is missing or malformed panics: it is compiled in and tested.
func CSVValues(name string) string {
	rows := CSVRows(name)
	tuples := make([]string, 0, len(rows)-1)
	for _, row := range rows[1:] {
		tuples = append(tuples, "("+strings.Join(quoted(row), ", ")+")")
	}
	return "(VALUES\n    " + strings.Join(tuples, ",\n    ") + "\n) AS " + strings.TrimSuffix(name, ".csv") + "(" + strings.Join(rows[0], ", ") + ")"
}

// CSVRows is the embedded CSV file name's rows, its header first (the
// report orders paper_claims by the file's order). A file that is missing or
// malformed panics: it is compiled in and tested.
func CSVRows(name string) [][]string {
	data, err := fs.ReadFile(files, name)
	if err != nil {
		panic(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	if err != nil || len(rows) < 2 {
		panic(fmt.Sprintf("sql/%s: want a header and rows: %v", name, err))
	}
	return rows
}

// quoted is each cell as a SQL string literal.
func quoted(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = "'" + strings.ReplaceAll(c, "'", "''") + "'"
	}
	return out
}
