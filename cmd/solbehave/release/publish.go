package release

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
	sqlviews "github.com/solbehave/solbehave/sql"
)

// Release folder layout (also what the datasheet describes).
const (
	releaseWarehouse = "warehouse"
	releaseDB        = "solbehave.duckdb"
	releaseSums      = "SHA256SUMS"
	SchemasFile      = "schemas.md"
	ViewsFile        = "views.sql"
	releaseDCRSchema = "dcr_graph.schema.json"
)

// Publisher writes a release folder from a data folder's current units.
type Publisher struct {
	Data, Corpus string               // the data folder and the corpus its rows were made from
	Warehouse    *warehouse.Warehouse // the data folder's warehouse
	Out          string               // the release folder (new or empty)
	Meta         Meta                 // title, creators, version, licence (meta.go)
	Archive      bool                 // also write Out.tar.zst
	AllowMixed   bool                 // publish datasets that mix a fingerprinted parameter's values
	AllowStale   bool                 // publish the current units' rows when others are stale or failed

	Files, Datasets int    // what Publish wrote
	NoCorpus        string // why the release holds no corpus a new model can run on ("" when it does)
	Rows            int64  // rows published

	manifests []pipeline.Manifest  // the current units'
	selected  *warehouse.Warehouse // their parts, as the views read them
	stale     []string             // units stale or failed: "stage unit: why"
	runs      []schemas.RunRow     // the runs that made the rows published
	mixed     []string             // parameters with several values in one dataset
	spdx      map[string]string
	writing   bool // the release folder was checked empty: a failure removes what it holds
}

// Publish writes the release folder; on failure it removes what it wrote.
func (p *Publisher) Publish(ctx context.Context) error {
	if p.Out == "" {
		return fmt.Errorf("--out DIR is required")
	}
	// A link would have the release written wherever it leads (and read
	// back through it, "is a directory"): refused, named for what it is.
	if st, err := os.Lstat(p.Out); err == nil && st.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("publish: --out %s is a symbolic link, and links are not accepted: give the folder it names, or a new one", p.Out)
	}
	if err := p.Meta.Check(); err != nil {
		return err
	}
	// Two publishes to one folder would both pass the emptiness check and
	// overwrite each other: the second is refused. The lock is on the
	// release's warehouse folder: the folder itself is the DuckDB build's
	// to lock (views.BuildLayout waits for it).
	unlock, err := pipeline.LockFolder(filepath.Join(p.Out, releaseWarehouse))
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	defer unlock()
	if err := p.publish(ctx); err != nil {
		p.removeHalfWritten()
		return err
	}
	return nil
}

func (p *Publisher) publish(ctx context.Context) error {
	if err := emptyDir(p.Out); err != nil {
		return err
	}
	p.writing = true
	src := p.Warehouse
	if _, err := os.Stat(src.Root); err != nil {
		return fmt.Errorf("publish: no warehouse at %s (run the pipeline first): %w", src.Root, err)
	}
	if err := p.checkCurrency(); err != nil { // stale.go
		return err
	}
	for _, m := range p.manifests { // a generator's import:/dir names a folder of this machine
		for k, v := range m.Params {
			m.Params[k] = config.Localless(v)
		}
	}
	if err := p.checkMixing(); err != nil {
		return err
	}
	work, err := views.OpenSelectionInMemory(p.selected)
	if err != nil {
		return err
	}
	defer work.Close()
	steps := []func(context.Context, *sql.DB) error{p.checkSkeletons, p.compact, p.writeRuns, p.writeUnits, p.writeFiles, p.writeCorpus}
	for _, step := range steps {
		if err := step(ctx, work); err != nil {
			return err
		}
	}
	if err := writeDocs(p.Out); err != nil {
		return err
	}
	if err := p.writeDatabaseAndSheet(ctx); err != nil {
		return err
	}
	if err := p.writeMetadata(); err != nil {
		return err
	}
	if err := CheckNoLocalPaths(ctx, p.Out, p.localPaths()); err != nil {
		return err
	}
	n, err := writeChecksums(p.Out)
	p.Files = n + 1
	if err != nil {
		return err
	}
	if err := Check(p.Out); err != nil {
		return fmt.Errorf("publish: the release fails its own check: %w", err)
	}
	if p.Archive {
		return writeArchive(p.Out, ArchivePath(p.Out))
	}
	return nil
}

// writeDatabaseAndSheet builds solbehave.duckdb over the release (relative
// paths), runs every view on it, and writes the README from it.
func (p *Publisher) writeDatabaseAndSheet(ctx context.Context) error {
	dbPath := filepath.Join(p.Out, releaseDB)
	if err := views.BuildLayout(dbPath, filepath.Join(p.Out, releaseWarehouse), views.Relative); err != nil {
		return err
	}
	db, err := views.Open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	// The release must hold what it claims: every view runs on the copy.
	if err := views.RunAll(ctx, db); err != nil {
		return fmt.Errorf("publish: the release's views do not run: %w", err)
	}
	sheet, err := p.datasheet(ctx, db)
	if err != nil {
		return err
	}
	card, err := p.cardFrontMatter(ctx, db)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(p.Out, "README.md"), []byte(card+sheet), 0o644)
}

