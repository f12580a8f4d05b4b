package views

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
	sqlviews "github.com/solbehave/solbehave/sql"
)

var ctx = context.Background()

// calls are verify_calls rows for two contracts, with empty strings, both
// bools and int64 values beyond 32 bits.
func calls() []schemas.VerifyCall {
	mk := func(id string, i int64, match bool, reason string) schemas.VerifyCall {
		status := schemas.StatusSuccess
		if !match {
			status = schemas.StatusRevert
		}
		return schemas.VerifyCall{
			ContractID: id, TxIndex: i, TxHash: "0x" + strings.Repeat("ab", 32),
			Selector: "0xa9059cbb", Function: "transfer", Sender: "0x" + strings.Repeat("1", 40),
			ValueWei: "1000000000000000000000", BlockNumber: 12249982 + i,
			RecordedStatus: schemas.StatusSuccess, ReplayedStatus: status, StatusMatch: match,
			RecordedGas: 58522, ReplayedGas: 1 << 40, RevertReason: reason,
		}
	}
	rows := []schemas.VerifyCall{
		mk("AWNEX_0x17ca", 1, true, ""), mk("AWNEX_0x17ca", 2, false, "Panic(0x11)"),
		mk("AWNEX_0x17ca", 3, true, ""), mk("AWNEX_0x17ca", 4, false, "out of gas"),
		mk("N_0x99", 1, true, ""), mk("N_0x99", 2, true, ""),
	}
	rows[4].Selector, rows[4].Function, rows[4].ValueWei = "", "", "0" // a plain transfer
	return rows
}

