package views

import (
	"database/sql"
	"fmt"
	"io"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/duckdb/duckdb-go/v2"
)

// Why a type mapping of our own rather than duckdb-go's Arrow interface
// (duckdb.NewArrowFromConn, which hands back an array.RecordReader): that
// interface compiles only under the `duckdb_arrow` build tag, so every go
// build, go vet, go test and go install of the module would need the tag, and
// a plain `go build ./cmd/solbehave` would fail. DuckDB itself writes no Arrow
// IPC file without its community `arrow` extension, which a query may not
// install (extensions are never installed from a query). The mapping below
// reads database/sql column types, which every build has; arrow_test.go holds
// it to DuckDB's own types column by column.

// FormatArrow writes an Arrow IPC file (Feather v2) with zstd-compressed
// buffers, as arrow-go writes it: Arrow readers with a zstd codec open it
// (arrow-go; apache-arrow for JavaScript once a codec is registered).
const FormatArrow = "arrow"

// arrowBatchRows bounds the rows held in memory before a batch is written.
const arrowBatchRows = 64 * 1024

// arrowSink streams a result set into record batches of an IPC file.
type arrowSink struct {
	w       io.Writer
	mem     memory.Allocator
	schema  *arrow.Schema
	types   []dbType
	builder *array.RecordBuilder
	writer  *ipc.FileWriter
	pending int
	batches int
}

func newArrowSink(w io.Writer) *arrowSink {
	return &arrowSink{w: w, mem: memory.NewGoAllocator()}
}

func (a *arrowSink) header(cols []*sql.ColumnType) error {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		t, err := parseDBType(c.DatabaseTypeName())
		if err != nil {
			return fmt.Errorf("arrow: column %s: %w", c.Name(), err)
		}
		a.types = append(a.types, t)
		fields[i] = arrow.Field{Name: c.Name(), Type: t.arrow(), Nullable: true}
	}
	a.schema = arrow.NewSchema(fields, nil)
	a.builder = array.NewRecordBuilder(a.mem, a.schema)
	var err error
	// zstd: an uncompressed IPC file of replay_calls is 50 times its Parquet.
	a.writer, err = ipc.NewFileWriter(a.w, ipc.WithSchema(a.schema), ipc.WithAllocator(a.mem), ipc.WithZstd())
	return err
}

func (a *arrowSink) row(vals []any) error {
	for i, v := range vals {
		if err := appendValue(a.builder.Field(i), a.types[i], v); err != nil {
			return fmt.Errorf("arrow: column %s: %w", a.schema.Field(i).Name, err)
		}
	}
	if a.pending++; a.pending >= arrowBatchRows {
		return a.flush()
	}
	return nil
}

func (a *arrowSink) flush() error {
	rec := a.builder.NewRecordBatch()
	defer rec.Release()
	a.pending = 0
	a.batches++
	return a.writer.Write(rec)
}

func (a *arrowSink) end() error {
	defer a.builder.Release()
	// An empty result still gets one (empty) batch: some readers expect one.
	if a.pending > 0 || a.batches == 0 {
		if err := a.flush(); err != nil {
			return err
		}
	}
	return a.writer.Close()
}

// ---- DuckDB type names ----

// dbType is a parsed DuckDB type name as duckdb-go reports it
// (DatabaseTypeName): a base name, or LIST/ARRAY/STRUCT/MAP/DECIMAL with
// their parts.
type dbType struct {
	name      string // BIGINT, VARCHAR, LIST, ARRAY, STRUCT, MAP, DECIMAL, ...
	elem      *dbType
	size      int // ARRAY length
	fields    []dbField
	key, val  *dbType
	precision int32
	scale     int32
}

type dbField struct {
	name string
	typ  dbType
}

// parseDBType parses names such as `BIGINT`, `VARCHAR[]`, `INTEGER[3]`,
// `DECIMAL(18,3)`, `MAP(VARCHAR, BIGINT)` and `STRUCT("a" BIGINT, "b" VARCHAR[])`.
func parseDBType(s string) (dbType, error) {
	p := &typeParser{s: s}
	t, err := p.typ()
	if err == nil && p.rest() != "" {
		err = fmt.Errorf("unexpected %q", p.rest())
	}
	if err != nil {
		return dbType{}, fmt.Errorf("type %q: %w", s, err)
	}
	return t, nil
}

