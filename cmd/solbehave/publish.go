package main

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/etherscan"
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
)

func newPublishCmd(g *globals, stages []pipeline.Stage) *cobra.Command {
	var out string
	params := map[string]*pflag.FlagSet{}
	cmd := &cobra.Command{
		Use:   "publish --out DIR",
		Short: "Write a release folder: Parquet datasets, schema docs, SQL views, datasheet, checksums, DuckDB file",
		Long: "Copies the warehouse of --data into DIR (which must not exist or be empty) with a schema doc per " +
			"dataset, the sql/ views, a README datasheet (corpus, models, parameters, seed, compiler and tool " +
			"versions, counts), SHA256SUMS, and solbehave.duckdb whose views use paths relative to DIR, so the " +
			"folder can be moved or downloaded anywhere. Stage flags record the parameters the run used " +
			"(give the ones you ran with; defaults are the paper's).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return fmt.Errorf("--out DIR is required")
			}
			p := &publisher{g: g, out: out, stages: stages, params: params}
			if err := p.publish(cmd.Context()); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "published %s: %d files, %d datasets, %d rows\n", out, p.files, p.datasets, p.rows)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "release folder to write")
	for _, s := range stages {
		fs := pflag.NewFlagSet(s.Name(), pflag.ContinueOnError)
		s.BindFlags(fs)
		params[s.Name()] = fs
		cmd.Flags().AddFlagSet(fs)
	}
	return cmd
}

// newViewsCmd rebuilds the DuckDB file, e.g. after the data folder moved.
func newViewsCmd(g *globals) *cobra.Command {
	var layout string
	cmd := &cobra.Command{
		Use:   "views [--layout absolute|relative]",
		Short: "Rebuild the DuckDB file's views (after moving the data folder, or to change the path layout)",
		Long: "absolute (the default for a new file): views read the warehouse by absolute path, so the file " +
			"works from any folder in any DuckDB client, until the data folder moves (then run this again; " +
			"solbehave's own commands do it by themselves). relative: paths relative to the file's folder, so " +
			"the file moves with the warehouse; clients open it from that folder or SET file_search_path to it.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root := g.env().Warehouse.Root
			var err error
			if layout == "" {
				err = views.Build(g.dbPath(), root)
			} else {
				err = views.BuildLayout(g.dbPath(), root, views.Layout(layout))
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "rebuilt %s\n", g.dbPath())
			return nil
		},
	}
	cmd.Flags().StringVar(&layout, "layout", "", "absolute or relative (default: keep the file's)")
	return cmd
}

type publisher struct {
	g      *globals
	out    string
	stages []pipeline.Stage
	params map[string]*pflag.FlagSet

	files, datasets int
	rows            int64
}

func (p *publisher) publish(ctx context.Context) error {
	if err := emptyDir(p.out); err != nil {
		return err
	}
	src := p.g.env().Warehouse
	if err := copyParquet(src.Root, filepath.Join(p.out, releaseWarehouse)); err != nil {
		return err
	}
	if err := writeDocs(p.out); err != nil {
		return err
	}
	dbPath := filepath.Join(p.out, releaseDB)
	if err := views.BuildLayout(dbPath, filepath.Join(p.out, releaseWarehouse), views.Relative); err != nil {
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
	if err := os.WriteFile(filepath.Join(p.out, "README.md"), []byte(sheet), 0o644); err != nil {
		return err
	}
	n, err := writeChecksums(p.out)
	p.files = n
	return err
}

// emptyDir creates dir, or accepts it when it exists and is empty: a
// release never mixes with an older one.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("publish: %s is not empty (a release goes into a new folder)", dir)
	}
	return nil
}

