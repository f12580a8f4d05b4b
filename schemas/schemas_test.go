package schemas

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

var docRowRe = regexp.MustCompile("(?m)^\\| `([^`]+)` \\|")

// docColumns returns the column names listed in a doc's column table.
func docColumns(doc string) []string {
	var cols []string
	for _, m := range docRowRe.FindAllStringSubmatch(doc, -1) {
		cols = append(cols, m[1])
	}
	return cols
}

func TestFirstDatasetsRegistered(t *testing.T) {
	for _, name := range []string{"contracts", "verify_calls"} {
		if _, ok := Lookup(name); !ok {
			t.Errorf("dataset %s not registered", name)
		}
	}
	if _, ok := Lookup("no_such_dataset"); ok {
		t.Error("Lookup found a dataset that does not exist")
	}
}

func TestAllSortedByName(t *testing.T) {
	all := All()
	if !slices.IsSortedFunc(all, func(a, b Dataset) int { return strings.Compare(a.Name, b.Name) }) {
		t.Fatal("All() is not sorted by name")
	}
}

// TestEveryDatasetFollowsTheConvention guards datasets added later too.
func TestEveryDatasetFollowsTheConvention(t *testing.T) {
	for _, d := range All() {
		t.Run(d.Name, func(t *testing.T) {
			cols, err := d.Columns()
			if err != nil {
				t.Fatal(err)
			}
			if len(cols) == 0 {
				t.Fatal("row type has no columns")
			}
			checkColumnNames(t, d, cols)
			checkDoc(t, d, cols)
		})
	}
}

func checkColumnNames(t *testing.T, d Dataset, cols []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, c := range cols {
		if !nameRe.MatchString(c) {
			t.Errorf("column %q is not snake_case (missing parquet tag?)", c)
		}
		if seen[c] {
			t.Errorf("column %q twice", c)
		}
		seen[c] = true
	}
	for _, p := range d.Partitions {
		if !nameRe.MatchString(p) {
			t.Errorf("partition key %q is not snake_case", p)
		}
		if seen[p] {
			t.Errorf("partition key %q collides with a row column (DuckDB adds it as a column)", p)
		}
	}
	for _, v := range append(slices.Clone(d.Volatile), d.Pointers...) {
		if !seen[v] {
			t.Errorf("volatile or pointer column %q is not a row column", v)
		}
	}
}

func checkDoc(t *testing.T, d Dataset, cols []string) {
	t.Helper()
	if !strings.HasPrefix(d.Doc, "# "+d.Name+"\n") {
		t.Errorf("doc must start with %q", "# "+d.Name)
	}
	documented := docColumns(d.Doc)
	want := append(slices.Clone(cols), d.Partitions...)
	for _, c := range want {
		if !slices.Contains(documented, c) {
			t.Errorf("column %q missing from the doc's column table", c)
		}
	}
	for _, c := range documented {
		if !slices.Contains(want, c) {
			t.Errorf("doc documents %q, which is not a column", c)
		}
	}
	for _, v := range d.Volatile {
		if !strings.Contains(d.Doc, "`"+v+"`") {
			t.Errorf("volatile column %q not named in the doc", v)
		}
	}
}

func TestRegisterRejectsMistakes(t *testing.T) {
	bad := []Dataset{
		{Name: "contracts", Row: Contract{}, Doc: "# contracts\n"}, // duplicate
		{Name: "Bad-Name", Row: Contract{}, Doc: "x"},
		{Name: "no_doc", Row: Contract{}},
		{Name: "not_struct", Row: 3, Doc: "x"},
		{Name: "nil_row", Doc: "x"},
	}
	for _, d := range bad {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%s) accepted a bad dataset", d.Name)
				}
			}()
			Register(d)
		}()
	}
}

func TestSizeBucket(t *testing.T) {
	cases := map[int64]string{
		-1: "0", 0: "0", 1: "1-5", 5: "1-5", 6: "6-10", 10: "6-10",
		11: "11-20", 20: "11-20", 21: "21-30", 30: "21-30", 31: "31+", 500: "31+",
	}
	for n, want := range cases {
		if got := SizeBucket(n); got != want {
			t.Errorf("SizeBucket(%d) = %q, want %q", n, got, want)
		}
	}
}
