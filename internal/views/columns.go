package views

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// column is one column of a view: its name and DuckDB type.
type column struct{ Name, Type string }

// rowColumns derives the columns DuckDB reports for a Parquet file written
// from row (a struct value), without a file: it walks the schema parquet-go
// derives from row's tags (the same one warehouse.Write writes) and maps each
// node to the type DuckDB's reader gives it. Tests check the mapping against
// DuckDB reading real files.
func rowColumns(row any) (cols []column, err error) {
	defer func() { // parquet-go panics on row types it cannot map
		if r := recover(); r != nil {
			err = fmt.Errorf("row type %T: %v", row, r)
		}
	}()
	for _, f := range parquet.SchemaOf(row).Fields() {
		t, err := duckType(f)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name(), err)
		}
		cols = append(cols, column{Name: f.Name(), Type: t})
	}
	return cols, nil
}

func duckType(n parquet.Node) (string, error) {
	if n.Repeated() { // a repeated field without a LIST group still reads as a list
		elem, err := duckType(parquet.Required(n))
		return elem + "[]", err
	}
	if !n.Leaf() {
		return groupType(n)
	}
	if t, ok := logicalLeafType(n); ok {
		return t, nil
	}
	return physicalLeafType(n)
}

func groupType(n parquet.Node) (string, error) {
	if lt := n.Type().LogicalType(); lt != nil && lt.Value != nil {
		switch lt.Value.(type) {
		case *format.ListType:
			return listType(n)
		default:
			return "", fmt.Errorf("unsupported group type %s", lt)
		}
	}
	fields := n.Fields()
	parts := make([]string, len(fields))
	for i, f := range fields {
		t, err := duckType(f)
		if err != nil {
			return "", fmt.Errorf("field %s: %w", f.Name(), err)
		}
		parts[i] = structField(f.Name()) + " " + t
	}
	return "STRUCT(" + strings.Join(parts, ", ") + ")", nil
}

// structField quotes a struct field name only where needed, as DuckDB
// prints types (so DESCRIBE output compares equal).
func structField(name string) string {
	if plainIdent.MatchString(name) {
		return name
	}
	return QuoteIdent(name)
}

var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// listType handles the standard 3-level LIST layout: group (LIST) /
// repeated group list / element.
func listType(n parquet.Node) (string, error) {
	fields := n.Fields()
	if len(fields) != 1 || len(fields[0].Fields()) != 1 {
		return "", fmt.Errorf("malformed LIST group")
	}
	elem, err := duckType(fields[0].Fields()[0])
	return elem + "[]", err
}

func logicalLeafType(n parquet.Node) (string, bool) {
	lt := n.Type().LogicalType()
	if lt == nil || lt.Value == nil {
		return "", false
	}
	switch v := lt.Value.(type) {
	case *format.StringType, *format.EnumType:
		return "VARCHAR", true
	case *format.IntType:
		return intType(v.BitWidth, v.IsSigned), true
	case *format.DateType:
		return "DATE", true
	case *format.TimestampType:
		return timestampType(v), true
	case *format.DecimalType:
		return fmt.Sprintf("DECIMAL(%d,%d)", v.Precision, v.Scale), true
	case *format.UUIDType:
		return "UUID", true
	}
	return "", false
}

func intType(bits int8, signed bool) string {
	names := map[int8]string{8: "TINYINT", 16: "SMALLINT", 32: "INTEGER", 64: "BIGINT"}
	if signed {
		return names[bits]
	}
	return "U" + names[bits]
}

func timestampType(t *format.TimestampType) string {
	if t.IsAdjustedToUTC {
		return "TIMESTAMP WITH TIME ZONE"
	}
	if _, ns := t.Unit.Value.(*format.NanoSeconds); ns {
		return "TIMESTAMP_NS"
	}
	return "TIMESTAMP"
}

// physicalTypes are the DuckDB types of Parquet's physical types, for a
// leaf without a logical type.
var physicalTypes = map[parquet.Kind]string{
	parquet.Boolean:           "BOOLEAN",
	parquet.Int32:             "INTEGER",
	parquet.Int64:             "BIGINT",
	parquet.Int96:             "TIMESTAMP",
	parquet.Float:             "FLOAT",
	parquet.Double:            "DOUBLE",
	parquet.ByteArray:         "BLOB",
	parquet.FixedLenByteArray: "BLOB",
}

func physicalLeafType(n parquet.Node) (string, error) {
	if t, ok := physicalTypes[n.Type().Kind()]; ok {
		return t, nil
	}
	return "", fmt.Errorf("unsupported parquet type %s", n.Type())
}
