package views

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNotReadOnly is a query that is not one statement that only reads.
var ErrNotReadOnly = errors.New("only one query that reads is run (SELECT, FROM, WITH, VALUES, DESCRIBE, SHOW, SUMMARIZE)")

// CheckReadOnly tells whether query is a single SELECT statement (DuckDB
// parses DESCRIBE, SHOW, SUMMARIZE and VALUES as one), by DuckDB's own
// parser: json_serialize_sql parses without binding or running anything
// and serialises SELECT statements only. So COPY and EXPORT (they write
// files: preparing an EXPORT already creates its folder), INSTALL and LOAD
// (extensions), ATTACH, SET, PRAGMA, every catalog change, and a reading
// query followed by any of them are refused before anything runs.
func CheckReadOnly(ctx context.Context, db *sql.DB, query string) error {
	var text string
	if err := db.QueryRowContext(ctx, "SELECT CAST(json_serialize_sql(?::VARCHAR) AS VARCHAR)", query).Scan(&text); err != nil {
		return fmt.Errorf("views: query: %w", err)
	}
	var parsed struct {
		Error      bool              `json:"error"`
		Type       string            `json:"error_type"`
		Message    string            `json:"error_message"`
		Statements []json.RawMessage `json:"statements"`
	}
	if err := json.Unmarshal([]byte(text), &parsed); err != nil {
		return fmt.Errorf("views: query: reading its parse: %w", err)
	}
	switch {
	case parsed.Error && parsed.Type == "not implemented":
		return fmt.Errorf("views: query: %w; it begins %q", ErrNotReadOnly, firstWord(query))
	case parsed.Error:
		return fmt.Errorf("views: query: %s: %s", parsed.Type, parsed.Message)
	case len(parsed.Statements) != 1:
		return fmt.Errorf("views: query: %w; this is %d statements", ErrNotReadOnly, len(parsed.Statements))
	}
	return nil
}

func firstWord(query string) string {
	f := strings.Fields(query)
	if len(f) == 0 {
		return ""
	}
	return strings.ToUpper(f[0])
}