type typeParser struct {
	s   string
	pos int
}

func (p *typeParser) rest() string { return strings.TrimSpace(p.s[p.pos:]) }

func (p *typeParser) skipSpace() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

func (p *typeParser) peek() byte {
	p.skipSpace()
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *typeParser) expect(c byte) error {
	if p.peek() != c {
		return fmt.Errorf("want %q at %d", c, p.pos)
	}
	p.pos++
	return nil
}

// word reads a base type name, which may have spaces (TIMESTAMP WITH TIME ZONE).
func (p *typeParser) word() string {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.s) && !strings.ContainsRune("()[],", rune(p.s[p.pos])) {
		p.pos++
	}
	return strings.TrimSpace(p.s[start:p.pos])
}

func (p *typeParser) typ() (dbType, error) {
	t, err := p.base()
	if err != nil {
		return t, err
	}
	for p.peek() == '[' { // suffixes: [] list, [N] array
		p.pos++
		n := p.word()
		if err := p.expect(']'); err != nil {
			return t, err
		}
		elem := t
		if n == "" {
			t = dbType{name: "LIST", elem: &elem}
			continue
		}
		size, err := strconv.Atoi(n)
		if err != nil {
			return t, fmt.Errorf("array size %q", n)
		}
		t = dbType{name: "ARRAY", elem: &elem, size: size}
	}
	return t, nil
}

func (p *typeParser) base() (dbType, error) {
	name := strings.ToUpper(p.word())
	if name == "" {
		return dbType{}, fmt.Errorf("missing type name at %d", p.pos)
	}
	if p.peek() != '(' {
		return dbType{name: name}, nil
	}
	p.pos++
	switch name {
	case "DECIMAL":
		return p.decimal()
	case "STRUCT", "UNION":
		fields, err := p.fields()
		return dbType{name: name, fields: fields}, err
	case "MAP":
		return p.mapType()
	}
	return dbType{}, fmt.Errorf("unexpected parameters for %s", name)
}

func (p *typeParser) decimal() (dbType, error) {
	w, s, _ := strings.Cut(p.word(), ",")
	p.pos++ // the comma or ')'
	if s == "" {
		s = p.word()
		if err := p.expect(')'); err != nil {
			return dbType{}, err
		}
	}
	prec, err1 := strconv.Atoi(strings.TrimSpace(w))
	scale, err2 := strconv.Atoi(strings.TrimSpace(s))
	if err1 != nil || err2 != nil {
		return dbType{}, fmt.Errorf("bad DECIMAL parameters")
	}
	return dbType{name: "DECIMAL", precision: int32(prec), scale: int32(scale)}, nil
}

func (p *typeParser) mapType() (dbType, error) {
	k, err := p.typ()
	if err != nil {
		return k, err
	}
	if err := p.expect(','); err != nil {
		return k, err
	}
	v, err := p.typ()
	if err != nil {
		return v, err
	}
	return dbType{name: "MAP", key: &k, val: &v}, p.expect(')')
}

func (p *typeParser) fields() ([]dbField, error) {
	var out []dbField
	for {
		name, err := p.fieldName()
		if err != nil {
			return nil, err
		}
		t, err := p.typ()
		if err != nil {
			return nil, err
		}
		out = append(out, dbField{name: name, typ: t})
		switch p.peek() {
		case ',':
			p.pos++
		case ')':
			p.pos++
			return out, nil
		default:
			return nil, fmt.Errorf("want , or ) at %d", p.pos)
		}
	}
}

