// Package views is the DuckDB layer over the Parquet warehouse.
//
// [Build] writes <data>/solbehave.duckdb holding only views: one per dataset
// registered in package schemas, with the dataset's name, reading
//
//	read_parquet('<root>/<dataset>/**/*.parquet', hive_partitioning = true, union_by_name = true)
//
// (a typed empty view while the dataset has no part yet, so SQL over it still
// binds), and then every view embedded by package sqlviews (the sql/ folder).
// The views are live: parts written after Build are visible to the next
// query. The views must be built again when a dataset goes from no parts to
// some (its empty view is a placeholder), when a schema gains columns, or
// when sql/ changes: [Update] (stamp.go) does so when the digests the file
// records differ from those of the views a build would write now, and only
// then, so a command with nothing to do does not bind every view again.
// [OpenInMemory] creates the same views in an in-memory database, for
// `solbehave sql` without a built file. [Query] runs SQL and prints the
// result as an aligned table, CSV, JSON or an Arrow IPC file (arrow.go).
//
// Paths (paths.go, location.go): a built file's views name the Parquet files
// by absolute path ([Absolute], the default: works from any folder in any
// client) or relative to the file's folder ([Relative], for a release that
// moves); the warehouse_location view says which. [Rebase] rewrites a file
// whose warehouse moved; [Open] sets file_search_path so both resolve.
// [Check] runs every view and holds it to its documented columns (sql/
// files' `-- columns:` lines, schemas/<dataset>.md); package synth writes a
// synthetic warehouse for the analysis side's tests.
//
// This is the only package that imports DuckDB (cgo, a large static library,
// about a minute to link a binary): keep stages and their tests on
// internal/warehouse, which writes Parquet without it.
package views
