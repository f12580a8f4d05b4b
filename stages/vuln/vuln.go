// Package vuln is the vulnerability stage (SAEFUZZ, saefuzz.txt): statically
// guided evolutionary fuzzing with five oracles, run by internal/vuln on one
// contract at a time.
//
// It reads one of two corpus layouts:
//
//   - SmartBugs Curated (`<corpus>/vulnerabilities.json` beside
//     `<corpus>/dataset/<category>/<file>.sol`): the evaluation. Each file is
//     compiled with its comments stripped (the dataset's `// <yes> <report>`
//     labels never reach the detector) by the version its entry names, or,
//     when that compiler cannot load, by the newest release the file's
//     pragma admits (recorded in `compiler_substitution`). The target is the
//     file's main contract (`--vuln-target main`, the default): of the
//     contracts with code that no other contract of the file inherits
//     from, the one with the most ABI functions, then the largest runtime
//     code; so the Log helper 16 files end with, and the attacker two of
//     them add, are skipped (see mainContract). `--vuln-target last` takes the file's last contract
//     with code. It is deployed from a fixed account with default
//     constructor arguments (zero values; addresses name a stub contract
//     that accepts any call, as do addresses the code holds as constants)
//     and some Ether (internal/vuln.DeployStandalone); when the zero values
//     revert, with arguments the fuzzer chooses, and above EIP-170's code
//     size with the limit lifted (recorded in `deployment`). An entry naming
//     only a pragma range (SolidiFI) the newest admitted release refuses is
//     compiled by the newest of an older series the range admits. Every
//     place an oracle fired is mapped to source lines (`vuln_sites`) and
//     every labelled entry is a row (`vuln_bug_labels`), for per-bug recall
//     (`vuln_bugs`). The labels are mapped to the five
//     classes into `vuln_labels` (see schemas/vuln_labels.md for the DASP
//     mapping); `vuln_eval` and `vuln_ablation` score the findings.
//   - The Etherscan record layout of the working corpus: the benchmark. Every
//     original the verify stage kept and every compiling sample
//     (`samples.compiled_repaired`) is deployed as the other oracles deploy
//     it (internal/deploy: original deployer, recorded constructor
//     arguments, same address for samples) and analysed; `vuln_introduced` reports
//     per model the samples with a finding their original does not have.
//
// `--vuln-profile` lists the detector profiles to run (internal/vuln.Profile:
// saefuzz, the paper as written, by default; extended, this project's
// extensions; saefuzz+<extension>..., the paper with only the named
// extensions on, for per-rule ablation), each its own units and a `profile`
// column of every vuln dataset and view.
//
// `--ablation` lists the detector variants to run (each is its own unit,
// so they sit side by side in the warehouse): none, no-static, random,
// opcode. Every random choice derives from `--seed`. The runner drops the
// outputs of units a plan no longer lists, so the SmartBugs evaluation
// wants its own `--data` folder, and a later run with fewer ablations
// removes the others' rows.
package vuln

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/failure"
	engine "github.com/solbehave/solbehave/internal/vuln"
	"github.com/solbehave/solbehave/internal/walltime"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Stage is the vuln stage.
type Stage struct {
	Config    engine.Config
	Ablations []string
	Profiles  []string      // detector profiles to run (--vuln-profile): saefuzz (default), extended
	Target    string        // SmartBugs target choice: main (default) or last
	Budget    time.Duration // wall clock per run: past it the unit fails (not fingerprinted)
	CV        bool          // SmartBugs: also run every CVSettings setting and write vuln_cv (bench-vuln)
}

// New returns the stage with the engine's defaults.
func New() *Stage {
	return &Stage{Config: engine.DefaultConfig(), Ablations: []string{string(engine.AblationNone)}, Profiles: []string{string(engine.ProfileSAEFUZZ)}, Target: "main", Budget: 120 * time.Second}
}

func (s *Stage) Name() string    { return "vuln" }
func (s *Stage) Version() string { return "8" } // 8: standalone targets deploy on the fork their compiler targets; saefuzz's first generation calls every state-changing candidate (issue 57); 7: saefuzz's first generation is §3's prioritised sequences, sent by the attacker (issue 57); 6: vuln_sites, vuln_bug_labels (issue 57); 5: profiles (saefuzz, extended); 4: a library two others link is deployed once
func (s *Stage) Summary() string {
	return "statically guided evolutionary fuzzing with five vulnerability oracles (SAEFUZZ) on originals and samples, or on SmartBugs Curated"
}