// fieldName reads a STRUCT field name: "quoted" ("" escapes a quote) or bare.
func (p *typeParser) fieldName() (string, error) {
	if p.peek() != '"' {
		start := p.pos
		for p.pos < len(p.s) && p.s[p.pos] != ' ' {
			p.pos++
		}
		return p.s[start:p.pos], nil
	}
	p.pos++
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		p.pos++
		if c != '"' {
			b.WriteByte(c)
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == '"' {
			b.WriteByte('"')
			p.pos++
			continue
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("unterminated field name")
}

// fixedArrow maps the DuckDB types that need no parameter to their Arrow
// type.
var fixedArrow = map[string]arrow.DataType{
	"BOOLEAN":   arrow.FixedWidthTypes.Boolean,
	"TINYINT":   arrow.PrimitiveTypes.Int8,
	"SMALLINT":  arrow.PrimitiveTypes.Int16,
	"INTEGER":   arrow.PrimitiveTypes.Int32,
	"BIGINT":    arrow.PrimitiveTypes.Int64,
	"UTINYINT":  arrow.PrimitiveTypes.Uint8,
	"USMALLINT": arrow.PrimitiveTypes.Uint16,
	"UINTEGER":  arrow.PrimitiveTypes.Uint32,
	"UBIGINT":   arrow.PrimitiveTypes.Uint64,
	"FLOAT":     arrow.PrimitiveTypes.Float32,
	"DOUBLE":    arrow.PrimitiveTypes.Float64,
	// DuckDB's sum() of BIGINTs is a HUGEINT; 38 digits hold any such sum.
	"HUGEINT":                  &arrow.Decimal128Type{Precision: 38, Scale: 0},
	"UHUGEINT":                 &arrow.Decimal128Type{Precision: 38, Scale: 0},
	"BLOB":                     arrow.BinaryTypes.Binary,
	"DATE":                     arrow.FixedWidthTypes.Date32,
	"TIMESTAMP":                &arrow.TimestampType{Unit: arrow.Microsecond},
	"TIMESTAMP_S":              &arrow.TimestampType{Unit: arrow.Second},
	"TIMESTAMP_MS":             &arrow.TimestampType{Unit: arrow.Millisecond},
	"TIMESTAMP_NS":             &arrow.TimestampType{Unit: arrow.Nanosecond},
	"TIMESTAMPTZ":              &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"},
	"TIMESTAMP WITH TIME ZONE": &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"},
}

// arrow is the Arrow type a DuckDB type is written as. Types without a
// lossless Arrow counterpart that every reader supports (TIME, INTERVAL,
// UUID, BIT, UNION, ENUM, JSON, ...) are written as their text.
func (t dbType) arrow() arrow.DataType {
	if fixed, ok := fixedArrow[t.name]; ok {
		return fixed
	}
	switch t.name {
	case "DECIMAL":
		return &arrow.Decimal128Type{Precision: t.precision, Scale: t.scale}
	case "LIST":
		return arrow.ListOf(t.elem.arrow())
	case "ARRAY":
		return arrow.FixedSizeListOf(int32(t.size), t.elem.arrow())
	case "STRUCT":
		fields := make([]arrow.Field, len(t.fields))
		for i, f := range t.fields {
			fields[i] = arrow.Field{Name: f.name, Type: f.typ.arrow(), Nullable: true}
		}
		return arrow.StructOf(fields...)
	case "MAP":
		return arrow.MapOf(t.key.arrow(), t.val.arrow())
	}
	return arrow.BinaryTypes.String
}

// ---- values ----

// appendValue appends one scanned value (nil for NULL) to b, whose type is
// t.arrow().
func appendValue(b array.Builder, t dbType, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		return appendAs(bb.Append, v)
	case *array.Int8Builder:
		return appendAs(bb.Append, v)
	case *array.Int16Builder:
		return appendAs(bb.Append, v)
	case *array.Int32Builder:
		return appendAs(bb.Append, v)
	case *array.Int64Builder:
		return appendAs(bb.Append, v)
	case *array.Uint8Builder:
		return appendAs(bb.Append, v)
	case *array.Uint16Builder:
		return appendAs(bb.Append, v)
	case *array.Uint32Builder:
		return appendAs(bb.Append, v)
	case *array.Uint64Builder:
		return appendAs(bb.Append, v)
	case *array.Float32Builder:
		return appendAs(bb.Append, v)
	case *array.Float64Builder:
		return appendAs(bb.Append, v)
	case *array.Decimal128Builder:
		return appendDecimal(bb, v)
	case *array.BinaryBuilder:
		return appendAs(bb.Append, v)
	case *array.StringBuilder:
		bb.Append(text(v, t.name))
		return nil
	case *array.Date32Builder:
		return appendTime(v, func(tm time.Time) { bb.Append(arrow.Date32FromTime(tm)) })
	case *array.TimestampBuilder:
		unit := bb.Type().(*arrow.TimestampType).Unit
		return appendTime(v, func(tm time.Time) { bb.Append(timestamp(tm, unit)) })
	case *array.MapBuilder: // before ListBuilder: a MapBuilder is one
		return appendMap(bb, t, v)
	case *array.ListBuilder:
		return appendList(bb, bb.ValueBuilder(), t, v)
	case *array.FixedSizeListBuilder:
		return appendList(bb, bb.ValueBuilder(), t, v)
	case *array.StructBuilder:
		return appendStruct(bb, t, v)
	}
	return fmt.Errorf("no Arrow builder for %T", b)
}

func appendAs[T any](add func(T), v any) error {
	x, ok := v.(T)
	if !ok {
		var want T
		return fmt.Errorf("value %v is %T, want %T", v, v, want)
	}
	add(x)
	return nil
}

func appendTime(v any, add func(time.Time)) error {
	tm, ok := v.(time.Time)
	if !ok {
		return fmt.Errorf("value %v is %T, want time.Time", v, v)
	}
	add(tm.UTC())
	return nil
}

func timestamp(tm time.Time, unit arrow.TimeUnit) arrow.Timestamp {
	switch unit {
	case arrow.Second:
		return arrow.Timestamp(tm.Unix())
	case arrow.Millisecond:
		return arrow.Timestamp(tm.UnixMilli())
	case arrow.Nanosecond:
		return arrow.Timestamp(tm.UnixNano())
	}
	return arrow.Timestamp(tm.UnixMicro())
}

var maxDecimal38 = new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil), big.NewInt(1))

