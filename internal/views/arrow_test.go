package views

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/duckdb/duckdb-go/v2"

	"github.com/solbehave/solbehave/internal/views/viewstest"
)

// TestArrowRoundTrip writes query results as Arrow IPC files, reads them
// back with arrow-go's reader and compares every cell with what DuckDB
// returns for the same query.
func TestArrowRoundTrip(t *testing.T) {
	db := openMem(t, filepath.Join(viewstest.SynthData(t, 3), "warehouse"))
	for _, q := range []string{
		"SELECT * FROM replay_calls ORDER BY ALL",
		"SELECT * FROM fig4_replay",
		"SELECT sum(replayed) AS total, count(*) AS n FROM reproducibility", // HUGEINT
		`SELECT 'a,"b"' AS s, NULL::VARCHAR AS n, true AS ok, 12345678901234::BIGINT AS big, 7::TINYINT AS tiny,
			42::UBIGINT AS u, 1.5::FLOAT AS f32, 'nan'::DOUBLE AS nan, 3.25::DECIMAL(10,2) AS d,
			99999999999999999999999999999999999999::HUGEINT AS huge, [1, NULL, 3] AS list,
			[[1], []]::INTEGER[][] AS nested, [1, 2, 3]::INTEGER[3] AS arr,
			{'k': 'v', 'n': [1.5]} AS st, MAP {'x': 1, 'a': 2} AS m, DATE '2024-01-02' AS day,
			TIMESTAMP '2024-01-02 03:04:05.123456' AS ts, TIMESTAMPTZ '2024-01-02 03:04:05+00' AS tstz,
			TIMESTAMP_NS '2024-01-02 03:04:05.123456789' AS tsns, '\xAA\x00'::BLOB AS raw,
			'5b1e4b8e-2f6a-4c47-9d0a-0e8f5c3b2a11'::UUID AS id, INTERVAL 3 DAY AS iv, TIME '10:11:12' AS tm
		 UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		 	NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL`,
		"SELECT 1 AS x WHERE false",
	} {
		t.Run(q[:min(len(q), 40)], func(t *testing.T) { checkArrowQuery(t, db, q) })
	}
}

