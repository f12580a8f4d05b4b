package views

import (
	"bytes"
	"database/sql"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/duckdb/duckdb-go/v2"
)

// ---- table ----

type tableSink struct {
	w       io.Writer
	names   []string
	numeric []bool
	types   []string
	cells   [][]string
}

func (t *tableSink) header(cols []*sql.ColumnType) error {
	for _, c := range cols {
		t.names = append(t.names, c.Name())
		t.types = append(t.types, c.DatabaseTypeName())
		t.numeric = append(t.numeric, isNumeric(c.DatabaseTypeName()))
	}
	return nil
}

func (t *tableSink) row(vals []any) error {
	cells := make([]string, len(vals))
	for i, v := range vals {
		if v == nil {
			cells[i] = "NULL"
			continue
		}
		if f, ok := v.(float64); ok {
			cells[i] = Readable(t.names[i], f)
			continue
		}
		cells[i] = escapeControl(text(v, t.types[i]))
	}
	t.cells = append(t.cells, cells)
	return nil
}

func (t *tableSink) end() error {
	widths := make([]int, len(t.names))
	for i, n := range t.names {
		widths[i] = utf8.RuneCountInString(n)
	}
	for _, r := range t.cells {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	t.line(&b, t.names, widths)
	dashes := make([]string, len(widths))
	for i, w := range widths {
		dashes[i] = strings.Repeat("-", w)
	}
	t.line(&b, dashes, widths)
	for _, r := range t.cells {
		t.line(&b, r, widths)
	}
	fmt.Fprintf(&b, "(%d row%s)\n", len(t.cells), plural(len(t.cells)))
	_, err := io.WriteString(t.w, b.String())
	return err
}

// line writes one row: columns two spaces apart, numbers right-aligned,
// no trailing blanks.
func (t *tableSink) line(b *strings.Builder, cells []string, widths []int) {
	var l strings.Builder
	for i, c := range cells {
		if i > 0 {
			l.WriteString("  ")
		}
		pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
		if t.numeric[i] {
			l.WriteString(pad + c)
		} else {
			l.WriteString(c + pad)
		}
	}
	b.WriteString(strings.TrimRight(l.String(), " "))
	b.WriteByte('\n')
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// escapeControl keeps one table row on one line.
func escapeControl(s string) string {
	return strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
}

func isNumeric(dbType string) bool {
	switch dbType {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
		"UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT",
		"FLOAT", "DOUBLE", "BIGNUM":
		return true
	}
	return strings.HasPrefix(dbType, "DECIMAL")
}

// ---- csv ----

type csvSink struct {
	w     *csv.Writer
	types []string
}

func newCSVSink(w io.Writer) *csvSink { return &csvSink{w: csv.NewWriter(w)} }

func (c *csvSink) header(cols []*sql.ColumnType) error {
	names := make([]string, len(cols))
	for i, col := range cols {
		names[i] = col.Name()
		c.types = append(c.types, col.DatabaseTypeName())
	}
	return c.w.Write(names)
}

func (c *csvSink) row(vals []any) error {
	rec := make([]string, len(vals))
	for i, v := range vals {
		if v != nil {
			rec[i] = text(v, c.types[i])
		}
	}
	return c.w.Write(rec)
}

func (c *csvSink) end() error {
	c.w.Flush()
	return c.w.Error()
}

// ---- ndjson ----

// jsonSink writes newline-delimited JSON: one object per row and line, so
// readers stream it (pandas read_json(lines=True), jq, DuckDB read_json).
type jsonSink struct {
	w     io.Writer
	keys  [][]byte // each column name, already JSON-encoded
	types []string
}

func (j *jsonSink) header(cols []*sql.ColumnType) error {
	for _, c := range cols {
		k, err := marshal(c.Name())
		if err != nil {
			return err
		}
		j.keys = append(j.keys, k)
		j.types = append(j.types, c.DatabaseTypeName())
	}
	return nil
}

// row writes one object by hand so keys keep the column order.
func (j *jsonSink) row(vals []any) error {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, v := range vals {
		val, err := marshal(jsonValue(v, j.types[i]))
		if err != nil {
			return fmt.Errorf("column %s: %w", j.keys[i], err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(j.keys[i])
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteString("}\n")
	_, err := j.w.Write(b.Bytes())
	return err
}

func (j *jsonSink) end() error { return nil }

// marshal is json.Marshal without HTML escaping and without the newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// ---- values ----

// text renders a non-NULL scanned value for table and csv output.
func text(v any, dbType string) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case []byte:
		return bytesText(x, dbType)
	case time.Time:
		return timeText(x, dbType)
	case *big.Int:
		return x.String()
	case duckdb.Decimal:
		return x.String()
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return fmt.Sprint(x)
	}
	// Lists, structs, maps, unions, intervals: their JSON form.
	if b, err := marshal(jsonValue(v, dbType)); err == nil {
		return string(b)
	}
	return fmt.Sprint(v)
}

func bytesText(b []byte, dbType string) string {
	if dbType == "UUID" && len(b) == 16 {
		h := hex.EncodeToString(b)
		return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
	}
	if utf8.Valid(b) {
		return string(b)
	}
	return `\x` + hex.EncodeToString(b)
}

func timeText(t time.Time, dbType string) string {
	switch dbType {
	case "DATE":
		return t.Format("2006-01-02")
	case "TIME", "TIMETZ":
		return t.Format("15:04:05.999999999")
	case "TIMESTAMPTZ":
		return t.Format(time.RFC3339Nano)
	}
	return t.Format("2006-01-02 15:04:05.999999999")
}

// jsonValue converts a scanned value into one encoding/json renders as the
// JSON a reader expects: integers, floats, decimals and HUGEINTs as numbers
// (NaN and infinities, which JSON lacks, as null), times and UUIDs as text,
// nested lists/structs/maps recursively.
func jsonValue(v any, dbType string) any {
	switch x := v.(type) {
	case nil, bool, string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return x
	case float64:
		return finiteOrNil(x)
	case float32:
		return finiteOrNil(float64(x))
	case *big.Int:
		return json.Number(x.String())
	case duckdb.Decimal:
		return json.Number(x.String())
	case []byte, time.Time:
		return text(x, dbType)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e, "")
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonValue(e, "")
		}
		return out
	case duckdb.Map:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(jsonValue(k, ""))] = jsonValue(e, "")
		}
		return out
	case duckdb.Union:
		return jsonValue(x.Value, "")
	}
	return v // e.g. duckdb.Interval, which has JSON tags
}

func finiteOrNil(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return f
}