func appendDecimal(b *array.Decimal128Builder, v any) error {
	var n *big.Int
	switch x := v.(type) {
	case *big.Int:
		n = x
	case duckdb.Decimal:
		n = x.Value
	default:
		return fmt.Errorf("value %v is %T, want a decimal", v, v)
	}
	if new(big.Int).Abs(n).Cmp(maxDecimal38) > 0 {
		return fmt.Errorf("value %s has more than 38 digits (CAST it in the query)", n)
	}
	b.Append(decimal128.FromBigInt(n))
	return nil
}

// listAppender is what ListBuilder and FixedSizeListBuilder share.
type listAppender interface {
	Append(bool)
}

func appendList(b listAppender, values array.Builder, t dbType, v any) error {
	items, ok := v.([]any)
	if !ok {
		return fmt.Errorf("value %v is %T, want a list", v, v)
	}
	if t.name == "ARRAY" && len(items) != t.size {
		return fmt.Errorf("array of %d items, type says %d", len(items), t.size)
	}
	b.Append(true)
	for _, item := range items {
		if err := appendValue(values, *t.elem, item); err != nil {
			return err
		}
	}
	return nil
}

func appendStruct(b *array.StructBuilder, t dbType, v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("value %v is %T, want a struct", v, v)
	}
	b.Append(true)
	for i, f := range t.fields {
		if err := appendValue(b.FieldBuilder(i), f.typ, m[f.name]); err != nil {
			return fmt.Errorf("field %s: %w", f.name, err)
		}
	}
	return nil
}

// appendMap writes a MAP's entries in DuckDB's order (duckdb-go's
// OrderedMap); a plain duckdb.Map, which has no order, is sorted by key text
// so the same value always writes the same bytes.
func appendMap(b *array.MapBuilder, t dbType, v any) error {
	var keys, vals []any
	switch m := v.(type) {
	case duckdb.OrderedMap:
		keys, vals = m.Keys(), m.Values()
	case duckdb.Map:
		for k := range m {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			vals = append(vals, m[k])
		}
	default:
		return fmt.Errorf("value %v is %T, want a map", v, v)
	}
	b.Append(true)
	for i, k := range keys {
		if err := appendValue(b.KeyBuilder(), *t.key, k); err != nil {
			return err
		}
		if err := appendValue(b.ItemBuilder(), *t.val, vals[i]); err != nil {
			return err
		}
	}
	return nil
}
