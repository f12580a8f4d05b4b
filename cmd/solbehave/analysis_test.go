package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/solbehave/solbehave/cmd/solbehave/release"
	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/views/viewstest"
	"github.com/solbehave/solbehave/schemas"
	sqlviews "github.com/solbehave/solbehave/sql"
)

// synthData is a data folder holding the synthetic warehouse of seed
// (every dataset filled) and its DuckDB file.
func synthData(t *testing.T, seed int64) string {
	t.Helper()
	data := viewstest.SynthData(t, seed)
	if _, err := solbehave(t, "views", "--data", data); err != nil {
		t.Fatal(err)
	}
	return data
}

// readArrow reads every row of an Arrow IPC file, each cell rendered by
// arrow-go's own value formatter.
func readArrow(t *testing.T, path string) (names []string, rows [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatalf("%s is not an Arrow IPC file: %v", path, err)
	}
	defer r.Close()
	for _, fd := range r.Schema().Fields() {
		names = append(names, fd.Name)
	}
	for b := 0; b < r.NumRecords(); b++ {
		rec, err := r.RecordBatch(b)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			row := make([]string, rec.NumCols())
			for c := range row {
				row[c] = arrowCell(rec.Column(c), i)
			}
			rows = append(rows, row)
		}
	}
	return names, rows
}

func arrowCell(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "null"
	}
	if f, ok := a.(*array.Float64); ok {
		return fmt.Sprintf("%.9g", f.Value(i))
	}
	return a.ValueStr(i)
}

// jsonRows runs a query through `solbehave sql --format json`.
func jsonRows(t *testing.T, data, query string, names []string) [][]string {
	t.Helper()
	out, err := solbehave(t, "sql", "--data", data, "--format", "json", query)
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	dec := json.NewDecoder(bytes.NewReader(ndjsonArray(out)))
	dec.UseNumber()
	if err := dec.Decode(&objs); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rows [][]string
	for _, o := range objs {
		row := make([]string, len(names))
		for c, n := range names {
			switch v := o[n].(type) {
			case nil:
				row[c] = "null"
			case json.Number:
				if f, err := v.Float64(); err == nil && strings.ContainsAny(v.String(), ".eE") {
					row[c] = fmt.Sprintf("%.9g", f)
				} else {
					row[c] = v.String()
				}
			default:
				row[c] = fmt.Sprint(v)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// TestSQLAndExportWriteArrow: `sql --format arrow` and `export` write Arrow
// IPC files that arrow-go reads back with the rows DuckDB returns.
func TestSQLAndExportWriteArrow(t *testing.T) {
	data := synthData(t, 3)
	dir := t.TempDir()
	const q = "SELECT contract_id, replayed, reproduced, reproduced_rate, first_diverging_tx FROM verify_summary ORDER BY contract_id"
	out := filepath.Join(dir, "summary.arrow")
	if _, err := solbehave(t, "sql", "--data", data, "--format", "arrow", "--out", out, q); err != nil {
		t.Fatal(err)
	}
	names, got := readArrow(t, out)
	want := jsonRows(t, data, q, names)
	if len(got) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("arrow rows\n%v\nDuckDB rows\n%v", got, want)
	}

	exported := filepath.Join(dir, "calls.arrow")
	if _, err := solbehave(t, "export", "replay_calls", "--data", data, "--format", "arrow", "--out", exported); err != nil {
		t.Fatal(err)
	}
	names, got = readArrow(t, exported)
	if d, _ := schemas.Lookup("replay_calls"); len(names) != len(documented(d.Doc))-len(d.Partitions) { // partition column hidden
		t.Errorf("export has columns %v, the dataset doc %v", names, documented(d.Doc))
	}
	want = jsonRows(t, data, "SELECT * FROM replay_calls", names)
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("export: %d rows, DuckDB has %d", len(got), len(want))
	}

	t.Chdir(dir)
	if _, err := solbehave(t, "export", "fig4_replay", "--data", data, "--format", "arrow"); err != nil {
		t.Fatal(err)
	}
	if _, rows := readArrow(t, filepath.Join(dir, "fig4_replay.arrow")); len(rows) == 0 {
		t.Error("export of a view: no rows in fig4_replay.arrow")
	}
	if _, err := solbehave(t, "sql", "--data", data, "--format", "arrow", q); err == nil {
		t.Error("arrow to a terminal without --out: want an error")
	}
	if _, err := solbehave(t, "export", "no_such_dataset", "--data", data); err == nil ||
		!strings.Contains(err.Error(), "no dataset or view") {
		t.Errorf("unknown dataset: %v", err)
	}
}

func documented(doc string) []string {
	var cols []string
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "| `") {
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "`")
			cols = append(cols, name)
		}
	}
	return cols
}

