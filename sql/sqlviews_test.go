package sqlviews

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/schemas"
)

func TestFilesSortedAndNonEmpty(t *testing.T) {
	files := Files()
	if len(files) == 0 {
		t.Fatal("no embedded views")
	}
	if !slices.IsSortedFunc(files, func(a, b File) int { return strings.Compare(a.Name, b.Name) }) {
		t.Fatal("Files() not sorted by name")
	}
	if !slices.ContainsFunc(files, func(f File) bool { return f.View() == "verify_summary" }) {
		t.Fatal("verify_summary.sql not embedded")
	}
}

// TestEveryFileFollowsTheConvention guards views added later too.
func TestEveryFileFollowsTheConvention(t *testing.T) {
	known := map[string]bool{}
	for _, d := range schemas.All() {
		known[d.Name] = true
	}
	for _, f := range Files() {
		if known[f.View()] {
			t.Errorf("%s: view name collides with dataset %s", f.Name, f.View())
		}
		known[f.View()] = true
	}
	for _, f := range Files() {
		t.Run(f.Name, func(t *testing.T) { checkFile(t, f, known) })
	}
}

func checkFile(t *testing.T, f File, known map[string]bool) {
	v := regexp.QuoteMeta(f.View())
	header := regexp.MustCompile(`^-- ` + v + `: \S`)
	create := regexp.MustCompile(`(?m)^CREATE OR REPLACE VIEW ` + v + ` AS\b`)
	comment := regexp.MustCompile(`(?m)^COMMENT ON VIEW ` + v + ` IS '`)
	anyCreate := regexp.MustCompile(`(?i)CREATE\s`)
	if !regexp.MustCompile(`^[a-z][a-z0-9_]*\.sql$`).MatchString(f.Name) {
		t.Errorf("file name %q is not <snake_case>.sql", f.Name)
	}
	if !header.MatchString(f.Text) {
		t.Errorf("first line must be `-- %s: <paper table/figure or dataset helper>`", f.View())
	}
	if !create.MatchString(f.Text) {
		t.Errorf("missing `CREATE OR REPLACE VIEW %s AS`", f.View())
	}
	if n := len(anyCreate.FindAllString(f.Text, -1)); n != 1 {
		t.Errorf("%d CREATE statements, want exactly one view per file", n)
	}
	if !comment.MatchString(f.Text) {
		t.Errorf("missing `COMMENT ON VIEW %s IS '...'`", f.View())
	}
	for _, d := range f.Depends() {
		if !known[d] {
			t.Errorf("depends on %q, which is neither a dataset nor a view", d)
		}
	}
	for _, call := range unorderedAggregates(f.Text) {
		t.Errorf("%s: an order-sensitive aggregate without ORDER BY (DuckDB's threads would set the order of its sum)", call)
	}
}

// orderSensitive matches a call of an aggregate whose floating-point result
// depends on the order its input arrives in.
var orderSensitive = regexp.MustCompile(`(?i)\b(avg|corr|covar_pop|covar_samp|stddev|stddev_pop|stddev_samp|variance|var_pop|var_samp|regr_\w+)\(`)

// unorderedAggregates lists the calls of order-sensitive aggregates in sql
// that do not order their input.
func unorderedAggregates(sql string) []string {
	var calls []string
	for _, at := range orderSensitive.FindAllStringIndex(sql, -1) {
		end, depth := len(sql), 0
		for i := at[1] - 1; i < len(sql) && end == len(sql); i++ {
			switch sql[i] {
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					end = i + 1
				}
			}
		}
		if call := sql[at[0]:end]; !strings.Contains(strings.ToUpper(call), "ORDER BY") {
			calls = append(calls, call)
		}
	}
	return calls
}

func TestUnorderedAggregatesFindsAnAverageWithoutOrder(t *testing.T) {
	got := unorderedAggregates("SELECT avg(CASE WHEN a THEN 1.0 ELSE 0.0 END), avg(b ORDER BY b), favg(c), CORR(d, e) FROM t")
	want := []string{"avg(CASE WHEN a THEN 1.0 ELSE 0.0 END)", "CORR(d, e)"}
	if !slices.Equal(got, want) {
		t.Fatalf("unordered aggregates %q, want %q", got, want)
	}
}

func TestDependsParsesHeaderLines(t *testing.T) {
	f := File{Name: "x.sql", Text: "-- x: helper\n-- depends: a, b\n-- depends: c\n-- depends:\nSELECT 1; -- depends: not_a_header\n"}
	if got, want := f.Depends(), []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Fatalf("Depends() = %v, want %v", got, want)
	}
}

func TestAboutIsTheHeaderDescription(t *testing.T) {
	f := File{Name: "v.sql", Text: "-- v: solbehave paper Table I, what it shows\n-- over two lines\n-- depends: a\nSELECT 1;"}
	if got, want := f.About(), "solbehave paper Table I, what it shows over two lines"; got != want {
		t.Errorf("About() = %q, want %q", got, want)
	}
}

// Every view's data file is inlined: no `{{name.csv}}` is left, and each row
// of paper_claims.csv is a row of the view's VALUES.
func TestCSVFilesAreInlined(t *testing.T) {
	for _, f := range Files() {
		if strings.Contains(f.Text, "{{") {
			t.Errorf("%s: a {{...}} reference is left in its SQL", f.Name)
		}
	}
	values := CSVValues("paper_claims.csv")
	for _, want := range []string{"AS paper_claims(id, paper, section, claim, paper_value, scope, source_view, reason, model, compare)", "('solbehave_o1_pooled_functions', 'SolBehave', 'Abstract', "} {
		if !strings.Contains(values, want) {
			t.Errorf("CSVValues lacks %q:\n%s", want, values)
		}
	}
	if got := quoted([]string{"it's"}); got[0] != "'it''s'" {
		t.Errorf("quoted(it's) = %s", got[0])
	}
}