// buildWithCalls builds the DuckDB file over a warehouse holding rows as
// verify_calls and opens it (closed when the test ends).
func buildWithCalls(t *testing.T, rows []schemas.VerifyCall) *sql.DB {
	t.Helper()
	dir := t.TempDir()
	w := warehouse.New(filepath.Join(dir, "warehouse"))
	writeCalls(t, w, rows)
	dbPath := filepath.Join(dir, "solbehave.duckdb")
	if err := Build(dbPath, w.Root); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func writeCalls(t *testing.T, w *warehouse.Warehouse, rows []schemas.VerifyCall) {
	t.Helper()
	byContract := map[string][]schemas.VerifyCall{}
	for _, r := range rows {
		byContract[r.ContractID] = append(byContract[r.ContractID], r)
	}
	for id, rs := range byContract {
		if err := warehouse.Write(w.Path(schemas.VerifyCalls.Name(), warehouse.ByContract(id), "calls"), rs); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParquetReadsBackThroughDuckDB(t *testing.T) {
	want := calls()
	path := filepath.Join(t.TempDir(), "calls.parquet")
	if err := warehouse.Write(path, want); err != nil {
		t.Fatal(err)
	}
	db := memDB(t)
	rows, err := db.Query("SELECT * FROM read_parquet(" + QuoteString(path) + ") ORDER BY contract_id, tx_index")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []schemas.VerifyCall
	for rows.Next() {
		var r schemas.VerifyCall
		if err := rows.Scan(&r.ContractID, &r.TxIndex, &r.TxHash, &r.Selector, &r.Function, &r.Sender,
			&r.ValueWei, &r.BlockNumber, &r.RecordedStatus, &r.ReplayedStatus, &r.StatusMatch,
			&r.RecordedGas, &r.ReplayedGas, &r.RevertReason); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DuckDB read back\n%+v\nwant\n%+v", got, want)
	}
	back, err := warehouse.Read[schemas.VerifyCall](path)
	if err != nil || !reflect.DeepEqual(back, want) {
		t.Fatalf("Read[T] round trip: %v\n%+v", err, back)
	}
}

// wide covers the Go types a future row might use.
type wide struct {
	S   string            `parquet:"s"`
	B   bool              `parquet:"b"`
	I64 int64             `parquet:"i64"`
	I32 int32             `parquet:"i32"`
	I   int               `parquet:"i"`
	U64 uint64            `parquet:"u64"`
	U32 uint32            `parquet:"u32"`
	F64 float64           `parquet:"f64"`
	F32 float32           `parquet:"f32"`
	Raw []byte            `parquet:"raw"`
	Opt *string           `parquet:"opt,optional"`
	Tag []string          `parquet:"tags,list"`
	Rep []int64           `parquet:"rep"`
	At  time.Time         `parquet:"at"`
	Sub struct{ X int64 } `parquet:"sub"`
}

// TestRowColumnsMatchDuckDB checks the type mapping that empty views rely on
// against DuckDB reading a real file written by the warehouse.
func TestRowColumnsMatchDuckDB(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wide.parquet")
	if err := warehouse.Write(path, []wide{}); err != nil {
		t.Fatal(err)
	}
	got, err := rowColumns(wide{})
	if err != nil {
		t.Fatal(err)
	}
	want := describe(t, memDB(t), "SELECT * FROM read_parquet("+QuoteString(path)+")")
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rowColumns\n%v\nDuckDB\n%v", got, want)
	}
	if _, err := rowColumns(struct{ C chan int }{}); err == nil {
		t.Error("unmappable row type: want an error")
	}
}

func TestEmptyWarehouseHasTypedViews(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "solbehave.duckdb")
	if err := Build(dbPath, filepath.Join(dir, "warehouse")); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, name := range []string{"contracts", "verify_calls"} {
		d, _ := schemas.Lookup(name)
		want, err := rowColumns(d.Row)
		if err != nil {
			t.Fatal(err)
		}
		if got := describe(t, db, "SELECT * FROM "+name); !reflect.DeepEqual(got, want) {
			t.Errorf("empty view %s:\n got %v\nwant %v", name, got, want)
		}
		if n := count(t, db, name); n != 0 {
			t.Errorf("empty view %s has %d rows", name, n)
		}
	}
	if n := count(t, db, "verify_summary"); n != 0 {
		t.Errorf("verify_summary over no calls has %d rows", n)
	}
}

// TestEmptyViewMatchesParquetView: for every registered dataset, the
// placeholder view has the columns the real view gets once parts exist, and
// the doc's column table states those DuckDB types.
func TestEmptyViewMatchesParquetView(t *testing.T) {
	empty := t.TempDir()
	full := t.TempDir()
	w := warehouse.New(full)
	for _, d := range schemas.All() {
		var parts []warehouse.Partition
		for _, p := range d.Partitions {
			parts = append(parts, warehouse.Partition{Key: p, Value: "123"}) // digits: must stay VARCHAR
		}
		writeZeroRows(t, w.Path(d.Name, parts, "p"), d.Row)
	}
	emptyDB, fullDB := openMem(t, empty), openMem(t, full)
	for _, d := range schemas.All() {
		placeholder := describe(t, emptyDB, "SELECT * FROM "+QuoteIdent(d.Name))
		real := describe(t, fullDB, "SELECT * FROM "+QuoteIdent(d.Name))
		if !reflect.DeepEqual(placeholder, real) {
			t.Errorf("%s: empty view\n%v\nparquet view\n%v", d.Name, placeholder, real)
		}
		checkDocTypes(t, d, real)
	}
}

var docTypeRe = regexp.MustCompile("(?m)^\\| `([^`]+)` \\| ([^|]+?) \\|")

func checkDocTypes(t *testing.T, d schemas.Dataset, cols []column) {
	t.Helper()
	documented := map[string]string{}
	for _, m := range docTypeRe.FindAllStringSubmatch(d.Doc, -1) {
		documented[m[1]] = m[2]
	}
	for _, c := range cols {
		if got := documented[c.Name]; got != c.Type {
			t.Errorf("schemas/%s.md: column %s documented as %q, DuckDB type is %s", d.Name, c.Name, got, c.Type)
		}
	}
}

func TestVerifySummaryAndFormats(t *testing.T) {
	rows := calls()
	db := buildWithCalls(t, rows)

	const q = "SELECT * FROM verify_summary ORDER BY contract_id"
	checkSummaryJSON(t, queryBytes(t, db, q, "json"), rows)

	recs := queryCSV(t, db, q)
	if want := []string{"contract_id", "replayed", "reproduced", "reproduced_rate", "first_diverging_tx"}; !slices.Equal(recs[0], want) {
		t.Errorf("csv header %v, want %v", recs[0], want)
	}
	if len(recs) != 3 || recs[1][0] != "AWNEX_0x17ca" || recs[2][4] != "" {
		t.Errorf("csv rows %v (NULL must be an empty field)", recs)
	}

	checkTableAligned(t, string(queryBytes(t, db, q, "table")), 2)

	// Parquet through COPY, from the read-only file, read back by DuckDB.
	file := filepath.Join(t.TempDir(), "summary.parquet")
	if err := os.WriteFile(file, queryBytes(t, db, q+";", FormatParquet), 0o644); err != nil {
		t.Fatal(err)
	}
	var n, replayed int64
	if err := db.QueryRow("SELECT count(*), sum(replayed) FROM read_parquet(?)", file).Scan(&n, &replayed); err != nil {
		t.Fatal(err)
	}
	if n != 2 || replayed != int64(len(rows)) {
		t.Errorf("parquet export: %d rows, %d replayed; want 2 rows, %d replayed", n, replayed, len(rows))
	}
}

// checkSummaryJSON recomputes verify_summary from the rows written.
func checkSummaryJSON(t *testing.T, data []byte, rows []schemas.VerifyCall) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var got []map[string]any
	for dec.More() {
		var row map[string]any
		if err := dec.Decode(&row); err != nil {
			t.Fatalf("ndjson output does not parse: %v\n%s", err, data)
		}
		got = append(got, row)
	}
	if n := bytes.Count(data, []byte("\n")); n != len(got) {
		t.Errorf("ndjson: %d lines for %d objects", n, len(got))
	}
	type agg struct {
		replayed, reproduced int64
		first                any
	}
	want := map[string]*agg{}
	for _, r := range rows {
		a := want[r.ContractID]
		if a == nil {
			a = &agg{}
			want[r.ContractID] = a
		}
		a.replayed++
		if r.StatusMatch {
			a.reproduced++
		} else if a.first == nil {
			a.first = r.TxIndex
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d summary rows, want %d: %s", len(got), len(want), data)
	}
	for _, g := range got {
		a := want[g["contract_id"].(string)]
		num := func(k string) json.Number {
			n, ok := g[k].(json.Number)
			if !ok {
				t.Fatalf("%s = %#v, want a JSON number", k, g[k])
			}
			return n
		}
		replayed, _ := num("replayed").Int64()
		reproduced, _ := num("reproduced").Int64()
		frac, _ := num("reproduced_rate").Float64()
		if replayed != a.replayed || reproduced != a.reproduced || frac != float64(a.reproduced)/float64(a.replayed) {
			t.Errorf("%v: got %d/%d (%v), want %d/%d", g["contract_id"], reproduced, replayed, frac, a.reproduced, a.replayed)
		}
		if a.first == nil && g["first_diverging_tx"] != nil {
			t.Errorf("first_diverging_tx = %v, want null", g["first_diverging_tx"])
		}
		if a.first != nil {
			if f, _ := num("first_diverging_tx").Int64(); f != a.first {
				t.Errorf("first_diverging_tx = %d, want %v", f, a.first)
			}
		}
	}
}

// checkTableAligned: every column starts at the same offset on every line,
// numbers end at the same offset, and the row count footer is right.
func checkTableAligned(t *testing.T, out string, nrows int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != nrows+3 || lines[len(lines)-1] != "(2 rows)" {
		t.Fatalf("table shape:\n%s", out)
	}
	sep := lines[1]
	if strings.Trim(sep, "- ") != "" {
		t.Fatalf("second line is not the dash rule: %q", sep)
	}
	// Column spans are the dash runs of the rule line.
	spans := regexp.MustCompile(`-+`).FindAllStringIndex(sep, -1)
	if len(spans) != 5 {
		t.Fatalf("want 5 columns, rule %q", sep)
	}
	for _, l := range append([]string{lines[0]}, lines[2:len(lines)-1]...) {
		for i, sp := range spans {
			if sp[0] > 0 && l[sp[0]-1] != ' ' {
				t.Errorf("column %d does not start at %d in %q", i, sp[0], l)
			}
		}
		// replayed is numeric: right-aligned, so its last digit sits at the rule's end.
		if l != lines[0] && l[spans[1][1]-1] == ' ' {
			t.Errorf("number not right-aligned in %q", l)
		}
	}
}

func TestQueryFormatsEdgeCases(t *testing.T) {
	db := memDB(t)
	const q = `SELECT 'a,"b"' AS s, NULL::VARCHAR AS n, true AS ok, 12345678901234::BIGINT AS big,
		1.5::DOUBLE AS f, 3.25::DECIMAL(10,2) AS d, 170141183460469231731687303715884105727::HUGEINT AS huge,
		[1, 2] AS list, {'k': 'v'} AS st, DATE '2024-01-02' AS day, 'line1' || chr(10) || 'line2' AS ml, '' AS empty`
	js := string(queryBytes(t, db, q, "json"))
	want := `{"s":"a,\"b\"","n":null,"ok":true,"big":12345678901234,"f":1.5,"d":3.25,"huge":170141183460469231731687303715884105727,"list":[1,2],"st":{"k":"v"},"day":"2024-01-02","ml":"line1\nline2","empty":""}
`
	if js != want {
		t.Errorf("json\n%s\nwant\n%s", js, want)
	}
	recs := queryCSV(t, db, q)
	wantRec := []string{`a,"b"`, "", "true", "12345678901234", "1.5", "3.25",
		"170141183460469231731687303715884105727", "[1,2]", `{"k":"v"}`, "2024-01-02", "line1\nline2", ""}
	if len(recs) != 2 || !slices.Equal(recs[1], wantRec) {
		t.Errorf("csv records %q\nwant %q", recs, wantRec)
	}
	tb := string(queryBytes(t, db, q, ""))
	if !strings.Contains(tb, `line1\nline2`) || strings.Count(tb, "\n") != 4 {
		t.Errorf("table must keep one line per row:\n%s", tb)
	}

	var empty bytes.Buffer
	if err := Query(ctx, db, "SELECT 1 AS x WHERE false", "ndjson", &empty); err != nil || empty.String() != "" {
		t.Errorf("empty json = %q, %v", empty.String(), err)
	}
	if err := Query(ctx, db, "SELECT 1", "xml", &empty); err == nil {
		t.Error("unknown format: want error")
	}
	if err := Query(ctx, db, "SELECT * FROM no_such_table", "csv", &empty); err == nil {
		t.Error("bad SQL: want error")
	}
}

func TestHivePartitionColumnAndLiveViews(t *testing.T) {
	w := warehouse.New(t.TempDir())
	rows := calls()
	writeCalls(t, w, rows[:4]) // only AWNEX
	db := openMem(t, w.Root)
	var id string
	if err := db.QueryRow("SELECT contract_id FROM verify_calls LIMIT 1").Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("SELECT contract FROM verify_calls"); err == nil {
		t.Error("the hive partition column contract must be hidden (it repeats contract_id)")
	}
	writeCalls(t, w, rows[4:]) // a new part after the views exist
	if n := count(t, db, "verify_calls"); n != int64(len(rows)) {
		t.Errorf("view sees %d rows, want %d: views must read parts at query time", n, len(rows))
	}
}

func TestBuildReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	w := warehouse.New(filepath.Join(dir, "warehouse"))
	dbPath := filepath.Join(dir, "solbehave.duckdb")
	if err := Build(dbPath, w.Root); err != nil { // empty views
		t.Fatal(err)
	}
	writeCalls(t, w, calls())
	if err := Build(dbPath, w.Root); err != nil { // rebuilt over parquet
		t.Fatal(err)
	}
	db, err := Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, "verify_summary"); n != 2 {
		t.Errorf("rebuilt DB: verify_summary has %d rows, want 2", n)
	}
	db.Close()

	// A corrupt part makes the next Build fail; the old DB must survive.
	bad := w.Path(schemas.Contracts.Name(), warehouse.ByContract("X"), "p")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("not parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Build(dbPath, w.Root); err == nil {
		t.Fatal("Build over a corrupt part: want error")
	}
	db, err = Open(dbPath)
	if err != nil {
		t.Fatalf("old DB unusable after a failed Build: %v", err)
	}
	defer db.Close()
	if n := count(t, db, "verify_summary"); n != 2 {
		t.Errorf("old DB after failed Build: %d rows", n)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "warehouse" && e.Name() != "solbehave.duckdb" {
			t.Errorf("Build left %s behind", e.Name())
		}
	}
	if _, err := Open(filepath.Join(dir, "missing.duckdb")); err == nil {
		t.Error("Open of a missing file: want error")
	}
}

