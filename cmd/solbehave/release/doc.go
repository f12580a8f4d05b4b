// Package release writes what `solbehave publish` hands to a dataset host:
// one Parquet file per dataset with the current units' rows, the runs and
// units that made them, the files rows point at, schema docs and views, a
// dataset card that is also the datasheet, CITATION.cff, .zenodo.json, a
// Frictionless datapackage.json, checksums and a DuckDB file, and checks the
// folder it wrote (Check) before it says so. It refuses a data folder whose
// units are stale or failed, or whose datasets mix a parameter's values,
// unless asked, and never writes a path of this machine.
package release
