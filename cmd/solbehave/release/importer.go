package release

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// A release takes a new model (`run --from-release R`): its published
// models come into the data folder as rows (every dataset with a model
// column, each model's rows in one part per contract) with their sample
// files, and are never recomputed; the contract-level stages (crawl, verify,
// skeleton, dcr, sequences, the originals' coverage and vuln runs) run again
// on the release's own corpus under its parameters, which gives the rows the
// release holds, and the new model is evaluated beside the published ones.

// importPart names the part an imported model's rows are in.
func importPart(model string) string { return "import-" + warehouse.Sanitize(model) }

// Import takes the models of the release at dir into the data folder (once:
// a release imported before is left as it is) and returns its record.
func Import(ctx context.Context, dir, data string) (*pipeline.ImportedRelease, error) {
	if err := Check(dir); err != nil {
		return nil, fmt.Errorf("--from-release %s: not a release that passes its check: %w", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ReleaseCorpus)); err != nil {
		return nil, fmt.Errorf("--from-release %s: the release has no %s/ folder (published before releases held their corpus): "+
			"a new model cannot be evaluated on it", dir, ReleaseCorpus)
	}
	sum, err := inputfile.Digest(filepath.Join(dir, releaseSums), inputfile.Whole)
	if err != nil {
		return nil, err
	}
	done, err := pipeline.ReadImported(data)
	if err != nil {
		return nil, err
	}
	for _, r := range done {
		if r.Checksum == sum {
			return &r, nil
		}
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	im := &importer{ctx: ctx, db: db, dir: dir, data: data}
	rel, err := im.run(sum)
	if err != nil {
		im.undo()
		return nil, fmt.Errorf("--from-release %s: %w", dir, err)
	}
	return rel, pipeline.WriteImported(data, append(done, *rel))
}

type importer struct {
	ctx       context.Context
	db        *sql.DB
	dir, data string
	wrote     []string // every file written, so a failed import leaves none
}

// undo removes what a failed import wrote: rows no record names would be
// read by the views and never removed.
func (im *importer) undo() {
	for _, f := range im.wrote {
		os.Remove(f)
	}
}

func (im *importer) run(sum string) (*pipeline.ImportedRelease, error) {
	if err := CheckConsistent(im.ctx, im.db, im.dir); err != nil {
		return nil, err
	}
	rel := &pipeline.ImportedRelease{Checksum: sum}
	var zen struct{ Title, Version string }
	if err := ReadJSON(filepath.Join(im.dir, ".zenodo.json"), &zen); err != nil {
		return nil, err
	}
	rel.Title, rel.Version = zen.Title, zen.Version
	var err error
	if rel.Params, err = im.params(); err != nil {
		return nil, err
	}
	models, err := im.strings(fmt.Sprintf("SELECT DISTINCT model FROM %s ORDER BY 1", im.file(schemas.Samples.Name())))
	if err != nil {
		return nil, err
	}
	here, err := pipeline.Models(im.data)
	if err != nil {
		return nil, err
	}
	for _, m := range models {
		if slices.Contains(here, m) {
			return nil, fmt.Errorf("model %s is both in the release and in %s: `solbehave forget --generator %s` one of them first", m, im.data, m)
		}
	}
	if err := pipeline.ClaimModelNames(im.data, models); err != nil { // before the first part is written
		return nil, err
	}
	for _, m := range models {
		got, err := im.model(m)
		if err != nil {
			return nil, fmt.Errorf("model %s: %w", m, err)
		}
		rel.Models = append(rel.Models, *got)
	}
	return rel, im.publishedFiles()
}

// publishedFiles keeps the release's skeletons and DCR graphs (see
// pipeline.PublishedDir): contract-level files a model may have written,
// which the new model's run takes as they are.
func (im *importer) publishedFiles() error {
	rows, err := im.db.QueryContext(im.ctx, "SELECT path, content FROM "+im.file(schemas.Files.Name())+
		" WHERE error = '' AND kind IN ('skeleton', 'dcr_graph') ORDER BY path")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var path, content string
		if err := rows.Scan(&path, &content); err != nil {
			return err
		}
		written, err := pipeline.WritePublished(im.data, path, []byte(content))
		if err != nil {
			return fmt.Errorf("files: %s: %w", path, err)
		}
		im.wrote = append(im.wrote, written)
	}
	return rows.Err()
}

