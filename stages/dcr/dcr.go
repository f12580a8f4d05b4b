// Package dcr is the DCR extraction stage of solbehave paper §IV-E1: for
// every kept contract and every configured extractor it extracts the DCR
// graph of the original's intended lifecycle, writes it as JSON under
// <data>/dcr/<contract_id>/<extractor>.json and as rows of `dcr_graphs`,
// `dcr_events` and `dcr_relations`; it also loads the human annotations
// (data/annotations/dcr/<contract_id>.json) into `dcr_annotations`, which
// `table3_dcr_validation` scores the extractors against (§V-C, Table III).
//
// Extractors (--extractor, comma-separated):
//   - llm:<model>: the paper's extractor, a model behind the
//     OpenAI-compatible endpoint --llm-url; its requests are rows of
//     `llm_calls` with purpose `dcr`, cached like every LLM call.
//   - static: rules over the original's AST, deterministic, no model
//     (internal/dcrextract).
//
// Without --extractor, every LLM generator's model extracts (llm:<model> for
// each --generator openai:<model>), as in the paper; with no LLM generator,
// the static rules do.
//
// Inputs: `contracts` (kept), `reproducibility.artifact` (the original's
// compiler output; recompiled when the artifact is missing) and the corpus
// record (source, history for argument proposals).
package dcr

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/sharedflag"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/subjects"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Stage is the dcr stage.
type Stage struct {
	Extractors  []string // static, llm:<model>; none: dcrextract.DefaultExtractors(Generators)
	Generators  []string // the run's generators (--generator), which choose the default extractors
	History     int      // recorded transactions read for argument proposals
	Annotations string   // folder of <contract_id>.json annotation files
	Temperature float64  // LLM sampling temperature
	MaxTokens   int      // LLM reply limit
	Reference   string   // O3's reference extractor (shared with o3): its graphs are extracted whatever the run's extractors
	LLM         llm.Options

	clients *llm.Pool           // one client per extractor model
	scope   *pipeline.NameScope // what the last Plan covered (see InScope)
}

// New returns the stage with its defaults: the extractors the generators
// imply, the first 1,000 transactions (O2's budget), the repository's
// annotations.
func New() *Stage {
	return &Stage{History: 1000, Annotations: filepath.Join("data", "annotations", "dcr"), MaxTokens: 8192}
}

func (s *Stage) Name() string { return "dcr" }

// Version: bump when the graphs for the same input change.
func (s *Stage) Version() string { return "1" }
func (s *Stage) Summary() string {
	return "extract the DCR graph of each kept original (static rules or an LLM); load the DCR annotations"
}

func (s *Stage) BindFlags(fs *pflag.FlagSet) {
	// Shared: the sequences stage reads the graphs of the same extractors.
	sharedflag.StringList(fs, &s.Extractors, "extractor", s.Extractors, "DCR extractors, comma-separated: static, llm:<model> (default: llm:<model> for every --generator openai:<model>, else static)")
	sharedflag.StringList(fs, &s.Generators, "generator", nil, regen.GeneratorFlagUsage)
	fs.IntVar(&s.History, "dcr-history", s.History, "recorded transactions read to propose event arguments")
	fs.StringVar(&s.Annotations, "dcr-annotations", s.Annotations, "folder of DCR annotation files (<contract_id>.json); \"\" for none")
	config.Between(fs, &s.Temperature, "dcr-temperature", s.Temperature, 0, 2, "LLM sampling temperature for DCR extraction")
	fs.IntVar(&s.MaxTokens, "dcr-max-tokens", s.MaxTokens, "most output tokens of one DCR extraction reply")
	sharedflag.String(fs, &s.Reference, "reference-extractor", "", dcrextract.ReferenceFlagUsage)
	llm.BindFlags(fs, &s.LLM)
}

// extractor is one parsed --extractor value.
type extractor struct {
	Name      string // static, llm:<model>
	Model     string // "" for static
	reference bool   // not named: O3's reference extractor, whose graphs judge every model
}