// copyParquet copies every Parquet part under src, keeping the Hive layout;
// temporary files of an interrupted write (".tmp-") are left out.
func copyParquet(src, dst string) error {
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("publish: no warehouse at %s (run the pipeline first): %w", src, err)
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, warehouse.Ext) || strings.Contains(d.Name(), ".tmp-") {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// writeDocs writes schemas/<dataset>.md for every dataset, the DCR graph
// JSON schema, and sql/<view>.sql for every view.
func writeDocs(dir string) error {
	files := map[string]string{filepath.Join("schemas", "dcr_graph.schema.json"): schemas.DCRGraphSchema}
	for _, d := range schemas.All() {
		files[filepath.Join("schemas", d.Name+".md")] = d.Doc
	}
	for _, f := range sqlviews.Files() {
		files[filepath.Join("sql", f.Name)] = f.Text
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
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
		sum, err := fileSHA256(path)
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

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ---- datasheet ----

func (p *publisher) datasheet(ctx context.Context, db *sql.DB) (string, error) {
	var b strings.Builder
	b.WriteString("# solbehave data release\n\n")
	b.WriteString("Outcomes of the SolBehave benchmark pipeline (does Solidity a model regenerates behave like the " +
		"original contract?), as Parquet datasets with the DuckDB views that compute the paper's tables.\n\n")
	b.WriteString(releaseUsage)
	sections := []func(context.Context, *sql.DB, *strings.Builder) error{
		p.corpusSection, modelsSection, p.parametersSection, compilersSection, p.versionsSection,
		p.countsSection, viewsSection,
	}
	for _, s := range sections {
		if err := s(ctx, db, &b); err != nil {
			return "", err
		}
	}
	b.WriteString("\n## Checksums\n\n`SHA256SUMS` covers every other file: `sha256sum -c SHA256SUMS`.\n")
	return b.String(), nil
}

const releaseUsage = "## Layout and use\n\n" +
	"```\n" +
	"warehouse/<dataset>/contract=<id>/<stage>.parquet   the datasets (Hive partitions)\n" +
	"schemas/<dataset>.md                                columns, types and meaning of each dataset\n" +
	"sql/<view>.sql                                      the views; each file's header names the paper table or figure\n" +
	"solbehave.duckdb                                    every dataset and view, over warehouse/ by relative path\n" +
	"SHA256SUMS                                          checksums of every other file\n" +
	"```\n\n" +
	"The DuckDB file's views name the Parquet files relative to this folder (DuckDB resolves relative paths " +
	"against the working directory or `file_search_path`, never against the database file). Open it from this " +
	"folder, or set the search path:\n\n" +
	"```sh\n" +
	"cd RELEASE && duckdb -readonly solbehave.duckdb -c 'SELECT * FROM fig2_size_distribution'\n" +
	"duckdb -readonly RELEASE/solbehave.duckdb -cmd \"SET file_search_path='$PWD/RELEASE'\"\n" +
	"```\n\n" +
	"```python\n" +
	"con = duckdb.connect('RELEASE/solbehave.duckdb', read_only=True, config={'file_search_path': 'RELEASE'})\n" +
	"```\n\n" +
	"Or query the Parquet files directly: `read_parquet('warehouse/<dataset>/**/*.parquet', hive_partitioning = true)`. " +
	"With solbehave, `solbehave sql --data RELEASE \"...\"` works from anywhere, and `solbehave views --data RELEASE " +
	"--layout absolute` rewrites the file with absolute paths for this machine.\n"

func (p *publisher) corpusSection(ctx context.Context, db *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Corpus\n\n")
	corpus, _ := filepath.Abs(p.g.corpus)
	fmt.Fprintf(b, "- corpus folder: `%s`", corpus)
	if entries, err := etherscan.ListCorpus(p.g.corpus); err == nil {
		fmt.Fprintf(b, " (%d contracts)", len(entries))
	}
	b.WriteString("\n")
	return tableSection(ctx, db, b, "", `SELECT step, contracts FROM construction_funnel ORDER BY step_order`)
}

func modelsSection(ctx context.Context, db *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Models\n\n")
	return tableSection(ctx, db, b, "no samples yet", `SELECT model, any_value(generator) AS generator,
		count(DISTINCT contract_id) AS contracts, count(*) AS samples,
		count(*) FILTER (WHERE compiled_repaired) AS compiling
		FROM samples GROUP BY model ORDER BY model`)
}

func (p *publisher) parametersSection(_ context.Context, _ *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Parameters\n\n")
	fmt.Fprintf(b, "- seed: %d\n", p.g.seed)
	b.WriteString("\nStage parameters as given to `solbehave publish` (the paper's defaults unless set; " +
		"pass the flags the run used). Credentials in URLs are left out.\n\n")
	b.WriteString("| parameter | value | stages |\n|---|---|---|\n")
	// Stages share some flags (--llm-url, ...): one row each, with its stages.
	var names []string
	users := map[string][]string{}
	values := map[string]string{}
	for _, s := range p.stages {
		p.params[s.Name()].VisitAll(func(f *pflag.Flag) {
			if _, seen := users[f.Name]; !seen {
				names = append(names, f.Name)
				values[f.Name] = redactURL(f.Value.String())
			}
			users[f.Name] = append(users[f.Name], s.Name())
		})
	}
	for _, n := range names {
		fmt.Fprintf(b, "| `--%s` | `%s` | %s |\n", n, values[n], strings.Join(users[n], ", "))
	}
	return nil
}

// redactURL drops the user info and query of a URL value (where API keys
// hide); other values pass unchanged.
func redactURL(v string) string {
	u, err := url.Parse(v)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return v
	}
	if u.User != nil || u.RawQuery != "" {
		u.User, u.RawQuery = nil, ""
		return u.String() + " (credentials removed)"
	}
	return v
}

func compilersSection(ctx context.Context, db *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Compilers\n\n")
	return tableSection(ctx, db, b, "no compiled contracts yet", `SELECT compiler_used, count(*) FILTER (WHERE src = 'original') AS originals,
		count(*) FILTER (WHERE src = 'sample') AS samples
		FROM (SELECT compiler_used, 'original' AS src FROM contracts UNION ALL SELECT compiler_used, 'sample' FROM samples)
		WHERE compiler_used <> '' GROUP BY ALL ORDER BY compiler_used`)
}

func (p *publisher) versionsSection(ctx context.Context, db *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Versions\n\n")
	fmt.Fprintf(b, "- solbehave: %s\n", toolVersion())
	fmt.Fprintf(b, "- Go: %s\n", runtime.Version())
	var duck string
	if err := db.QueryRowContext(ctx, "SELECT version()").Scan(&duck); err != nil {
		return err
	}
	fmt.Fprintf(b, "- DuckDB: %s\n", duck)
	stages, err := stageManifests(filepath.Join(p.g.data, "state"))
	if err != nil {
		return err
	}
	if len(stages) > 0 {
		b.WriteString("\n| stage | version | units | failed |\n|---|---|---|---|\n")
		for _, s := range stages {
			fmt.Fprintf(b, "| %s | %s | %d | %d |\n", s.stage, s.version, s.units, s.failed)
		}
	}
	return nil
}

func toolVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v += " " + s.Value
		case "vcs.modified":
			if s.Value == "true" {
				v += " (modified)"
			}
		}
	}
	return v
}

