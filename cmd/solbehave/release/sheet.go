package release

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/solbehave/solbehave/internal/buildinfo"
	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// PaperTitle and paperURL name the paper whose protocol the pipeline runs.
const (
	PaperTitle   = "SolBehave: Evaluating the Behavioural Correctness of LLM-Generated Smart Contracts"
	paperURL     = "https://arxiv.org/abs/2610.18745"
	toolURL      = "https://github.com/solbehave/solbehave"
	releaseTitle = "SolBehave benchmark outcomes (solbehave release)"
)

// PaperAuthors are the paper's authors, its preferred citation's.
var PaperAuthors = []string{"Giovanni Pio Delvecchio", "Stefano Fantazzini", "Giacomo Frisoni", "Gianluca Moro",
	"Lorenzo Bacchiani", "Mario Bravetti", "Thomas Troels Hildebrandt"}

// cardFrontMatter is the Hugging Face dataset card's YAML header: licence,
// one config per dataset with its data file, task categories, size.
func (p *Publisher) cardFrontMatter(ctx context.Context, db *sql.DB) (string, error) {
	type split struct {
		Split string `yaml:"split"`
		Path  string `yaml:"path"`
	}
	type cfg struct {
		Name  string  `yaml:"config_name"`
		Files []split `yaml:"data_files"`
	}
	var configs []cfg
	var most int64
	for _, d := range schemas.All() {
		var n int64
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+views.QuoteIdent(d.Name)).Scan(&n); err != nil {
			return "", err
		}
		most = max(most, n)
		if n == 0 {
			continue // no rows: no configuration to load (the datasets table marks it empty)
		}
		configs = append(configs, cfg{d.Name, []split{{"train", File(d.Name)}}})
	}
	front := map[string]any{
		"license":         strings.ToLower(p.Meta.license),
		"pretty_name":     p.Meta.title,
		"language":        []string{"en"},
		"task_categories": []string{"text-generation"},
		"tags":            []string{"solidity", "smart-contracts", "ethereum", "code-generation", "benchmark", "differential-testing"},
		"size_categories": []string{sizeCategory(most)},
		"configs":         configs,
	}
	b, err := yaml.Marshal(front)
	if err != nil {
		return "", err
	}
	return "---\n" + string(b) + "---\n\n", nil
}

// sizeCategory is Hugging Face's size bucket of the largest dataset.
func sizeCategory(n int64) string {
	switch {
	case n < 1_000:
		return "n<1K"
	case n < 10_000:
		return "1K<n<10K"
	case n < 100_000:
		return "10K<n<100K"
	case n < 1_000_000:
		return "100K<n<1M"
	}
	return "1M<n<10M"
}

func (p *Publisher) datasheet(ctx context.Context, db *sql.DB) (string, error) {
	var b strings.Builder
	b.WriteString("# " + p.Meta.title + "\n\n")
	b.WriteString("Outcomes of the SolBehave benchmark pipeline (does Solidity a model regenerates behave like the " +
		"original contract?), as Parquet datasets with the DuckDB views that compute the paper's tables ([" +
		PaperTitle + "](" + paperURL + ")).\n\n")
	b.WriteString("Published by " + strings.Join(p.Meta.creators, "; ") + ". Please cite the paper whose protocol this " +
		"run follows (the preferred citation in CITATION.cff), and this dataset.\n\n")
	b.WriteString(releaseUses)
	b.WriteString(releaseUsage)
	sections := []func(context.Context, *sql.DB, *strings.Builder) error{
		p.corpusSection, modelsSection, p.parametersSection, p.provenanceSection, compilersSection,
		p.versionsSection, p.countsSection, viewsSection, p.licenceSection,
	}
	for _, s := range sections {
		if err := s(ctx, db, &b); err != nil {
			return "", err
		}
	}
	b.WriteString("\n## Checksums\n\n`SHA256SUMS` covers every other file: `sha256sum -c SHA256SUMS`.\n")
	return b.String(), nil
}

