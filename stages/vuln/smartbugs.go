package vuln

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
	engine "github.com/solbehave/solbehave/internal/vuln"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// sbEntry is one entry of SmartBugs Curated's vulnerabilities.json.
type sbEntry struct {
	Name            string   `json:"name"`
	Path            string   `json:"path"`
	Pragma          string   `json:"pragma"`
	CompiledVersion string   `json:"compiled_version"`
	Vulnerabilities []sbVuln `json:"vulnerabilities"`
}

// sbVuln is one labelled vulnerability: a DASP category and its lines.
type sbVuln struct {
	Lines    []int  `json:"lines"`
	Category string `json:"category"`
}

// smartbugsFile is one labelled file: its entry, its source and the
// contract id the stage gives it.
type smartbugsFile struct {
	id     string
	entry  sbEntry
	source string
}

func (f *smartbugsFile) requested() string {
	if f.entry.CompiledVersion != "" {
		return f.entry.CompiledVersion
	}
	return f.entry.Pragma
}

// contractID is `<category>__<file stem>`: unique, and safe as a folder name.
func contractID(path string) string {
	category := filepath.Base(filepath.Dir(path))
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return category + "__" + stem
}

func readSmartBugs(corpus string) ([]*smartbugsFile, error) {
	raw, err := os.ReadFile(filepath.Join(corpus, "vulnerabilities.json"))
	if err != nil {
		return nil, err
	}
	var entries []sbEntry
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("vulnerabilities.json: %w", err)
	}
	files := make([]*smartbugsFile, 0, len(entries))
	seen := map[string]bool{}
	for _, e := range entries {
		if e.Path == "" || strings.Contains(e.Path, "..") {
			return nil, fmt.Errorf("vulnerabilities.json: bad path %q", e.Path)
		}
		src, err := os.ReadFile(filepath.Join(corpus, filepath.FromSlash(e.Path)))
		if err != nil {
			return nil, err
		}
		f := &smartbugsFile{id: contractID(e.Path), entry: e, source: string(src)}
		if seen[f.id] {
			return nil, fmt.Errorf("vulnerabilities.json: two files map to contract id %s", f.id)
		}
		seen[f.id] = true
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].id < files[j].id })
	return files, nil
}

func (s *Stage) planSmartBugs(env *pipeline.Env, ablations []engine.Ablation) ([]pipeline.Unit, error) {
	files, err := readSmartBugs(env.Corpus)
	if err != nil {
		return nil, err
	}
	var units []pipeline.Unit
	for _, f := range files {
		entry, _ := json.Marshal(f.entry)
		units = append(units, pipeline.Unit{ID: f.id + "/labels", Contract: f.id,
			Fingerprint: pipeline.Fingerprint(s.Version(), "labels", entry, f.source), Payload: unit{smartbugs: f, labels: true}})
		for _, a := range ablations {
			units = append(units, pipeline.Unit{ID: unitID(f.id, a), Contract: f.id,
				Fingerprint: s.fingerprint(env, a, "smartbugs", entry, f.source), Payload: unit{smartbugs: f, ablation: a}})
		}
	}
	return units, nil
}

func (s *Stage) runSmartBugs(ctx context.Context, env *pipeline.Env, pu pipeline.Unit, u unit) (*pipeline.Output, error) {
	f := u.smartbugs
	run := schemas.VulnRun{ContractID: f.id, Subject: "smartbugs", Sample: -1, Ablation: string(u.ablation),
		File: f.entry.Path, CompilerRequested: f.requested()}
	out, err := s.compileFile(ctx, env, f, &run)
	if err != nil {
		run.Status, run.Error = "compile_error", err.Error()
		return output(run, nil), pipeline.Fail("compile", false, err)
	}
	c, err := pickTarget(out, fileName(f), StripComments(f.source), s.Target)
	if err != nil {
		run.Status, run.Error = "no_target", err.Error()
		return output(run, nil), pipeline.Fail("compile", false, err)
	}
	run.Target = c.Name
	t, err := engine.DeployStandalone(out, c, engine.BlockFor(out.Release.Version))
	if err != nil {
		run.Status, run.Error = "deploy_error", err.Error()
		return output(run, nil), pipeline.Fail("deploy", false, err)
	}
	return s.detect(ctx, env, t, run, u.ablation)
}

func fileName(f *smartbugsFile) string { return filepath.Base(f.entry.Path) }

