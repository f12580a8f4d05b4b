package release

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Datasets a release writes itself rather than compacting from the warehouse.
var releaseOwn = map[string]bool{schemas.Runs.Name(): true, schemas.Units.Name(): true, schemas.Files.Name(): true}

// File is where a release keeps a dataset: one Parquet file.
func File(dataset string) string {
	return filepath.Join(releaseWarehouse, dataset, dataset+warehouse.Ext)
}

// checkMixing finds, per dataset, the fingerprinted parameters whose
// manifests (of the units whose parts are in the dataset) hold more than
// one value; the parameters that separate rows by design do not count.
func (p *Publisher) checkMixing() error {
	values := map[string]map[string]map[string]bool{} // dataset -> key -> values
	for _, m := range p.manifests {
		for _, f := range m.Files {
			ds := strings.SplitN(filepath.ToSlash(f), "/", 2)[0]
			for k, v := range m.Params {
				if config.SeparatesRowsByDesign(k) {
					continue
				}
				if values[ds] == nil {
					values[ds] = map[string]map[string]bool{}
				}
				if values[ds][k] == nil {
					values[ds][k] = map[string]bool{}
				}
				values[ds][k][v] = true
			}
		}
	}
	for ds, keys := range values {
		for k, vs := range keys {
			if len(vs) > 1 {
				p.mixed = append(p.mixed, fmt.Sprintf("%s: %s = %s", ds, k, strings.Join(slices.Sorted(maps.Keys(vs)), " | ")))
			}
		}
	}
	sort.Strings(p.mixed)
	if len(p.mixed) > 0 && !p.AllowMixed {
		return fmt.Errorf("publish: datasets mix parameter values (re-run the stages with one configuration, or --allow-mixed):\n  %s",
			strings.Join(p.mixed, "\n  "))
	}
	return nil
}

// compact writes each warehouse dataset as one Parquet file sorted by
// contract (then by part and row, as written), with the run_id of the unit
// that wrote each row; a dataset with no part gets an empty file with its
// columns.
func (p *Publisher) compact(ctx context.Context, db *sql.DB) error {
	if err := p.loadFileRuns(ctx, db); err != nil {
		return err
	}
	for _, d := range schemas.All() {
		if releaseOwn[d.Name] {
			continue
		}
		files, err := p.selected.Files(d.Name)
		if err != nil {
			return err
		}
		out := filepath.Join(p.Out, File(d.Name))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		q := fmt.Sprintf("SELECT *, '' AS run_id FROM %s", views.QuoteIdent(d.Name)) // no part: the typed empty view
		if len(files) > 0 {
			q, err = compactQuery(d, files)
			if err != nil {
				return err
			}
		}
		if _, err := db.ExecContext(ctx, fmt.Sprintf("COPY (%s) TO %s (FORMAT parquet, COMPRESSION zstd)", q, views.QuoteString(out))); err != nil {
			return fmt.Errorf("publish: %s: %w", d.Name, err)
		}
	}
	return nil
}

func compactQuery(d schemas.Dataset, files []string) (string, error) {
	list := make([]string, len(files))
	for i, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return "", err
		}
		list[i] = views.QuoteString(filepath.ToSlash(abs))
	}
	order := "t.filename, t.file_row_number"
	if slices.Contains(d.Partitions, warehouse.ContractKey) {
		order = "t.contract, " + order
	}
	return fmt.Sprintf(`SELECT t.* EXCLUDE (filename, file_row_number), coalesce(r.run_id, '') AS run_id
		FROM read_parquet([%s], hive_partitioning = true, union_by_name = true, filename = true, file_row_number = true) t
		LEFT JOIN release_file_runs r ON r.file = t.filename ORDER BY %s`, strings.Join(list, ", "), order), nil
}