func TestSQLViewsLoadInAnyOrder(t *testing.T) {
	db := memDB(t)
	files := []sqlviews.File{ // b needs a, declared nowhere; c needs b, declared
		{Name: "b.sql", Text: "CREATE OR REPLACE VIEW b AS SELECT x + 1 AS y FROM a;"},
		{Name: "c.sql", Text: "-- c: helper\n-- depends: b\nCREATE OR REPLACE VIEW c AS SELECT y * 2 AS z FROM b;"},
		{Name: "a.sql", Text: "CREATE OR REPLACE VIEW a AS SELECT 1 AS x;"},
	}
	if err := loadSQLViews(ctx, db, files); err != nil {
		t.Fatal(err)
	}
	var z int64
	if err := db.QueryRow("SELECT z FROM c").Scan(&z); err != nil || z != 4 {
		t.Fatalf("z = %d, %v", z, err)
	}
	broken := append(files, sqlviews.File{Name: "d.sql", Text: "CREATE OR REPLACE VIEW d AS SELECT * FROM nowhere;"})
	err := loadSQLViews(ctx, memDB(t), broken)
	if err == nil || !strings.Contains(err.Error(), "sql/d.sql") || strings.Contains(err.Error(), "sql/a.sql") {
		t.Fatalf("error must name only the broken file: %v", err)
	}
}