// compileFile compiles the comment-stripped file with the version its entry
// names; when that compiler cannot be loaded (not a solc error in the
// source), with the newest release the pragma admits.
func (s *Stage) compileFile(ctx context.Context, env *pipeline.Env, f *smartbugsFile, run *schemas.VulnRun) (*solc.Output, error) {
	src := StripComments(f.source)
	in := solc.Input{Compiler: f.requested(), Sources: map[string]string{fileName(f): src}}
	out, err := env.Engines.Solc().Compile(ctx, in)
	var ce *solc.CompileError
	if err != nil && !errors.As(err, &ce) && ctx.Err() == nil {
		release, perr := solc.PragmaRelease(src)
		if perr != nil {
			return nil, fmt.Errorf("%w (and no pragma release: %v)", err, perr)
		}
		in.Compiler = release
		out, err = env.Engines.Solc().Compile(ctx, in)
		if err == nil {
			out.Release.Substituted = fmt.Sprintf("solc %s cannot be loaded (%v); using %s, the newest release the pragma admits", f.requested(), firstLine(err), release)
		}
	}
	if err != nil {
		return nil, err
	}
	run.CompilerUsed, run.CompilerSubstitution = out.CompilerUsed, out.Release.Substituted
	return out, nil
}

func firstLine(err error) string {
	if err == nil {
		return ""
	}
	return strings.SplitN(err.Error(), "\n", 2)[0]
}

// pickTarget chooses the contract to analyse: the last contract of the file
// (in source order, libraries and interfaces aside) that has code; with
// mode "main", the last such contract that no other contract of the file
// names (inherits from, creates, or holds a variable of), so a trailing
// helper like a log contract is skipped.
func pickTarget(out *solc.Output, file, source, mode string) (*solc.Contract, error) {
	src := out.Sources[file]
	if src == nil {
		return nil, fmt.Errorf("solc output has no source %s", file)
	}
	root, err := solast.Parse(src.AST)
	if err != nil {
		return nil, err
	}
	all := solast.Contracts(root)
	var names []string
	for _, c := range all {
		if cc := out.Contracts[file][c.Name]; c.Kind == "contract" && cc != nil && cc.Creation != "" {
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		return nil, errors.New("the file has no contract with code")
	}
	chosen := names[len(names)-1]
	if mode == "main" {
		chosen = mainContract(all, names, source)
	}
	return out.Contracts[file][chosen], nil
}

// mainContract is the last of names whose name no other contract's text
// mentions; the last of names when every one is mentioned.
func mainContract(all []solast.Contract, names []string, source string) string {
	for i := len(names) - 1; i >= 0; i-- {
		word := regexp.MustCompile(`\b` + regexp.QuoteMeta(names[i]) + `\b`)
		named := false
		for _, c := range all {
			if c.Name != names[i] && word.MatchString(c.Src.Text(source)) {
				named = true
				break
			}
		}
		if !named {
			return names[i]
		}
	}
	return names[len(names)-1]
}

// labelRows maps the file's labels onto the five classes (see
// schemas/vuln_labels.md).
func (f *smartbugsFile) labelRows() []schemas.VulnLabel {
	lines := strings.Split(f.source, "\n")
	type acc struct {
		dasp  []string
		lines []int
	}
	by := map[engine.Class]*acc{}
	for _, v := range f.entry.Vulnerabilities {
		class, ok := mapCategory(v.Category, v.Lines, lines)
		if !ok {
			continue
		}
		a := by[class]
		if a == nil {
			a = &acc{}
			by[class] = a
		}
		if !contains(a.dasp, v.Category) {
			a.dasp = append(a.dasp, v.Category)
		}
		a.lines = append(a.lines, v.Lines...)
	}
	rows := make([]schemas.VulnLabel, 0, len(engine.Classes))
	for _, class := range engine.Classes {
		row := schemas.VulnLabel{ContractID: f.id, File: f.entry.Path, Class: string(class), Lines: "[]"}
		if a := by[class]; a != nil {
			sort.Ints(a.lines)
			b, _ := json.Marshal(a.lines)
			row.Labelled, row.DASP, row.Lines = true, strings.Join(a.dasp, ","), string(b)
		}
		rows = append(rows, row)
	}
	return rows
}

var (
	blockStateRead = regexp.MustCompile(`block\.number|block\.timestamp|\bnow\b`)
	delegateCall   = regexp.MustCompile(`\.delegatecall\b`)
)

// mapCategory is the DASP → class mapping. bad_randomness and
// access_control count only through the labelled lines' code: randomness
// drawn from block.number, block.timestamp or now, and access control
// broken through delegatecall.
func mapCategory(category string, labelled []int, lines []string) (engine.Class, bool) {
	switch category {
	case "reentrancy":
		return engine.Reentrancy, true
	case "arithmetic":
		return engine.Arithmetic, true
	case "time_manipulation":
		return engine.BlockState, true
	case "bad_randomness":
		return engine.BlockState, anyLine(labelled, lines, blockStateRead)
	case "access_control":
		return engine.Delegatecall, anyLine(labelled, lines, delegateCall)
	}
	return "", false
}

func anyLine(labelled []int, lines []string, re *regexp.Regexp) bool {
	for _, n := range labelled {
		if n >= 1 && n <= len(lines) && re.MatchString(StripComments(lines[n-1])) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
