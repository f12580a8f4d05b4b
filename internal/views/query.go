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
	FormatTable = "table" // aligned text for people; numbers right-aligned
	FormatCSV   = "csv"   // RFC 4180, header row first, NULL as empty field
	FormatJSON  = "json"  // array of objects in column order, numbers as numbers
	// FormatArrow (arrow.go): an Arrow IPC file, binary.
)

// sink receives a result set: the columns once, then each row.
type sink interface {
	header(cols []*sql.ColumnType) error
	row(vals []any) error
	end() error
}

// Query runs one SQL query and writes its result to w in format (table, csv
// or json; "" means table). An unknown format fails before the query runs.
func Query(ctx context.Context, db *sql.DB, query string, format string, w io.Writer) error {
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
	case FormatJSON:
		return &jsonSink{w: w}, nil
	case FormatArrow:
		return newArrowSink(w), nil
	}
	return nil, fmt.Errorf("views: unknown format %q (want table, csv, json or arrow)", format)
}

func stream(rows *sql.Rows, s sink) error {
	cols, err := rows.ColumnTypes()
	if err != nil {
		return err
	}
	if err := s.header(cols); err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if err := s.row(vals); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return s.end()
}
