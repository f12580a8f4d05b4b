package warehouse

import (
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/solbehave/solbehave/schemas"

	"github.com/parquet-go/parquet-go"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/redact"
)

// Write stores rows as a zstd-compressed Parquet file at path, creating
// parent folders. The file appears atomically: rows go to
// `.<file>.tmp-<random>` in the same folder, which is fsynced and renamed over
// path, so a crash leaves either the old part or the new one (plus at worst a
// stray tmp file, which neither [Warehouse.Files] nor `*.parquet` globs
// match). Zero rows still write a valid file carrying the schema of T.
func Write[T any](path string, rows []T) (err error) {
	defer recoverAsError(&err, "write "+path)
	rows = redacted(rows)
	err = atomicfile.Write(path, 0o644, func(w io.Writer) error { return encode(w, rows) })
	if err != nil {
		return fmt.Errorf("warehouse: write %s: %w", path, err)
	}
	return nil
}

// redacted is rows with every configured secret masked in their strings
// (a copy: the caller's rows are left as they are).
func redacted[T any](rows []T) []T {
	if !redact.Active() {
		return rows
	}
	out := slices.Clone(rows)
	redact.Value(&out)
	return out
}

func encode[T any](f io.Writer, rows []T) error {
	w := parquet.NewGenericWriter[T](f, parquet.Compression(&parquet.Zstd))
	if _, err := w.Write(rows); err != nil {
		return err
	}
	return w.Close() // flushes pages and writes the footer
}

// Read returns every row of the Parquet file at path. Columns of the file
// missing from T are ignored; columns of T missing from the file read as zero
// values (parquet-go's schema conversion).
func Read[T any](path string) (rows []T, err error) {
	defer recoverAsError(&err, "read "+path)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("warehouse: read: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("warehouse: read %s: %w", path, err)
	}
	rows, err = parquet.Read[T](f, info.Size())
	if err != nil {
		return nil, fmt.Errorf("warehouse: read %s: %w", path, err)
	}
	return rows, nil
}

// ReadDataset returns the rows of every part of a dataset, concatenated in
// sorted path order (so the result is the same run to run).
func ReadDataset[T any](w *Warehouse, dataset schemas.Table[T]) ([]T, error) {
	files, err := w.Files(dataset.Name())
	if err != nil {
		return nil, err
	}
	var all []T
	for _, f := range files {
		rows, err := Read[T](f)
		if err != nil {
			return nil, err
		}
		all = append(all, rows...)
	}
	return all, nil
}

// recoverAsError turns a parquet-go panic (it panics on row types it cannot
// map, e.g. channels or func fields) into an error for the caller.
func recoverAsError(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("warehouse: %s: %v", what, r)
	}
}