// TestPublishedReleaseOpensAnywhere publishes the demo warehouse, moves the
// release, and opens its DuckDB file from another folder as a plain DuckDB
// client would: every view runs, with the same rows as the source.
func TestPublishedReleaseOpensAnywhere(t *testing.T) {
	data := synthData(t, 3)
	rel := filepath.Join(t.TempDir(), "release")
	out, err := solbehave(t, "publish", "--data", data, "--out", rel, "--creators", "Tester, Ada")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "published "+rel) {
		t.Errorf("publish printed %q", out)
	}
	checkReleaseFiles(t, rel, data)
	checkChecksums(t, rel)
	readme, _ := os.ReadFile(filepath.Join(rel, "README.md"))
	// The parameters and the per-dataset table come from run records (TestPublishRelease);
	// a synthetic warehouse has none.
	for _, want := range []string{"## Corpus", "## Models", "## Compilers", "## Versions", "DuckDB: v", "file_search_path"} {
		if !bytes.Contains(readme, []byte(want)) {
			t.Errorf("datasheet lacks %q", want)
		}
	}
	if bytes.Contains(readme, []byte("sk-")) {
		t.Error("the datasheet leaks a credential from a URL flag")
	}

	moved := filepath.Join(t.TempDir(), "downloaded")
	if err := os.Rename(rel, moved); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // neither the release nor the data folder
	db := viewstest.OpenPlain(t, filepath.Join(moved, "solbehave.duckdb"), "SET file_search_path = '"+moved+"'")
	if err := views.RunAll(context.Background(), db); err != nil {
		t.Fatalf("release views from another folder: %v", err)
	}
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM replay_calls").Scan(&n); err != nil {
		t.Fatal(err)
	}
	db.Close()
	src, err := solbehave(t, "sql", "--data", data, "--format", "csv", "SELECT count(*) AS n FROM replay_calls")
	if err != nil || strings.TrimSpace(src) != fmt.Sprintf("n\n%d", n) {
		t.Errorf("release has %d replay_calls rows; source: %s %v", n, src, err)
	}
	t.Chdir(moved) // and from its own folder with no setting at all: the paths resolve
	db = viewstest.OpenPlain(t, "solbehave.duckdb")
	if err := views.ReadDatasets(context.Background(), db); err != nil {
		t.Fatalf("release views from its folder: %v", err)
	}
	db.Close()

	if _, err := solbehave(t, "publish", "--data", data, "--out", moved, "--creators", "Tester, Ada"); err == nil {
		t.Error("publishing into a non-empty folder: want an error")
	}
}

func checkReleaseFiles(t *testing.T, rel, data string) {
	t.Helper()
	docs, _ := os.ReadFile(filepath.Join(rel, release.SchemasFile))
	for _, d := range schemas.All() {
		if !bytes.Contains(docs, []byte("\n## "+d.Name+"\n")) {
			t.Errorf("%s has no section for %s", release.SchemasFile, d.Name)
		}
	}
	viewsText, _ := os.ReadFile(filepath.Join(rel, release.ViewsFile))
	for _, f := range sqlviews.Files() {
		if !bytes.Contains(viewsText, []byte("-- ==== sql/"+f.Name+" ====")) {
			t.Errorf("%s lacks sql/%s", release.ViewsFile, f.Name)
		}
	}
	// One Parquet file per dataset that has rows in the warehouse.
	entries, err := os.ReadDir(filepath.Join(data, "warehouse"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("warehouse: %v", err)
	}
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(rel, release.File(e.Name()))); err != nil {
			t.Errorf("release has no single Parquet file for %s: %v", e.Name(), err)
		}
	}
}

// checkChecksums verifies SHA256SUMS as `sha256sum -c` would, and that it
// covers every file of the release.
func checkChecksums(t *testing.T, rel string) {
	t.Helper()
	f, err := os.Open(filepath.Join(rel, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	listed := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("malformed line %q", sc.Text())
		}
		got, err := inputfile.Digest(filepath.Join(rel, name), inputfile.Whole)
		if err != nil || got != sum {
			t.Errorf("%s: checksum %s, file has %s (%v)", name, sum, got, err)
		}
		listed[name] = true
	}
	filepath.WalkDir(rel, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		name, _ := filepath.Rel(rel, p)
		if name != "SHA256SUMS" && !listed[filepath.ToSlash(name)] {
			t.Errorf("%s not in SHA256SUMS", name)
		}
		return nil
	})
	for _, must := range []string{"README.md", "solbehave.duckdb", release.SchemasFile, release.ViewsFile} {
		if !listed[must] {
			t.Errorf("SHA256SUMS lacks %s", must)
		}
	}
}

// TestCommandsFollowAMovedDataFolder: after the data folder moves, solbehave
// rewrites the absolute paths itself; `views --layout relative` switches.
func TestCommandsFollowAMovedDataFolder(t *testing.T) {
	data := synthData(t, 3)
	moved := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Rename(data, moved); err != nil {
		t.Fatal(err)
	}
	out, err := solbehave(t, "sql", "--data", moved, "--format", "csv", "SELECT layout, warehouse FROM warehouse_location")
	if err != nil || !strings.Contains(out, "absolute,"+filepath.Join(moved, "warehouse")) {
		t.Fatalf("after the move: %v\n%s", err, out)
	}
	if _, err := solbehave(t, "views", "--data", moved, "--layout", "relative"); err != nil {
		t.Fatal(err)
	}
	out, err = solbehave(t, "sql", "--data", moved, "--format", "csv", "SELECT layout, warehouse FROM warehouse_location")
	if err != nil || strings.TrimSpace(out) != "layout,warehouse\nrelative,warehouse" {
		t.Fatalf("relative layout: %v\n%s", err, out)
	}
	if _, err := solbehave(t, "views", "--data", moved, "--layout", "sideways"); err == nil {
		t.Error("unknown layout: want an error")
	}
}