const releaseUses = "## Intended uses\n\n" +
	"- Reproducing and extending the tables and figures of the SolBehave paper from the recorded call outcomes.\n" +
	"- Comparing code-generating models on behavioural fidelity (compilation, historical replay O2, DCR-guided " +
	"replay O3 and its negative probes O4, differential fuzzing O1, vulnerability detection) rather than compile rate alone.\n" +
	"- Studying where regenerated contracts diverge: per call, per function, per contract, with the sample sources, " +
	"skeletons and DCR graphs (`files`) the rows refer to.\n\n" +
	"## Limitations\n\n" +
	"- The original contract is the only specification: a sample that fixes a fault of the original counts as divergent.\n" +
	"- Replay runs on a fresh embedded EVM at each contract's recorded address and block; contracts whose history " +
	"depends on other contracts' state are kept only when at least the verify threshold of their own history reproduces.\n" +
	"- Oracles are bounded by their budgets (see Parameters): an equivalent verdict means no divergence was found within them.\n" +
	"- DCR graphs extracted statically or by a model may miss or add relations; `dcr_annotations` holds the human judgements where any exist.\n" +
	"- Samples and skeletons are derived from verified Ethereum sources whose licences vary (see Licences); " +
	"the data licence does not cover them.\n" +
	"- A run records its parameters and versions (`runs`, `units`); rows made by older solbehave versions may lack them.\n"

const releaseUsage = "\n## Layout and use\n\n" +
	"```\n" +
	"warehouse/<dataset>/<dataset>.parquet   one file per dataset, sorted by contract; each row's run_id names its run\n" +
	"schemas.md                              columns, types and meaning of every dataset\n" +
	"views.sql                               the views (paper tables and figures), in load order\n" +
	"solbehave.duckdb                        every dataset and view, over warehouse/ by relative path\n" +
	"datapackage.json                        Frictionless data package (resources and fields)\n" +
	"CITATION.cff, .zenodo.json, LICENSE     citation, archive metadata, licences\n" +
	"SHA256SUMS                              checksums of every other file\n" +
	"```\n\n" +
	"The DuckDB file's views name the Parquet files relative to this folder (DuckDB resolves relative paths " +
	"against the working directory or `file_search_path`, never against the database file). Open it from this " +
	"folder, or set the search path:\n\n" +
	"```sh\n" +
	"cd RELEASE && duckdb -readonly solbehave.duckdb -c 'SELECT * FROM fig2_size_distribution'\n" +
	"duckdb -readonly RELEASE/solbehave.duckdb -cmd \"SET file_search_path='$PWD/RELEASE'\"\n" +
	"```\n\n" +
	"Rows join to the run that made them: `SELECT r.tool_version, r.parameters FROM replay_calls c JOIN runs r USING (run_id)`; " +
	"`units` lists every unit with its stage version and parameters; `files` holds the files rows point at " +
	"(`SELECT content FROM files WHERE path = ...`). With solbehave, `solbehave sql --data RELEASE \"...\"` works from anywhere.\n"

func (p *Publisher) corpusSection(ctx context.Context, db *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Corpus\n\n")
	digests := map[string]bool{}
	for _, r := range p.runs {
		digests[r.CorpusDigest] = true
	}
	fmt.Fprintf(b, "- corpus digest(s) of the runs: `%s`\n", strings.Join(slices.Sorted(maps.Keys(digests)), "`, `"))
	return tableSection(ctx, db, b, "", `SELECT step, contracts FROM construction_funnel ORDER BY step_order`)
}

// parametersSection lists, per stage, the fingerprinted parameters its
// published units were made with (from their manifests).
func (p *Publisher) parametersSection(_ context.Context, _ *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Parameters\n\nThe fingerprinted parameters the published units were made with, from their " +
		"manifests (`units.params`); parameters that separate rows by design (" + strings.Join(config.SeparatesRows, ", ") +
		") may have several values. Credentials in URLs are removed.\n\n")
	values := map[string]map[string]map[string]bool{} // key -> value -> stages
	missing := 0
	for _, m := range p.manifests {
		if m.Params == nil && m.Run == "" { // a unit of a recorded run without parameters has none (report)
			missing++
		}
		for k, v := range m.Params {
			if values[k] == nil {
				values[k] = map[string]map[string]bool{}
			}
			if values[k][v] == nil {
				values[k][v] = map[string]bool{}
			}
			values[k][v][m.Stage] = true
		}
	}
	b.WriteString("| parameter | value | stages |\n|---|---|---|\n")
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range slices.Sorted(maps.Keys(boolKeys(values[k]))) {
			fmt.Fprintf(b, "| `%s` | `%s` | %s |\n", k, v, strings.Join(slices.Sorted(maps.Keys(values[k][v])), ", "))
		}
	}
	if missing > 0 {
		fmt.Fprintf(b, "\n%d unit(s) were made before parameters were recorded.\n", missing)
	}
	if len(p.mixed) > 0 {
		b.WriteString("\n**Mixed (published with --allow-mixed):**\n\n")
		for _, m := range p.mixed {
			fmt.Fprintf(b, "- %s\n", m)
		}
	}
	p.writeStale(b)    // stale.go
	p.writeNoCorpus(b) // corpus.go
	return nil
}