// loadFileRuns gives DuckDB the run that wrote each part (from the manifests).
func (p *Publisher) loadFileRuns(ctx context.Context, db *sql.DB) error {
	root, err := filepath.Abs(p.Warehouse.Root)
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "CREATE OR REPLACE TEMP TABLE release_file_runs (file VARCHAR, run_id VARCHAR)"); err != nil {
		return err
	}
	stmt, err := db.PrepareContext(ctx, "INSERT INTO release_file_runs VALUES (?, ?)")
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, m := range p.manifests {
		for _, f := range m.Files {
			if _, err := stmt.ExecContext(ctx, filepath.ToSlash(filepath.Join(root, f)), m.Run); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeRuns writes the runs that made the published rows, with local paths
// in their command and parameters shown by their last element.
func (p *Publisher) writeRuns(ctx context.Context, _ *sql.DB) error {
	made := map[string]bool{}
	for _, m := range p.manifests {
		made[m.Run] = true
	}
	files, err := p.Warehouse.Files(schemas.Runs.Name())
	if err != nil {
		return err
	}
	var rows []schemas.RunRow
	for _, f := range files {
		rs, err := parquet.ReadFile[schemas.RunRow](f)
		if err != nil {
			return fmt.Errorf("publish: %s: %w", f, err)
		}
		for _, r := range rs {
			if made[r.RunID] {
				rows = append(rows, releaseRun(r))
			}
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].RunID < rows[j].RunID })
	p.runs = rows
	return warehouse.Write(filepath.Join(p.Out, File(schemas.Runs.Name())), rows)
}

// releaseRun removes local paths from a run record.
func releaseRun(r schemas.RunRow) schemas.RunRow {
	r.Command = config.LocallessCommand(r.Command)
	var params map[string]any
	if json.Unmarshal([]byte(r.Parameters), &params) == nil {
		for k, v := range params { // a path key, or a path inside a value (import:/dir)
			switch x := v.(type) {
			case string:
				params[k] = config.Localless(x)
			case []any:
				for i, e := range x {
					if s, ok := e.(string); ok {
						x[i] = config.Localless(s)
					}
				}
			}
		}
		if b, err := json.Marshal(params); err == nil {
			r.Parameters = string(b)
		}
	}
	return r
}

// writeUnits writes the manifests as the units dataset.
func (p *Publisher) writeUnits(context.Context, *sql.DB) error {
	return warehouse.Write(filepath.Join(p.Out, File(schemas.Units.Name())), pipeline.UnitRows(p.manifests))
}

// pointers are the columns whose values name files under the data folder:
// the files dataset ships them. Add a column here when a dataset points at
// a new kind of file.
var pointers = []struct{ dataset, column, kind string }{
	{"dcr_graphs", "path", "dcr_graph"},
	{"generations", "source_path", "sample"},
	{"generations", "files_path", "sample_files"},
	{"samples", "source_path", "sample"},
	{"samples", "files_path", "sample_files"},
	{"skeletons", "skeleton_path", "skeleton"},
}

// writeFiles writes the files the rows point at, with their licences.
func (p *Publisher) writeFiles(ctx context.Context, db *sql.DB) error {
	seen := map[string]bool{}
	var rows []schemas.FileRow
	for _, ptr := range pointers {
		q := fmt.Sprintf("SELECT DISTINCT contract_id, %s FROM %s WHERE %s <> '' ORDER BY ALL",
			views.QuoteIdent(ptr.column), views.QuoteIdent(ptr.dataset), views.QuoteIdent(ptr.column))
		res, err := db.QueryContext(ctx, q)
		if err != nil {
			return fmt.Errorf("publish: files of %s.%s: %w", ptr.dataset, ptr.column, err)
		}
		for res.Next() {
			var contract, rel string
			if err := res.Scan(&contract, &rel); err != nil {
				res.Close()
				return err
			}
			if !seen[rel] {
				seen[rel] = true
				rows = append(rows, p.fileRow(contract, rel, ptr.kind))
			}
		}
		res.Close()
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Path < rows[j].Path })
	return warehouse.Write(filepath.Join(p.Out, File("files")), rows)
}

// fileRow reads one pointed-at file, confined to the data folder.
func (p *Publisher) fileRow(contract, rel, kind string) schemas.FileRow {
	row := schemas.FileRow{Path: rel, ContractID: contract, Kind: kind, License: p.Meta.license}
	if kind != "dcr_graph" {
		row.License = p.sourceLicense(contract)
	}
	if !filepath.IsLocal(rel) {
		row.Error = "not a path inside the data folder"
		return row
	}
	b, err := os.ReadFile(filepath.Join(p.Data, rel))
	if err != nil {
		row.Error = "missing from the data folder"
		return row
	}
	row.Bytes, row.Content = int64(len(b)), string(b)
	row.SHA256 = sha256Hex(b)
	return row
}

var spdxRe = regexp.MustCompile(`SPDX-License-Identifier:\s*([A-Za-z0-9.+\-]+(?:\s+(?:AND|OR|WITH)\s+[A-Za-z0-9.+\-]+)*)`)

// sourceLicense is the SPDX identifier(s) in the verified source of a corpus
// contract, "unknown" where it has none (the corpus does not record
// Etherscan's LicenseType).
func (p *Publisher) sourceLicense(contract string) string {
	if l, ok := p.spdx[contract]; ok {
		return l
	}
	if p.spdx == nil {
		p.spdx = map[string]string{}
	}
	l := "unknown"
	if filepath.IsLocal(contract) {
		if b, err := os.ReadFile(filepath.Join(p.Corpus, contract, "getsourcecode.json")); err == nil {
			ids := map[string]bool{}
			for _, m := range spdxRe.FindAllStringSubmatch(strings.ReplaceAll(string(b), `\n`, "\n"), -1) {
				ids[m[1]] = true
			}
			if len(ids) > 0 {
				l = strings.Join(slices.Sorted(maps.Keys(ids)), " AND ")
			}
		}
	}
	p.spdx[contract] = l
	return l
}
