package vuln

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/soltext"
	engine "github.com/solbehave/solbehave/internal/vuln"
	"github.com/solbehave/solbehave/internal/walltime"
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

// maxBenchFile bounds each file of a benchmark corpus (the index and each
// source are KiBs): a FIFO or a link to a device fails the plan, not hangs it.
const maxBenchFile = 16 << 20

func readSmartBugs(corpus string) ([]*smartbugsFile, error) {
	raw, err := inputfile.Read(filepath.Join(corpus, "vulnerabilities.json"), maxBenchFile)
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
		src, err := inputfile.Read(filepath.Join(corpus, filepath.FromSlash(e.Path)), maxBenchFile)
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

func (s *Stage) planSmartBugs(env *pipeline.Env, ablations []engine.Ablation, profiles []engine.Profile) ([]pipeline.Unit, error) {
	files, err := readSmartBugs(env.Corpus)
	if err != nil {
		return nil, err
	}
	if s.CV && !contains(s.Ablations, string(engine.AblationNone)) {
		return nil, fmt.Errorf("vuln: --vuln-cv needs the none ablation (its runs are the default setting's)")
	}
	folds := assignFolds(files, CVFolds, cvFoldSeed)
	var units []pipeline.Unit
	for _, f := range files {
		entry, _ := json.Marshal(f.entry)
		units = append(units, pipeline.Unit{ID: f.id + "/labels", Contract: f.id,
			Fingerprint: pipeline.Fingerprint(s.Version(), "labels+judged", entry, f.source), Payload: unit{smartbugs: f, labels: true}})
		for _, p := range profiles {
			for _, a := range ablations {
				u := unit{smartbugs: f, ablation: a, profile: p, fold: -1}
				if s.CV && a == engine.AblationNone {
					u.fold = folds[f.id]
				}
				units = append(units, pipeline.Unit{ID: unitID(f.id, p, a), Contract: f.id,
					Fingerprint: s.fingerprint(env, p, a, "smartbugs", entry, f.source, u.fold), Payload: u})
			}
		}
	}
	if s.CV {
		for _, p := range profiles {
			units = append(units, s.cvUnits(env, files, folds, p)...)
		}
	}
	return units, nil
}

func (s *Stage) runSmartBugs(ctx context.Context, env *pipeline.Env, pu pipeline.Unit, u unit) (*pipeline.Output, error) {
	if u.cv != nil {
		return s.runCV(ctx, env, u)
	}
	f := u.smartbugs
	run := schemas.VulnRun{ContractID: f.id, Subject: "smartbugs", Sample: -1, Ablation: string(u.ablation), Profile: string(u.profile),
		File: f.entry.Path, CompilerRequested: f.requested()}
	t, sites, status, err := s.deploySmartBugs(ctx, env, f, &run)
	if err != nil {
		run.Status, run.Error = status, err.Error()
		out := output(run, nil)
		s.addDefaultCV(out, u, status, nil)
		step := failure.Compile
		if status == "deploy_error" {
			step = failure.Deploy
		}
		return out, failure.New(step, false, err)
	}
	out, rep, err := s.detectReport(ctx, env, t, run, u.profile, u.ablation)
	if walltime.Is(err) {
		return nil, err
	}
	if rep != nil {
		pipeline.Add(out, schemas.VulnSites, sites().rows(run, rep))
	}
	if err != nil {
		s.addDefaultCV(out, u, "error", nil)
	} else {
		s.addDefaultCV(out, u, "ok", rep)
	}
	return out, err
}

// addDefaultCV adds the default setting's vuln_cv rows to the output of a
// file's ablation-none run, in a cross-validation run.
func (s *Stage) addDefaultCV(out *pipeline.Output, u unit, status string, rep *engine.Report) {
	if s.CV && u.fold >= 0 && u.ablation == engine.AblationNone {
		pipeline.Add(out, schemas.VulnCV, s.cvRows(u.smartbugs, u.fold, &CVSettings[0], u.profile, status, rep))
	}
}

// deploySmartBugs compiles a file, picks its target and deploys it, with
// the target's site mapper built on demand (a cross-validation run keeps no
// sites); on failure the status names the step (compile_error, no_target,
// deploy_error).
func (s *Stage) deploySmartBugs(ctx context.Context, env *pipeline.Env, f *smartbugsFile, run *schemas.VulnRun) (engine.Target, func() *siteMapper, string, error) {
	out, err := s.compileFile(ctx, env, f, run)
	if err != nil {
		return engine.Target{}, nil, "compile_error", err
	}
	c, err := pickTarget(out, fileName(f), s.Target)
	if err != nil {
		return engine.Target{}, nil, "no_target", err
	}
	run.Target = c.Name
	t, err := engine.DeployStandalone(out, c, engine.BlockFor(out.Release.Version))
	if err != nil {
		return engine.Target{}, nil, "deploy_error", err
	}
	run.Deployment = t.Deployment
	code := t.Chain.Code(t.Address)
	sites := func() *siteMapper { return newSiteMapper(out, c, fileName(f), f.source, code) }
	return t, sites, "", nil
}

func fileName(f *smartbugsFile) string { return filepath.Base(f.entry.Path) }

// compileFile compiles the comment-stripped file with the version its entry
// names; when that compiler cannot be loaded (not a solc error in the
// source, nor a start the machine made slow), with the newest release the
// pragma admits.
func (s *Stage) compileFile(ctx context.Context, env *pipeline.Env, f *smartbugsFile, run *schemas.VulnRun) (*solc.Output, error) {
	src := soltext.BlankComments(f.source)
	in := solc.Input{Compiler: f.requested(), Sources: map[string]string{fileName(f): src}}
	out, err := env.Engines.Solc().Compile(ctx, in)
	var ce *solc.CompileError
	if err != nil && !errors.As(err, &ce) && !walltime.Is(err) && ctx.Err() == nil {
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
	if errors.As(err, &ce) && f.entry.CompiledVersion == "" {
		out, err = compileOlder(ctx, env, in, src, err)
	}
	if err != nil {
		return nil, err
	}
	run.CompilerUsed, run.CompilerSubstitution = out.CompilerUsed, out.Release.Substituted
	return out, nil
}

// seriesCaps bound a pragma range to an older compiler series, newest first.
var seriesCaps = []string{"<0.8.0", "<0.7.0", "<0.6.0", "<0.5.0"}

// compileOlder retries a file whose entry names only a pragma range
// (SolidiFI) and that the newest release the range admits refused (`>=0.5.11`
// compiled with 0.8.30): the newest release of each older series the range
// admits, newest first, until one compiles it. The first error stands when
// none does.
func compileOlder(ctx context.Context, env *pipeline.Env, in solc.Input, src string, first error) (*solc.Output, error) {
	tried := map[string]bool{in.Compiler: true}
	if newest, err := solc.PragmaRelease(src); err == nil {
		tried[newest] = true
	}
	for _, cap := range seriesCaps {
		release, err := solc.PragmaRelease(src + "\npragma solidity " + cap + ";")
		if err != nil || tried[release] {
			continue
		}
		tried[release] = true
		in.Compiler = release
		out, err := env.Engines.Solc().Compile(ctx, in)
		var ce *solc.CompileError
		switch {
		case err == nil:
			out.Release.Substituted = fmt.Sprintf("the newest release the pragma admits cannot compile the file (%s); using %s, the newest of an older series it admits", firstLine(first), release)
			return out, nil
		case !errors.As(err, &ce):
			return nil, err
		}
	}
	return nil, first
}

func firstLine(err error) string {
	if err == nil {
		return ""
	}
	return strings.SplitN(err.Error(), "\n", 2)[0]
}

// pickTarget chooses the contract to analyse among the file's contracts
// with code (libraries, interfaces and abstract contracts aside):
//
//   - main (the default): the file's main contract (see mainContract).
//   - last: the last such contract in source order. SmartBugs files often
//     end with a helper: the Log contract of 16 reentrancy files, an
//     attacker (governmental_survey, modifier_reentrancy), the library a
//     contract delegates to (FibonacciBalance).
func pickTarget(out *solc.Output, file, mode string) (*solc.Contract, error) {
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
		if cc := out.Contracts[file][c.Name]; c.Kind == "contract" && cc != nil && cc.Creation != "" && cc.Runtime != "" {
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		return nil, errors.New("the file has no contract with code")
	}
	chosen := names[len(names)-1]
	if mode == "main" {
		chosen = mainContract(all, names, func(name string) (int, int) {
			c := out.Contracts[file][name]
			return abiFunctions(c.ABI), len(c.Runtime)
		})
	}
	return out.Contracts[file][chosen], nil
}

// mainContract picks, of names (the contracts with code, in source order),
// the file's subject. Contracts another contract of the file inherits from
// are parts of it, not the subject. Of the rest (the most-derived
// contracts: the subject and its helpers), the one with the most ABI
// functions (public and external functions, getters, fallback and
// receive), then the largest runtime code, then the later one. A log, an
// attacker or a callback contract has one or two functions; a rule on which
// contract names which cannot tell them apart (a subject names its log, an
// attacker names its victim).
//
// On the 98 files of SmartBugs Curated it differs from the last contract in
// 20 files: 16 that end with a Log helper, two whose last contract is an
// attacker (governmental_survey, modifier_reentrancy), FibonacciBalance
// (whose last contract is the library it delegates to), and
// parity_wallet_bug_1, where it picks WalletLibrary (the code behind
// Wallet's delegatecall, with many more functions) over Wallet; each of the
// two holds one of the file's labelled lines, and only Wallet's maps to a
// class (delegatecall). Nothing in the source tells a library from a
// wallet there; --vuln-target last analyses Wallet.
func mainContract(all []solast.Contract, names []string, score func(string) (int, int)) string {
	inherited := map[string]bool{}
	for _, c := range all {
		for _, b := range c.Bases {
			inherited[b] = true
		}
	}
	best, bestFns, bestSize := "", -1, -1
	for _, n := range names {
		if inherited[n] {
			continue
		}
		if fns, size := score(n); fns > bestFns || fns == bestFns && size >= bestSize {
			best, bestFns, bestSize = n, fns, size
		}
	}
	if best == "" { // an inheritance cycle does not compile; keep a choice anyway
		return names[len(names)-1]
	}
	return best
}

// abiFunctions counts the function, fallback and receive entries of an ABI.
func abiFunctions(abiJSON []byte) int {
	var entries []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(abiJSON, &entries) != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if e.Type == "function" || e.Type == "fallback" || e.Type == "receive" || e.Type == "" {
			n++
		}
	}
	return n
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
		row := schemas.VulnLabel{ContractID: f.id, File: f.entry.Path, Class: string(class), Lines: "[]", Judged: judged(class)}
		if a := by[class]; a != nil {
			sort.Ints(a.lines)
			b, _ := json.Marshal(a.lines)
			row.Labelled, row.DASP, row.Lines = true, strings.Join(a.dasp, ","), string(b)
		}
		rows = append(rows, row)
	}
	return rows
}

// judged reports whether some DASP category maps to class (see
// mapCategory): no label of the dataset speaks of frozen Ether.
func judged(class engine.Class) bool { return class != engine.FrozenEther }

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
		if n >= 1 && n <= len(lines) && re.MatchString(soltext.BlankComments(lines[n-1])) {
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