func boolKeys[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// provenanceSection lists the runs that made the published rows.
func (p *Publisher) provenanceSection(_ context.Context, _ *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Provenance\n\nThe runs that made the published rows (`runs`; every row's `run_id`).\n\n")
	if len(p.runs) == 0 {
		b.WriteString("No recorded run (the data predates run records).\n")
		return nil
	}
	b.WriteString("| run | started | version | revision | engine | exit | units ran | command |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range p.runs {
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s | %d | %d | `%s` |\n", r.RunID, r.StartedAt, r.ToolVersion,
			buildinfo.ShortRev(r.VCSRevision), r.Engine, r.ExitStatus, r.UnitsRan, strings.ReplaceAll(r.Command, "|", "\\|"))
	}
	return nil
}

func (p *Publisher) versionsSection(ctx context.Context, db *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Versions\n\n")
	v := buildinfo.Read()
	fmt.Fprintf(b, "- solbehave that published: %s\n", v.Short())
	fmt.Fprintf(b, "- Go: %s; go-ethereum: %s\n", runtime.Version(), cmp.Or(v.Geth, "unknown"))
	var duck string
	if err := db.QueryRowContext(ctx, "SELECT version()").Scan(&duck); err != nil {
		return err
	}
	fmt.Fprintf(b, "- DuckDB: %s\n", duck)
	type rec struct{ units, failed int }
	stages := map[string]map[string]*rec{}
	for _, m := range p.manifests {
		if stages[m.Stage] == nil {
			stages[m.Stage] = map[string]*rec{}
		}
		r := stages[m.Stage][m.Version]
		if r == nil {
			r = &rec{}
			stages[m.Stage][m.Version] = r
		}
		r.units++
		if m.Failed {
			r.failed++
		}
	}
	b.WriteString("\n| stage | version | units | failed |\n|---|---|---|---|\n")
	for _, s := range slices.Sorted(maps.Keys(boolKeys(stages))) {
		for _, ver := range slices.Sorted(maps.Keys(boolKeys(stages[s]))) {
			fmt.Fprintf(b, "| %s | %s | %d | %d |\n", s, ver, stages[s][ver].units, stages[s][ver].failed)
		}
	}
	return nil
}

func (p *Publisher) countsSection(ctx context.Context, db *sql.DB, b *strings.Builder) error {
	b.WriteString("\n## Datasets\n\n| dataset | rows | contracts | file |\n|---|---|---|---|\n")
	for _, d := range schemas.All() {
		var rows, contracts int64
		q := fmt.Sprintf("SELECT count(*), count(DISTINCT contract_id) FROM %s", views.QuoteIdent(d.Name))
		if !slices.Contains(d.Partitions, warehouse.ContractKey) {
			q = fmt.Sprintf("SELECT count(*), 0 FROM %s", views.QuoteIdent(d.Name))
		}
		if err := db.QueryRowContext(ctx, q).Scan(&rows, &contracts); err != nil {
			return fmt.Errorf("publish: counting %s: %w", d.Name, err)
		}
		p.Datasets++
		p.Rows += rows
		file := "`" + filepathSlash(File(d.Name)) + "`"
		if rows == 0 {
			file += " (empty: this run made no rows of it)"
		}
		fmt.Fprintf(b, "| [`%s`](%s#%s) | %d | %d | %s |\n", d.Name, SchemasFile, d.Name, rows, contracts, file)
	}
	return nil
}

// licenceSection states the data licence and each redistributed source's.
func (p *Publisher) licenceSection(ctx context.Context, db *sql.DB, b *strings.Builder) error {
	fmt.Fprintf(b, "\n## Licences\n\nThe data (every dataset, the DCR graphs) is released under %s (see LICENSE). "+
		"Samples and skeletons (`files` of kind sample, sample_files, skeleton) are derived from verified Ethereum "+
		"sources and keep their licence: the SPDX header of the source where it has one, else `unknown` (the corpus "+
		"does not record Etherscan's LicenseType).\n\n", p.Meta.license)
	return tableSection(ctx, db, b, "no source-derived file", `SELECT contract_id, any_value(license) AS license,
		count(*) AS files FROM files WHERE kind <> 'dcr_graph' GROUP BY contract_id ORDER BY contract_id`)
}