func parseExtractors(specs []string) ([]extractor, error) {
	var out []extractor
	seen := map[string]bool{}
	for _, spec := range specs {
		spec = strings.TrimSpace(spec)
		var ex extractor
		switch {
		case spec == dcrextract.StaticName:
			ex = extractor{Name: spec}
		case strings.HasPrefix(spec, "llm:") && len(spec) > len("llm:"):
			ex = extractor{Name: spec, Model: strings.TrimPrefix(spec, "llm:")}
		default:
			return nil, fmt.Errorf("--extractor %q: want static or llm:<model>", spec)
		}
		if seen[ex.Name] {
			return nil, fmt.Errorf("--extractor %s named twice", ex.Name)
		}
		seen[ex.Name] = true
		out = append(out, ex)
	}
	if len(out) == 0 {
		return nil, errors.New("--extractor names no extractor")
	}
	return out, nil
}

// unit is what Plan hands to Run.
type unit struct {
	annotations string // annotation unit: the file
	ex          extractor
	rec         *deploy.Record
	loadErr     error
	artifact    string
}

// InScope: a run extracts with the extractors it names and leaves every
// other extractor's graphs (another model's run made them); a unit of a
// contract no longer kept lost its input. Annotations are every run's.
func (s *Stage) InScope(unitID string) bool { return s.scope.Covers(unitID) }

// Plan makes one unit per (kept contract, extractor) and one per annotated
// corpus contract.
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	exs, err := s.withReference()
	if err != nil {
		return nil, err
	}
	if err := s.makeClients(env, exs); err != nil {
		return nil, err
	}
	orig, corpus, err := subjects.Open(env.Warehouse, env.Corpus)
	if err != nil {
		return nil, err
	}
	s.scope = pipeline.NewNameScope(annotationsUnit)
	for _, ex := range exs {
		s.scope.Names[ex.Name] = true
	}
	var units []pipeline.Unit
	for _, e := range corpus.Entries {
		au, err := s.annotationUnit(e)
		if err != nil {
			return nil, err
		}
		units = append(units, au...)
	}
	for _, sub := range subjects.Kept(corpus, orig, s.History, nil) {
		id := sub.Entry.ID
		s.scope.Contracts[id] = true
		for _, ex := range exs {
			u := unit{ex: ex, rec: sub.Record, loadErr: sub.LoadErr, artifact: sub.Artifact}
			fp := pipeline.Fingerprint(s.Version(), dcrextract.Version, ex, s.History, sub.Digest, u.artifact, pipeline.ErrText(sub.LoadErr), s.llmKey(ex))
			units = append(units, pipeline.Unit{ID: id + "/" + ex.Name, Contract: id, Fingerprint: fp, Payload: u,
				Files: []string{graphPath(id, ex.Name)}})
		}
	}
	if len(orig.Kept) == 0 {
		env.Log.Warn("dcr: no kept contract (run verify first); only annotations are loaded")
	}
	return units, nil
}

// withReference are the run's extractors and O3's reference extractor (a
// run of one model judges it by the graphs of the evaluation's reference,
// which a run of another model may have extracted, or a release holds).
func (s *Stage) withReference() ([]extractor, error) {
	exs, err := parseExtractors(s.extractors())
	if err != nil {
		return nil, err
	}
	ref := strings.TrimSpace(s.Reference) // named, or pinned by the evaluation (every run has one; o3 refuses one without)
	if ref == "" || slices.ContainsFunc(exs, func(ex extractor) bool { return ex.Name == ref }) {
		return exs, nil
	}
	extra, err := parseExtractors([]string{ref})
	if err != nil {
		return nil, fmt.Errorf("--reference-extractor: %w", err)
	}
	extra[0].reference = true
	return append(exs, extra[0]), nil
}

// extractors are the named extractors, or the generators' default.
func (s *Stage) extractors() []string {
	if len(s.Extractors) > 0 {
		return s.Extractors
	}
	return dcrextract.DefaultExtractors(s.Generators)
}