// removeHalfWritten removes what a failed publish wrote, once it began to
// write: the release folder was new or empty then (emptyDir), so all of its
// content (the archive is written whole or not at all). A folder refused as
// not empty is left alone.
func (p *Publisher) removeHalfWritten() {
	if !p.writing {
		return
	}
	entries, err := os.ReadDir(p.Out)
	if err != nil {
		return // never made, or not the folder publish checked
	}
	for _, e := range entries {
		os.RemoveAll(filepath.Join(p.Out, e.Name()))
	}
	os.Remove(p.Out) // empty now
}

// emptyDir accepts dir when it holds nothing but the empty warehouse
// folder the publish lock made: a release never mixes with an older one.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err == nil && len(entries) == 1 && entries[0].Name() == releaseWarehouse && entries[0].IsDir() {
		entries, err = os.ReadDir(filepath.Join(dir, releaseWarehouse))
	}
	switch {
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("publish: %s is not empty (a release goes into a new folder)", dir)
	}
	return nil
}

// writeDocs writes the dataset docs as one file (a section each), the DCR
// graph JSON schema, and the sql/ views as one file in load order.
func writeDocs(dir string) error {
	var docs strings.Builder
	docs.WriteString("# Datasets\n\nOne section per dataset (the `schemas/<dataset>.md` files of solbehave). " +
		"A release adds `run_id` (the run that made the row, see `runs`) to every dataset but `runs` and `units`.\n")
	for _, d := range schemas.All() {
		docs.WriteString("\n" + strings.Replace(d.Doc, "# ", "## ", 1))
	}
	var sqlText strings.Builder
	sqlText.WriteString("-- The views of solbehave.duckdb (the sql/ folder of solbehave), one per file, in load order.\n")
	for _, f := range views.OrderedSQLFiles() {
		fmt.Fprintf(&sqlText, "\n-- ==== sql/%s ====\n%s\n", f.Name, strings.TrimSpace(f.Text))
	}
	files := map[string]string{SchemasFile: docs.String(), ViewsFile: sqlText.String(), releaseDCRSchema: schemas.DCRGraphSchema}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeChecksums writes SHA256SUMS over every other file, in the format
// `sha256sum -c` checks, sorted by path; it returns how many files it covers.
func writeChecksums(dir string) (int, error) {
	var lines []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil || rel == releaseSums {
			return err
		}
		sum, err := inputfile.Digest(path, inputfile.Whole)
		if err != nil {
			return err
		}
		lines = append(lines, sum+"  "+filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return 0, err
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i][66:] < lines[j][66:] })
	return len(lines), os.WriteFile(filepath.Join(dir, releaseSums), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

// ---- datasheet sections read from the release's DuckDB file ----

func modelsSection(ctx context.Context, db *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Models\n\n")
	return tableSection(ctx, db, b, "no samples yet", `SELECT model, any_value(generator) AS generator,
		count(DISTINCT contract_id) AS contracts, count(*) AS samples,
		count(*) FILTER (WHERE compiled_repaired) AS compiling
		FROM samples GROUP BY model ORDER BY model`)
}

func compilersSection(ctx context.Context, db *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Compilers\n\n")
	return tableSection(ctx, db, b, "no compiled contracts yet", `SELECT compiler_used, count(*) FILTER (WHERE src = 'original') AS originals,
		count(*) FILTER (WHERE src = 'sample') AS samples
		FROM (SELECT compiler_used, 'original' AS src FROM contracts UNION ALL SELECT compiler_used, 'sample' FROM samples)
		WHERE compiler_used <> '' GROUP BY ALL ORDER BY compiler_used`)
}

func viewsSection(_ context.Context, _ *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Views\n\n| view | reproduces |\n|---|---|\n")
	for _, f := range sqlviews.Files() {
		what := f.About()
		fmt.Fprintf(b, "| `%s` | %s |\n", f.View(), strings.ReplaceAll(what, "|", "\\|"))
	}
	return nil
}

// tableSection appends the result of query as a Markdown table, or empty
// (when non-empty) if it has no rows.
func tableSection(ctx context.Context, db *sql.DB, b *strings.Builder, empty, query string) error {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("publish: datasheet: %w", err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []string
	err = views.EachRow(rows, func(vals []any) error {
		cells := make([]string, len(vals))
		for i, v := range vals {
			cells[i] = fmt.Sprint(v)
			if v == nil {
				cells[i] = ""
			}
		}
		lines = append(lines, "| "+strings.Join(cells, " | ")+" |")
		return nil
	})
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		if empty != "" {
			b.WriteString(empty + "\n")
		}
		return nil
	}
	b.WriteString("\n| " + strings.Join(cols, " | ") + " |\n|" + strings.Repeat("---|", len(cols)) + "\n")
	b.WriteString(strings.Join(lines, "\n") + "\n")
	return nil
}