// file is the release's Parquet file of a dataset, as a DuckDB table function.
func (im *importer) file(dataset string) string { return parquetOf(im.dir, dataset) }

func (im *importer) strings(q string) ([]string, error) { return views.Strings(im.ctx, im.db, q) }

// params are the parameters each stage's units were made with (one set per
// stage: publish refuses a dataset that mixes them).
func (im *importer) params() (map[string]map[string]string, error) {
	rows, err := im.db.QueryContext(im.ctx, "SELECT stage, params FROM "+im.file(schemas.Units.Name())+" ORDER BY stage, unit")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]map[string]string{}
	for rows.Next() {
		var stage, raw string
		if err := rows.Scan(&stage, &raw); err != nil {
			return nil, err
		}
		if _, ok := out[stage]; ok {
			continue
		}
		var p map[string]string
		if err := json.Unmarshal([]byte(raw), &p); err != nil {
			return nil, fmt.Errorf("units: %s params: %w", stage, err)
		}
		out[stage] = p
	}
	return out, rows.Err()
}

// model writes one model's rows and sample files into the data folder.
func (im *importer) model(model string) (*pipeline.ImportedModel, error) {
	got := &pipeline.ImportedModel{Model: model}
	w := warehouse.New(filepath.Join(im.data, "warehouse"))
	for _, d := range schemas.All() {
		if d.RunRecord || releaseOwn[d.Name] || !d.HasColumn("model") {
			continue
		}
		parts, err := im.dataset(w, d, model)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
		got.Parts = append(got.Parts, parts...)
	}
	files, err := im.sampleFiles(model)
	got.Files = files
	return got, err
}

// dataset writes one dataset's rows of model, one part per contract.
func (im *importer) dataset(w *warehouse.Warehouse, d schemas.Dataset, model string) ([]string, error) {
	var n int
	q := fmt.Sprintf("SELECT count(*) FROM %s WHERE model = %s", im.file(d.Name), views.QuoteString(model))
	if err := im.db.QueryRowContext(im.ctx, q).Scan(&n); err != nil || n == 0 {
		return nil, err // an empty dataset's file has no partition column
	}
	partitioned := slices.Contains(d.Partitions, warehouse.ContractKey)
	contracts := []string{""}
	if partitioned {
		var err error
		contracts, err = im.strings(fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE model = %s ORDER BY 1",
			warehouse.ContractKey, im.file(d.Name), views.QuoteString(model)))
		if err != nil {
			return nil, err
		}
	}
	var parts []string
	for _, c := range contracts {
		path := w.Path(d.Name, nil, importPart(model))
		where := "model = " + views.QuoteString(model)
		exclude := "run_id"
		if partitioned {
			path = w.Path(d.Name, warehouse.ByContract(c), importPart(model))
			where += " AND " + warehouse.ContractKey + " = " + views.QuoteString(c)
			exclude += ", " + warehouse.ContractKey
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		q := fmt.Sprintf("COPY (SELECT * EXCLUDE (%s) FROM %s WHERE %s) TO %s (FORMAT parquet)", exclude, im.file(d.Name), where,
			views.QuoteString(filepath.ToSlash(path)))
		im.wrote = append(im.wrote, path)
		if _, err := im.db.ExecContext(im.ctx, q); err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(w.Root, path)
		parts = append(parts, rel)
	}
	return parts, nil
}

// sampleFiles writes the model's sample files the release ships.
func (im *importer) sampleFiles(model string) ([]string, error) {
	rows, err := im.db.QueryContext(im.ctx, "SELECT path, contract_id, content FROM "+im.file(schemas.Files.Name())+
		" WHERE error = '' AND kind IN ('sample', 'sample_files') ORDER BY path")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var path, contract, content string
		if err := rows.Scan(&path, &contract, &content); err != nil {
			return nil, err
		}
		if !strings.HasPrefix(path, regen.SampleDir(contract, model)+"/") {
			continue
		}
		im.wrote = append(im.wrote, filepath.Join(im.data, path))
		if err := regen.WriteSampleFile(im.data, path, []byte(content)); err != nil {
			return nil, err
		}
		out = append(out, path)
	}
	return out, rows.Err()
}