// llmKey is what an LLM graph depends on beyond the contract.
func (s *Stage) llmKey(ex extractor) any {
	if ex.Model == "" {
		return nil
	}
	return []any{ex.Model, s.Temperature, s.MaxTokens, dcrextract.PromptDigest()}
}

// annotationsUnit names a contract's annotation unit ("<contract>/annotations").
const annotationsUnit = "annotations"

func (s *Stage) annotationUnit(e etherscan.Entry) ([]pipeline.Unit, error) {
	path, err := annotationPath(s.Annotations, e.ID)
	if err != nil || path == "" {
		return nil, err
	}
	// An unreadable file (a FIFO, a link to a device, over the bound) is the
	// unit's error row when it runs; its error is its fingerprint meanwhile.
	raw, err := inputfile.Read(path, maxAnnotations)
	fp := pipeline.Fingerprint(s.Version(), raw, pipeline.ErrText(err))
	s.scope.Contracts[e.ID] = true
	return []pipeline.Unit{{ID: e.ID + "/" + annotationsUnit, Contract: e.ID, Fingerprint: fp, Payload: unit{annotations: path}}}, nil
}

func (s *Stage) makeClients(env *pipeline.Env, exs []extractor) error {
	for _, ex := range exs {
		if ex.Model != "" && s.LLM.BaseURL == "" && !ex.reference { // the reference's graphs may all be here already
			return fmt.Errorf("--extractor %s needs --llm-url", ex.Name)
		}
	}
	s.clients = llm.NewPool(s.LLM, env.Data)
	return nil
}

// Run does one unit.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, pu pipeline.Unit) (*pipeline.Output, error) {
	u := pu.Payload.(unit)
	if u.annotations != "" {
		return s.runAnnotations(u)
	}
	out := &pipeline.Output{}
	row := schemas.DCRGraph{ContractID: pu.Contract, Extractor: u.ex.Name, Status: "failed"}
	fail := func(class failure.Class, retriable bool, err error) (*pipeline.Output, error) {
		row.Problems = err.Error()
		removeGraph(env.Data, pu.Contract, u.ex.Name)
		pipeline.Add(out, schemas.DCRGraphs, []schemas.DCRGraph{row})
		return out, failure.New(class, retriable, err)
	}
	if u.loadErr != nil {
		return fail(failure.Source, false, u.loadErr)
	}
	orig, err := s.original(ctx, env, u)
	if err != nil {
		return fail(failure.Compile, false, err)
	}
	if u.ex.Model == "" {
		res, err := dcrextract.Static(dcrextract.FromRecord(u.rec, orig))
		if err != nil {
			return fail(failure.DCR, false, err)
		}
		return out, s.store(env, out, &row, res.Graph, res)
	}
	return s.runLLM(ctx, env, u, orig, out, &row, fail)
}

func (s *Stage) runLLM(ctx context.Context, env *pipeline.Env, u unit, orig *solc.Output, out *pipeline.Output,
	row *schemas.DCRGraph, fail func(failure.Class, bool, error) (*pipeline.Output, error)) (*pipeline.Output, error) {
	if raw, ok := pipeline.ReadPublished(env.Data, graphPath(row.ContractID, u.ex.Name)); ok {
		if g, err := dcrgraph.Parse(raw); err == nil {
			return out, s.store(env, out, row, g, nil) // the release's graph, as the published models were judged by it
		}
	}
	if s.LLM.BaseURL == "" {
		return fail(failure.Endpoint, true, fmt.Errorf("--extractor %s needs --llm-url", u.ex.Name))
	}
	in, err := dcrextract.LLMInputFromRecord(u.rec, orig)
	if err != nil {
		return fail(failure.Compile, false, err)
	}
	x := &dcrextract.LLM{Client: s.clients.Client(u.ex.Model), Name: u.ex.Name, Temperature: s.Temperature,
		MaxTokens: s.MaxTokens, Seed: env.Seed}
	outcome, err := x.Extract(ctx, in)
	if outcome != nil {
		pipeline.Add(out, schemas.LLMCalls, callRows(row.ContractID, u.ex.Name, outcome))
		row.Replies = int64(replies(outcome))
	}
	switch {
	case err != nil:
		return fail(failure.LLM, llm.IsTransient(err), err)
	case outcome.Rejected:
		row.Status, row.Problems = "rejected", outcome.Problems()
		removeGraph(env.Data, row.ContractID, u.ex.Name)
		pipeline.Add(out, schemas.DCRGraphs, []schemas.DCRGraph{*row})
		return out, nil
	}
	return out, s.store(env, out, row, outcome.Graph, nil)
}