type stageRecord struct {
	stage, version string
	units, failed  int
}

// stageManifests summarises the runner's manifests: which stages ran, at
// which version, over how many units.
func stageManifests(stateDir string) ([]stageRecord, error) {
	dirs, err := os.ReadDir(stateDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []stageRecord
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		rec := stageRecord{stage: d.Name()}
		versions := map[string]bool{}
		files, _ := filepath.Glob(filepath.Join(stateDir, d.Name(), "*.json"))
		for _, f := range files {
			var m struct {
				Version string `json:"version"`
				Failed  bool   `json:"failed"`
			}
			raw, err := os.ReadFile(f)
			if err != nil || json.Unmarshal(raw, &m) != nil {
				continue
			}
			rec.units++
			if m.Failed {
				rec.failed++
			}
			versions[m.Version] = true
		}
		rec.version = strings.Join(sortedKeys(versions), ", ")
		out = append(out, rec)
	}
	return out, nil
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (p *publisher) countsSection(ctx context.Context, db *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Datasets\n\n| dataset | rows | contracts | schema |\n|---|---|---|---|\n")
	for _, d := range schemas.All() {
		var rows, contracts int64
		q := fmt.Sprintf("SELECT count(*), count(DISTINCT contract) FROM %s", quoteIdent(d.Name))
		if !slices.Contains(d.Partitions, warehouse.ContractKey) {
			q = fmt.Sprintf("SELECT count(*), 0 FROM %s", quoteIdent(d.Name))
		}
		if err := db.QueryRowContext(ctx, q).Scan(&rows, &contracts); err != nil {
			return fmt.Errorf("publish: counting %s: %w", d.Name, err)
		}
		p.datasets++
		p.rows += rows
		fmt.Fprintf(b, "| `%s` | %d | %d | [schemas/%s.md](schemas/%s.md) |\n", d.Name, rows, contracts, d.Name, d.Name)
	}
	return nil
}

func viewsSection(_ context.Context, _ *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Views\n\n| view | reproduces |\n|---|---|\n")
	for _, f := range sqlviews.Files() {
		what := viewAbout(f)
		fmt.Fprintf(b, "| [`%s`](sql/%s) | %s |\n", f.View(), f.Name, strings.ReplaceAll(what, "|", "\\|"))
	}
	return nil
}

// viewAbout is what a sql/ file's header says the view reproduces: its
// leading comment lines up to `-- depends:` / `-- columns:`.
func viewAbout(f sqlviews.File) string {
	var parts []string
	for _, line := range strings.Split(f.Text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "--") || strings.HasPrefix(line, "-- depends:") || strings.HasPrefix(line, "-- columns:") {
			break
		}
		parts = append(parts, strings.TrimSpace(strings.TrimPrefix(line, "--")))
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.Join(parts, " "), f.View()+":"))
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
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		cells := make([]string, len(vals))
		for i, v := range vals {
			cells[i] = fmt.Sprint(v)
			if v == nil {
				cells[i] = ""
			}
		}
		lines = append(lines, "| "+strings.Join(cells, " | ")+" |")
	}
	if err := rows.Err(); err != nil {
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
