// Package report is the last stage: it writes <data>/report/index.html, one
// self-contained page (inline CSS and SVG, no script, nothing fetched, so it
// opens offline) with every table of the sql/ views the warehouse can fill
// and the paper's figures drawn by internal/chart (gonum/plot), inline SVG
// with SVG and PDF downloads: Figure 2 (six size buckets, crawled and
// verified), the construction funnel, compile rates by size, Figure 4(a)
// (status match rate, divergent contracts), Figure 4(b) (O2 only / both / O3
// only), coverage, O1 equivalence, the vulnerability detection rate (the
// introduced-vulnerability rate is a table) and mutants exposed;
// Table III among the tables, and the run information from the runs
// dataset. What has no data yet says so.
//
// It reads the warehouse through DuckDB views built in memory over the
// current parts (internal/views), so it sees this run's outputs before the
// runner rebuilds solbehave.duckdb, and holds no lock on that file.
package report

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
	sqlviews "github.com/solbehave/solbehave/sql"
)

// Stage is the report stage.
type Stage struct{}

// New returns the stage.
func New() *Stage { return &Stage{} }

func (s *Stage) Name() string    { return "report" }
func (s *Stage) Version() string { return "1" }
func (s *Stage) Summary() string {
	return "write data/report/index.html: every table the warehouse can fill and the paper's figures as SVG"
}
func (s *Stage) BindFlags(*pflag.FlagSet) {}

// Path is where the page goes under a data folder.
func Path(data string) string { return filepath.Join(data, "report", "index.html") }

// Plan has one unit. Its inputs are everything the page shows: every
// Parquet part the views read (name, size, time) and the views' SQL. The page records the
// digest of the inputs it was drawn from and the unit fingerprint it was
// written under: while the page is there and drawn from the current inputs,
// the unit keeps that fingerprint (and is skipped); new inputs give a new
// one; a missing page gets a fresh one, so deleting the page redraws it.
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	parts, err := partsDigest(env.Warehouse.Root)
	if err != nil {
		return nil, err
	}
	var sqlText []string
	for _, f := range sqlviews.Files() {
		sqlText = append(sqlText, f.Text)
	}
	inputs := pipeline.Fingerprint(s.Version(), parts, sqlText)
	fp := inputs
	if page, err := inputfile.Read(Path(env.Data), maxPage); err != nil { // whatever took its place is redrawn
		fp = pipeline.Fingerprint(inputs, "page missing", time.Now().UnixNano())
	} else if meta(page, inputsMeta) == inputs {
		fp = meta(page, fingerprintMeta)
	}
	return []pipeline.Unit{{ID: "report", Fingerprint: fp, Payload: inputs}}, nil
}

// maxPage bounds the page Plan reads back (a few MiB of SVG).
const maxPage = 256 << 20

// The page's <meta> names for what Plan reads back.
const (
	inputsMeta      = "solbehave-inputs"
	fingerprintMeta = "solbehave-fingerprint"
)

var metaRe = regexp.MustCompile(`<meta name="(solbehave-[a-z]+)" content="([0-9a-f]*)">`)

func meta(page []byte, name string) string {
	for _, m := range metaRe.FindAllSubmatch(page, 3) {
		if string(m[1]) == name {
			return string(m[2])
		}
	}
	return ""
}

// partsDigest lists every part the views read (the current units' outputs,
// see pipeline.Selection) with its size and time. The run records are left
// out: a run writes its record after the page, which shows the run that
// made it without reading it back.
func partsDigest(root string) ([]string, error) {
	w, err := pipeline.Selection(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range schemas.All() {
		if d.RunRecord {
			continue
		}
		files, err := w.Files(d.Name)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			info, err := os.Stat(f)
			if err != nil {
				return nil, err
			}
			rel, _ := filepath.Rel(root, f) // the same inputs wherever --data names the folder from
			out = append(out, fmt.Sprintf("%s %d %d", filepath.ToSlash(rel), info.Size(), info.ModTime().UnixNano()))
		}
	}
	return out, nil
}

// Run renders the page and writes it atomically.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, pu pipeline.Unit) (*pipeline.Output, error) {
	db, err := views.OpenInMemory(env.Warehouse.Root)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	models, err := modelLines(env.Data)
	if err != nil {
		return nil, err
	}
	html, err := RenderPage(ctx, db, madeBy(env.Run), models)
	if err != nil {
		return nil, err
	}
	inputs, _ := pu.Payload.(string)
	stamp := fmt.Sprintf("<meta name=%q content=%q>\n<meta name=%q content=%q>\n",
		inputsMeta, inputs, fingerprintMeta, pu.Fingerprint)
	html = bytes.Replace(html, []byte("<head>\n"), []byte("<head>\n"+stamp), 1)
	if err := atomicfile.WriteFile(Path(env.Data), html, 0o644); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	env.Log.Info("report written", "path", Path(env.Data), "bytes", len(html))
	return &pipeline.Output{}, nil
}

// modelLines are the data folder's models with the runs that wrote their
// units, or the release they came from.
func modelLines(data string) ([]ModelLine, error) {
	runs, err := pipeline.ModelRuns(data)
	if err != nil {
		return nil, err
	}
	var out []ModelLine
	for _, m := range slices.Sorted(maps.Keys(runs)) {
		out = append(out, ModelLine{Model: m, Units: strconv.Itoa(runs[m].Units), Source: "runs " + strings.Join(runs[m].Runs, ", ")})
	}
	imported := pipeline.ImportedModels(data)
	for _, m := range slices.Sorted(maps.Keys(imported)) {
		out = append(out, ModelLine{Model: m, Source: "imported from the release " + imported[m]})
	}
	return out, nil
}

// madeBy is the run drawing the page, as the page names it.
func madeBy(ri *pipeline.RunInfo) *Made {
	if ri == nil || ri.ID == "" {
		return nil
	}
	m := &Made{RunID: ri.ID, Command: ri.Command, Version: ri.Version, Reference: ri.Params["o3"]["reference-extractor"]}
	if !ri.Started.IsZero() {
		m.Started = ri.Started.UTC().Format(time.RFC3339)
	}
	return m
}

// figureIDs lists the ids of every figure, for tests and docs.
func figureIDs() []string {
	var ids []string
	for _, f := range figures {
		ids = append(ids, f.ID)
	}
	return ids
}
