package views

import "database/sql"

// EachRow scans every row of rows into one reused slice of values (DuckDB's
// own Go types: nil for NULL) and hands it to f, which must copy what it
// keeps; then reports the iteration's error.
func EachRow(rows *sql.Rows, f func(vals []any) error) error {
	cols, err := rows.Columns()
	if err != nil {
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
		if err := f(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}