func checkArrowQuery(t *testing.T, db *sql.DB, q string) {
	written := queryBytes(t, db, q, FormatArrow)
	names, types, want := duckCells(t, db, q)
	r, err := ipc.NewFileReader(bytes.NewReader(written), ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.NumRecords() == 0 {
		t.Fatal("no record batch")
	}
	for i, f := range r.Schema().Fields() {
		if f.Name != names[i] {
			t.Errorf("field %d named %q, DuckDB column %q", i, f.Name, names[i])
		}
	}
	var got [][]string
	for b := 0; b < r.NumRecords(); b++ {
		rec, err := r.RecordBatch(b)
		if err != nil {
			t.Fatal(err)
		}
		for row := 0; row < int(rec.NumRows()); row++ {
			cells := make([]string, rec.NumCols())
			for c := range cells {
				cells[c] = cellJSON(t, arrowGo(rec.Column(c), row, types[c]), types[c])
			}
			got = append(got, cells)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows read back, DuckDB returned %d", len(got), len(want))
	}
	for i := range want {
		for c := range want[i] {
			if got[i][c] != want[i][c] && !sameFloat(got[i][c], want[i][c], types[c]) {
				t.Errorf("row %d column %s (%s): arrow %s, DuckDB %s", i, names[c], types[c], got[i][c], want[i][c])
			}
		}
	}
}

// duckCells runs q and renders each cell as the JSON output format does.
func duckCells(t *testing.T, db *sql.DB, q string) (names, types []string, cells [][]string) {
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, _ := rows.ColumnTypes()
	for _, c := range cts {
		names = append(names, c.Name())
		types = append(types, c.DatabaseTypeName())
	}
	err = EachRow(rows, func(vals []any) error {
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = cellJSON(t, jsonValue(unorderMaps(v), types[i]), types[i])
			if pt, _ := parseDBType(types[i]); v != nil && pt.arrow().ID() == arrow.STRING {
				row[i] = cellJSON(t, text(v, types[i]), types[i]) // written as its text
			}
		}
		cells = append(cells, row)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names, types, cells
}

// unorderMaps turns duckdb-go's OrderedMaps into plain maps, as the Arrow
// side reads them.
func unorderMaps(v any) any {
	switch x := v.(type) {
	case duckdb.OrderedMap:
		m := map[string]any{}
		vals := x.Values()
		for i, k := range x.Keys() {
			m[fmt.Sprint(k)] = unorderMaps(vals[i])
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = unorderMaps(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = unorderMaps(e)
		}
		return out
	}
	return v
}

// sameFloat: DuckDB's parallel aggregates may differ in the last bits from
// one run of a query to the next, so floats compare to 1e-12.
func sameFloat(a, b, dbType string) bool {
	if dbType != "DOUBLE" && dbType != "FLOAT" {
		return false
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && math.Abs(x-y) <= 1e-12*math.Max(1, math.Abs(y))
}

func cellJSON(t *testing.T, v any, dbType string) string {
	b, err := marshal(v)
	if err != nil {
		t.Fatalf("%s value %#v: %v", dbType, v, err)
	}
	return string(b)
}

// arrowGo converts one Arrow cell to the shape jsonValue gives the DuckDB
// value of the same cell, so the two render to the same JSON.
func arrowGo(a arrow.Array, i int, dbType string) any {
	if a.IsNull(i) {
		return nil
	}
	switch x := a.(type) {
	case *array.Boolean:
		return x.Value(i)
	case *array.Int8:
		return x.Value(i)
	case *array.Int16:
		return x.Value(i)
	case *array.Int32:
		return x.Value(i)
	case *array.Int64:
		return x.Value(i)
	case *array.Uint8:
		return x.Value(i)
	case *array.Uint16:
		return x.Value(i)
	case *array.Uint32:
		return x.Value(i)
	case *array.Uint64:
		return x.Value(i)
	case *array.Float32:
		return finiteOrNil(float64(x.Value(i)))
	case *array.Float64:
		return finiteOrNil(x.Value(i))
	case *array.Decimal128:
		scale := x.DataType().(*arrow.Decimal128Type).Scale
		return json.Number(x.Value(i).ToString(scale))
	case *array.String:
		return x.Value(i)
	case *array.Binary:
		return text(x.Value(i), dbType)
	case *array.Date32:
		return text(x.Value(i).ToTime(), dbType)
	case *array.Timestamp:
		unit := x.DataType().(*arrow.TimestampType).Unit
		return text(x.Value(i).ToTime(unit), dbType)
	case *array.Map: // before List: a Map is one
		return arrowMap(x, i)
	case *array.List:
		start, end := x.ValueOffsets(i)
		return arrowSlice(x.ListValues(), int(start), int(end))
	case *array.FixedSizeList:
		n := int(x.DataType().(*arrow.FixedSizeListType).Len())
		return arrowSlice(x.ListValues(), i*n, (i+1)*n)
	case *array.Struct:
		m := map[string]any{}
		st := x.DataType().(*arrow.StructType)
		for f := 0; f < x.NumField(); f++ {
			m[st.Field(f).Name] = arrowGo(x.Field(f), i, "")
		}
		return m
	}
	panic(fmt.Sprintf("arrowGo: %T", a))
}

func arrowSlice(values arrow.Array, start, end int) []any {
	out := make([]any, 0, end-start)
	for j := start; j < end; j++ {
		out = append(out, arrowGo(values, j, ""))
	}
	return out
}

func arrowMap(m *array.Map, i int) map[string]any {
	start, end := m.ValueOffsets(i)
	out := map[string]any{}
	for j := int(start); j < int(end); j++ {
		out[fmt.Sprint(arrowGo(m.Keys(), j, ""))] = arrowGo(m.Items(), j, "")
	}
	return out
}

func TestParseDBType(t *testing.T) {
	for in, want := range map[string]string{
		"BIGINT":                              "int64",
		"VARCHAR[]":                           "list<item: utf8, nullable>",
		"INTEGER[3]":                          "fixed_size_list<item: int32, nullable>[3]",
		"DECIMAL(18,3)":                       "decimal(18, 3)",
		"MAP(VARCHAR, BIGINT[])":              "map<utf8, list<item: int64, nullable>, items_nullable>",
		`STRUCT("a b" BIGINT, "q""t" DOUBLE)`: `struct<a b: int64, q"t: float64>`,
		"TIMESTAMP WITH TIME ZONE":            "timestamp[us, tz=UTC]",
		"UUID":                                "utf8",
	} {
		got, err := parseDBType(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if s := got.arrow().String(); s != want {
			t.Errorf("%s -> %s, want %s", in, s, want)
		}
	}
	for _, bad := range []string{"", "DECIMAL(x,y)", "STRUCT(\"a BIGINT", "INTEGER[x]", "MAP(VARCHAR)"} {
		if _, err := parseDBType(bad); err == nil {
			t.Errorf("%q: want a parse error", bad)
		}
	}
}

func TestArrowRejectsWhatItCannotHold(t *testing.T) {
	db := memDB(t)
	var buf bytes.Buffer
	err := Query(ctx, db, "SELECT 170141183460469231731687303715884105727::HUGEINT AS h", FormatArrow, &buf)
	if err == nil {
		t.Fatal("a 39-digit HUGEINT: want an error, not a wrapped value")
	}
}
