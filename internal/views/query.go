package views

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"
)

// Formats accepted by [Query].
const (
	FormatTable  = "table"  // aligned text for people; numbers right-aligned
	FormatCSV    = "csv"    // RFC 4180, header row first, NULL as empty field
	FormatNDJSON = "ndjson" // one JSON object per line, keys in column order, numbers as numbers
	FormatJSON   = "json"   // alias of ndjson
	// FormatArrow (arrow.go): an Arrow IPC file, zstd-compressed, binary.
	// FormatParquet (parquet.go): a Parquet file written by DuckDB's COPY, binary.
)

// Formats lists the formats [Query] writes, for help texts.
const Formats = "table, csv, ndjson (json), parquet or arrow"

// Binary tells whether format is a file format rather than text.
func Binary(format string) bool {
	f := strings.ToLower(format)
	return f == FormatArrow || f == FormatParquet
}

// Ext is the file name extension of format.
func Ext(format string) string {
	switch f := strings.ToLower(format); f {
	case FormatJSON, FormatNDJSON:
		return "ndjson"
	case "", FormatTable:
		return "txt"
	default:
		return f
	}
}

// sink receives a result set: the columns once, then each row.
type sink interface {
	header(cols []*sql.ColumnType) error
	row(vals []any) error
	end() error
}

// Query runs one SQL query and writes its result to w in format (see
// [Formats]; "" means table). An unknown format fails before the query runs.
func Query(ctx context.Context, db *sql.DB, query string, format string, w io.Writer) error {
	if strings.EqualFold(format, FormatParquet) {
		return copyParquet(ctx, db, query, w)
	}
	s, err := newSink(format, w)
	if err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("views: query: %w", err)
	}
	defer rows.Close()
	if err := stream(rows, s); err != nil {
		return fmt.Errorf("views: query: %w", err)
	}
	return nil
}

func newSink(format string, w io.Writer) (sink, error) {
	switch strings.ToLower(format) {
	case "", FormatTable:
		return &tableSink{w: w}, nil
	case FormatCSV:
		return newCSVSink(w), nil
	case FormatJSON, FormatNDJSON:
		return &jsonSink{w: w}, nil
	case FormatArrow:
		return newArrowSink(w), nil
	}
	return nil, fmt.Errorf("views: unknown format %q (want %s)", format, Formats)
}

func stream(rows *sql.Rows, s sink) error {
	cols, err := rows.ColumnTypes()
	if err != nil {
		return err
	}
	if err := s.header(cols); err != nil {
		return err
	}
	if err := EachRow(rows, s.row); err != nil {
		return err
	}
	return s.end()
}