func replies(o *dcrextract.LLMOutcome) int {
	n := 0
	for _, a := range o.Attempts {
		if a.Response != nil {
			n++
		}
	}
	return n
}

// callRows records every request of an extraction in `llm_calls`; a reply
// that was not a valid graph carries its problems as the error.
func callRows(contractID, extractor string, o *dcrextract.LLMOutcome) []schemas.LLMCall {
	rows := make([]schemas.LLMCall, 0, len(o.Attempts))
	for _, a := range o.Attempts {
		r := llm.CallRow(contractID, extractor, -1, "", a.Request, a.Response, a.Err)
		if a.Err == nil && len(a.Problems) > 0 {
			r.Error = "invalid DCR graph: " + strings.Join(a.Problems, "; ")
		}
		rows = append(rows, r)
	}
	return rows
}

// original loads the original's compiler output, recompiling when the
// verify stage's artifact is missing.
func (s *Stage) original(ctx context.Context, env *pipeline.Env, u unit) (*solc.Output, error) {
	if u.artifact != "" {
		if out, err := artifact.New(env.Data).Get(u.artifact); err == nil {
			return out, nil
		}
	}
	return env.Engines.Solc().Compile(ctx, u.rec.CompileInput(nil))
}

// store writes the graph file and its rows.
func (s *Stage) store(env *pipeline.Env, out *pipeline.Output, row *schemas.DCRGraph, g *dcrgraph.Graph, res *dcrextract.Result) error {
	raw, err := json.MarshalIndent(g, "", " ")
	if err != nil {
		return err
	}
	if g, err = dcrgraph.Parse(raw); err != nil { // rows in the file's (canonical) order
		return err
	}
	rel := graphPath(row.ContractID, row.Extractor)
	if err := atomicfile.WriteFile(filepath.Join(env.Data, rel), append(raw, '\n'), 0o644); err != nil {
		return err
	}
	sum := sha256.Sum256(append(raw, '\n'))
	row.Status, row.Path, row.GraphSHA256 = "ok", rel, hex.EncodeToString(sum[:])
	row.Events, row.Relations = int64(len(g.Events)), int64(len(g.Relations))
	pipeline.Add(out, schemas.DCRGraphs, []schemas.DCRGraph{*row})
	pipeline.Add(out, schemas.DCREvents, eventRows(row.ContractID, row.Extractor, g, res))
	pipeline.Add(out, schemas.DCRRelations, relationRows(row.ContractID, row.Extractor, g, res))
	return nil
}

func (s *Stage) runAnnotations(u unit) (*pipeline.Output, error) {
	f, err := ReadAnnotations(u.annotations)
	if err != nil {
		return nil, failure.New(failure.Annotations, false, err)
	}
	out := &pipeline.Output{}
	pipeline.Add(out, schemas.DCRAnnotations, annotationRows(f, filepath.Base(u.annotations)))
	return out, nil
}

// graphPath is a graph's file relative to the data root.
func graphPath(contractID, extractor string) string {
	return filepath.Join("dcr", warehouse.Sanitize(contractID), warehouse.Sanitize(extractor)+".json")
}

func removeGraph(data, contractID, extractor string) {
	os.Remove(filepath.Join(data, graphPath(contractID, extractor)))
}