func (s *Stage) BindFlags(fs *pflag.FlagSet) {
	c := &s.Config
	fs.IntVar(&c.Population, "vuln-population", c.Population, "vuln: seeds per generation")
	fs.IntVar(&c.Generations, "vuln-generations", c.Generations, "vuln: generations (fixed)")
	fs.IntVar(&c.MaxTxs, "vuln-max-txs", c.MaxTxs, "vuln: longest initial transaction sequence")
	config.Share(fs, &c.Alpha, "vuln-alpha", c.Alpha, "vuln: top fraction of the ranked seeds recombined by crossover (α)")
	config.Share(fs, &c.MutationRate, "vuln-mutation", c.MutationRate, "vuln: probability p_m that a seed outside the top fraction is mutated")
	config.Share(fs, &c.BranchWeight, "vuln-branch-weight", c.BranchWeight, "vuln: fitness = w·branch coverage + (1−w)·instruction coverage; this is w")
	fs.Uint64Var(&c.GasThreshold, "vuln-gas-threshold", c.GasThreshold, "vuln: reentrancy needs a call forwarding more gas than this")
	fs.Uint64Var(&c.TxGas, "vuln-tx-gas", c.TxGas, "vuln: gas limit of each generated transaction")
	fs.DurationVar(&s.Budget, "vuln-budget", s.Budget, "vuln: wall-clock limit of one detector run; past it the unit fails as a timeout (retried), never a result (0: none; the generations bound a run)")
	fs.StringSliceVar(&s.Profiles, "vuln-profile", s.Profiles, "vuln: detector profiles to run, comma-separated: saefuzz (SAEFUZZ §3 as written), extended (this project's seed strategies, 100 ETH funding and oracle confirmations on top; README) or saefuzz+<extension>[+<extension>...] (saefuzz with only the named internal/vuln Extensions, for per-rule ablation; docs/saefuzz.md); each its own units, side by side in the views")
	fs.StringSliceVar(&s.Ablations, "ablation", s.Ablations, "vuln: detector variants to run, comma-separated: none, no-static, random, opcode")
	fs.BoolVar(&s.CV, "vuln-cv", s.CV, "vuln: on SmartBugs Curated, also run each cross-validation setting and write vuln_cv (vuln_eval_cv; slow, make bench-vuln)")
	fs.StringVar(&s.Target, "vuln-target", s.Target, "vuln: SmartBugs target contract: main (of the contracts no other one inherits from, the one with the most ABI functions) or last (the file's last contract with code)")
}

// unit is what Plan hands to Run.
type unit struct {
	smartbugs *smartbugsFile
	bench     *benchUnit
	ablation  engine.Ablation
	profile   engine.Profile
	labels    bool       // the unit writes the file's vuln_labels rows only
	cv        *CVSetting // a cross-validation run under a non-default setting (vuln_cv rows only)
	fold      int        // the file's fold in a cross-validation run; -1 otherwise
}

// Plan detects the corpus layout and lists one unit per contract and ablation.
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	ablations, err := s.ablations()
	if err != nil {
		return nil, err
	}
	if s.Target != "last" && s.Target != "main" {
		return nil, fmt.Errorf("vuln: --vuln-target %q: want main or last", s.Target)
	}
	profiles, err := s.profiles()
	if err != nil {
		return nil, err
	}
	if isSmartBugs(env.Corpus) {
		return s.planSmartBugs(env, ablations, profiles)
	}
	return s.planBenchmark(env, ablations, profiles)
}

func (s *Stage) profiles() ([]engine.Profile, error) {
	return parseList(s.Profiles, engine.ParseProfile, "--vuln-profile names no profile")
}
func (s *Stage) ablations() ([]engine.Ablation, error) {
	return parseList(s.Ablations, engine.ParseAblation, "--ablation names no variant")
}