// reading keeps the views named and those their text names, transitively,
// declared or not, and no other.
func TestReadingFollowsWhatViewsName(t *testing.T) {
	files := []sqlviews.File{
		{Name: "a.sql", Text: "CREATE OR REPLACE VIEW a AS SELECT 1 AS x;"},
		{Name: "b.sql", Text: "CREATE OR REPLACE VIEW b AS SELECT x + 1 AS y FROM a;"},
		{Name: "c.sql", Text: "-- depends: b\nCREATE OR REPLACE VIEW c AS SELECT y * 2 AS z FROM b;"},
		{Name: "d.sql", Text: "CREATE OR REPLACE VIEW d AS SELECT 1 AS x;"},
	}
	var got []string
	for _, f := range reading(files, []string{"c"}) {
		got = append(got, f.View())
	}
	if strings.Join(got, ",") != "a,b,c" {
		t.Errorf("reading c: %v, want a,b,c", got)
	}
	if n := len(reading(files, nil)); n != 0 {
		t.Errorf("reading nothing: %d files", n)
	}
}

// ---- helpers ----

// queryBytes is what Query writes for q in format.
func queryBytes(t *testing.T, db *sql.DB, q, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Query(ctx, db, q, format, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// queryCSV is Query's CSV of q, parsed back into records.
func queryCSV(t *testing.T, db *sql.DB, q string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(queryBytes(t, db, q, "csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func memDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func openMem(t *testing.T, root string) *sql.DB {
	t.Helper()
	db, err := OpenInMemory(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func describe(t *testing.T, db *sql.DB, query string) []column {
	t.Helper()
	rows, err := db.Query("DESCRIBE " + query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	names, _ := rows.Columns()
	var cols []column
	for rows.Next() {
		vals := make([]any, len(names))
		ptrs := make([]any, len(names))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, column{Name: vals[0].(string), Type: vals[1].(string)})
	}
	return cols
}

func count(t *testing.T, db *sql.DB, view string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM " + QuoteIdent(view)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// writeZeroRows writes an empty part for a row known only as a value.
func writeZeroRows(t *testing.T, path string, row any) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := parquet.NewWriter(f, parquet.SchemaOf(row)).Close(); err != nil {
		t.Fatal(err)
	}
}

func TestUnpartitionedDatasetView(t *testing.T) {
	w := warehouse.New(t.TempDir())
	flat := schemas.Dataset{Name: "flat", Row: wide{}, Doc: "# flat\n\nA test dataset.\n"}
	if err := warehouse.Write(w.Path("flat", nil, "all"), []wide{{S: "x"}, {S: "y"}}); err != nil {
		t.Fatal(err)
	}
	stmt, err := datasetViewSQL("", w, flat)
	if err != nil {
		t.Fatal(err)
	}
	db := memDB(t)
	if _, err := db.Exec(stmt); err != nil {
		t.Fatalf("%v\n%s", err, stmt)
	}
	if n := count(t, db, "flat"); n != 2 {
		t.Errorf("flat view has %d rows, want 2 (the glob must match top-level parts)", n)
	}
	var comment string
	if err := db.QueryRow("SELECT comment FROM duckdb_views() WHERE view_name = 'flat'").Scan(&comment); err != nil || comment != "A test dataset." {
		t.Errorf("view comment %q, %v", comment, err)
	}
}

// Dataset views hide the partition column and carry a comment per column
// from the schema doc.
func TestDatasetViewsHidePartitionAndCommentColumns(t *testing.T) {
	db := buildWithCalls(t, calls())
	for _, name := range []string{"verify_calls", "replay_calls"} { // with parts, and empty
		var n, commented int
		if err := db.QueryRow(`SELECT count(*) FILTER (WHERE column_name = 'contract'),
			count(*) FILTER (WHERE comment IS NOT NULL AND comment <> '') FROM duckdb_columns() WHERE table_name = ?`, name).Scan(&n, &commented); err != nil {
			t.Fatal(err)
		}
		d, _ := schemas.Lookup(name)
		want := len(documentedColumns(d.Doc)) - len(d.Partitions)
		if n != 0 || commented != want {
			t.Errorf("%s: partition column shown %d times, %d columns commented (want 0, %d)", name, n, commented, want)
		}
	}
	var comment string
	if err := db.QueryRow(`SELECT comment FROM duckdb_columns() WHERE table_name = 'verify_calls' AND column_name = 'contract_id'`).Scan(&comment); err != nil || comment == "" {
		t.Errorf("verify_calls.contract_id comment %q, %v", comment, err)
	}
}