// parseList parses a comma-separated flag's names, dropping repeats; none is
// an error (empty).
func parseList[T comparable](names []string, parse func(string) (T, error), empty string) ([]T, error) {
	var out []T
	seen := map[T]bool{}
	for _, name := range names {
		v, err := parse(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("vuln: %s", empty)
	}
	return out, nil
}

// unitID names a unit: the profile is appended unless it is saefuzz, then
// the ablation unless it is none.
func unitID(base string, p engine.Profile, a engine.Ablation) string {
	if p != engine.ProfileSAEFUZZ {
		base += "/" + string(p)
	}
	if a == engine.AblationNone {
		return base
	}
	return base + "/" + string(a)
}

// fingerprint digests what a unit's output depends on (the profile included).
func (s *Stage) fingerprint(env *pipeline.Env, p engine.Profile, a engine.Ablation, parts ...any) string {
	return pipeline.Fingerprint(append([]any{s.Version(), s.Config, s.Target, env.Seed, string(a), string(p)}, parts...)...)
}

// Run analyses one unit.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, pu pipeline.Unit) (*pipeline.Output, error) {
	u := pu.Payload.(unit)
	switch {
	case u.labels:
		out := &pipeline.Output{}
		pipeline.Add(out, schemas.VulnLabels, u.smartbugs.labelRows())
		pipeline.Add(out, schemas.VulnBugLabels, u.smartbugs.bugRows())
		return out, nil
	case u.smartbugs != nil:
		return s.runSmartBugs(ctx, env, pu, u)
	}
	return s.runBenchmark(ctx, env, pu, u)
}

// config is the engine configuration of one run.
func (s *Stage) config(env *pipeline.Env, p engine.Profile, a engine.Ablation) engine.Config {
	c := s.Config
	c.Profile, c.Ablation, c.Seed, c.Budget = p, a, env.Seed, s.Budget
	return c
}

// detect runs the engine and turns its report into rows.
func (s *Stage) detect(ctx context.Context, env *pipeline.Env, t engine.Target, run schemas.VulnRun, p engine.Profile, a engine.Ablation) (*pipeline.Output, error) {
	out, _, err := s.detectReport(ctx, env, t, run, p, a)
	return out, err
}

// detectReport is detect, also returning the engine's report (nil on error).
func (s *Stage) detectReport(ctx context.Context, env *pipeline.Env, t engine.Target, run schemas.VulnRun, p engine.Profile, a engine.Ablation) (*pipeline.Output, *engine.Report, error) {
	run.Profile = string(p)
	rep, err := engine.Run(ctx, t, s.config(env, p, a))
	if walltime.Is(err) {
		return nil, nil, err // the machine's failure: no row says anything of the contract
	}
	if err != nil {
		run.Status, run.Error = "error", err.Error()
		return output(run, nil), nil, failure.New(failure.Vuln, false, err)
	}
	return output(fillRun(run, rep), findingRows(run, rep)), rep, nil
}

func output(run schemas.VulnRun, findings []schemas.VulnFinding) *pipeline.Output {
	out := &pipeline.Output{}
	pipeline.Add(out, schemas.VulnRuns, []schemas.VulnRun{run})
	pipeline.Add(out, schemas.VulnFindings, findings)
	return out
}

func fillRun(r schemas.VulnRun, rep *engine.Report) schemas.VulnRun {
	r.Status = "ok"
	r.Candidates, r.StaticGuided = int64(rep.Candidates), rep.StaticGuided
	r.Instructions, r.InstructionsCovered, r.InstructionCoverage = int64(rep.Instructions), int64(rep.InstructionsCovered), rep.InstructionCoverage()
	r.Branches, r.BranchesCovered, r.BranchCoverage = int64(rep.Branches), int64(rep.BranchesCovered), rep.BranchCoverage()
	r.TestCases, r.ValidTestCases, r.ValidRatio = int64(rep.TestCases), int64(rep.ValidTestCases), rep.ValidRatio()
	r.Seeds, r.Generations = int64(rep.Seeds), int64(rep.Generations)
	r.Findings = int64(len(rep.Findings))
	var classes []string
	for _, f := range rep.Findings {
		classes = append(classes, string(f.Class))
	}
	r.Classes = strings.Join(classes, ",")
	r.ElapsedMS = rep.Elapsed.Milliseconds()
	return r
}

func findingRows(r schemas.VulnRun, rep *engine.Report) []schemas.VulnFinding {
	rows := make([]schemas.VulnFinding, 0, len(rep.Findings))
	for _, f := range rep.Findings {
		rows = append(rows, schemas.VulnFinding{
			ContractID: r.ContractID, Subject: r.Subject, Model: r.Model, Sample: r.Sample, Ablation: r.Ablation, Profile: r.Profile,
			Target: r.Target, Class: string(f.Class), TxIndex: int64(f.TxIndex), Seed: f.Seed, Evidence: f.Evidence,
			Reproduces: f.Reproduces, Generation: int64(f.Generation), Triggers: int64(f.Triggers),
		})
	}
	return rows
}

func isSmartBugs(corpus string) bool {
	_, errJSON := os.Stat(filepath.Join(corpus, "vulnerabilities.json"))
	st, errDir := os.Stat(filepath.Join(corpus, "dataset"))
	return errJSON == nil && errDir == nil && st.IsDir()
}
