package vuln

import (
	"cmp"
	"context"
	"encoding/json"
	"math/rand"
	"path/filepath"
	"sort"

	engine "github.com/solbehave/solbehave/internal/vuln"
	"github.com/solbehave/solbehave/internal/walltime"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Cross-validation over SmartBugs Curated (`--vuln-cv`, `make bench-vuln`):
// every file is also run under each named parameter setting of CVSettings,
// and `vuln_eval_cv` picks, for each of the three folds, the setting that
// scores best on the other two, then scores it on the fold.
//
// Tuned per fold (a setting's parameters): the population, the generations
// (the budget), the longest initial sequence, the fitness branch weight, the
// reentrancy gas threshold, and the seed strategies (shares of cross-function
// re-entries, guard-derived waits and attacker campaigns).
//
// Hand-written rules, fixed for every fold (so their figures count as tuned
// on all folds): the DASP → class mapping (schemas/vuln_labels.md), the
// target choice (mainContract), the standalone deployment (stub addresses,
// Config.Fund), the oracles' definitions, the argument biases (accountBias,
// reuseBias), the gaps mutation picks from (advances), the mutation and
// crossover operators and the candidates' weights and ranks.

// CVFolds is the number of folds; cvFoldSeed fixes the split (never the
// run seed: the folds must not move between runs).
const (
	CVFolds    = 3
	cvFoldSeed = 21
)

// CVSetting is one named parameter setting. Zero fields keep the stage's
// value; a negative share turns the strategy off.
type CVSetting struct {
	Name         string  `json:"-"`
	Population   int     `json:"population,omitempty"`
	Generations  int     `json:"generations,omitempty"`
	MaxTxs       int     `json:"max_txs,omitempty"`
	BranchWeight float64 `json:"branch_weight,omitempty"`
	GasThreshold uint64  `json:"gas_threshold,omitempty"`
	CrossReentry float64 `json:"cross_reentry,omitempty"`
	GapHints     float64 `json:"gap_hints,omitempty"`
	Campaigns    float64 `json:"campaigns,omitempty"`
}

// CVSettings is the grid: the stage's own configuration (whose run is the
// ablation-none unit, so vuln_eval and the CV share it), a quarter of its
// budget, and SAEFUZZ's seeding alone (our three seed strategies, Campaigns,
// CrossReentry and GapHints, off).
var CVSettings = []CVSetting{
	{Name: "default"},
	{Name: "lean", Population: 16, Generations: 15},
	{Name: "saefuzz-seeds", CrossReentry: -1, GapHints: -1, Campaigns: -1},
}

// apply overrides c with the setting's non-zero fields.
func (p CVSetting) apply(c engine.Config) engine.Config {
	c.Population, c.Generations, c.MaxTxs = cmp.Or(p.Population, c.Population), cmp.Or(p.Generations, c.Generations), cmp.Or(p.MaxTxs, c.MaxTxs)
	c.BranchWeight, c.GasThreshold = cmp.Or(p.BranchWeight, c.BranchWeight), cmp.Or(p.GasThreshold, c.GasThreshold)
	c.CrossReentry, c.GapHints, c.Campaigns = cmp.Or(p.CrossReentry, c.CrossReentry), cmp.Or(p.GapHints, c.GapHints), cmp.Or(p.Campaigns, c.Campaigns)
	return c
}

// params is the setting's effective values under profile prof, as JSON.
// The seed strategies' shares are extensions (engine.Extensions): a saefuzz
// row lists only SAEFUZZ's own parameters, since its run ignores them.
func (p CVSetting) params(c engine.Config, prof engine.Profile) string {
	e := p.apply(c)
	v := CVSetting{Population: e.Population, Generations: e.Generations, MaxTxs: e.MaxTxs,
		BranchWeight: e.BranchWeight, GasThreshold: e.GasThreshold}
	if prof.Has("cross-reentry") {
		v.CrossReentry = e.CrossReentry
	}
	if prof.Has("guard-waits") {
		v.GapHints = e.GapHints
	}
	if prof.Has("campaigns") {
		v.Campaigns = e.Campaigns
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// category is the dataset folder of a file.
func (f *smartbugsFile) category() string { return filepath.Base(filepath.Dir(f.entry.Path)) }

// assignFolds splits files into k folds within each category: a category's
// files, sorted by id, are shuffled with seed and dealt round-robin, each
// category starting where the previous one stopped, so the folds differ in
// size by one at most.
func assignFolds(files []*smartbugsFile, k int, seed int64) map[string]int {
	by := map[string][]string{}
	for _, f := range files {
		by[f.category()] = append(by[f.category()], f.id)
	}
	cats := make([]string, 0, len(by))
	for c := range by {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	rng := rand.New(rand.NewSource(seed))
	folds := map[string]int{}
	next := 0
	for _, c := range cats {
		ids := by[c]
		sort.Strings(ids)
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		for _, id := range ids {
			folds[id] = next % k
			next++
		}
	}
	return folds
}

// cvUnits lists one unit per file and setting other than the default (the
// ablation-none unit writes the default's rows).
func (s *Stage) cvUnits(env *pipeline.Env, files []*smartbugsFile, folds map[string]int, prof engine.Profile) []pipeline.Unit {
	var units []pipeline.Unit
	for _, f := range files {
		entry, _ := json.Marshal(f.entry)
		for i := range CVSettings[1:] {
			p := &CVSettings[1+i]
			units = append(units, pipeline.Unit{ID: unitID(f.id, prof, engine.AblationNone) + "/cv/" + p.Name, Contract: f.id,
				Fingerprint: s.fingerprint(env, prof, engine.AblationNone, "cv", p.params(s.Config, prof), folds[f.id], entry, f.source),
				Payload:     unit{smartbugs: f, ablation: engine.AblationNone, profile: prof, cv: p, fold: folds[f.id]}})
		}
	}
	return units
}

// cvRows are a file's five vuln_cv rows for one setting's run (rep nil: the
// run did not happen, status says why).
func (s *Stage) cvRows(f *smartbugsFile, fold int, p *CVSetting, prof engine.Profile, status string, rep *engine.Report) []schemas.VulnCVRow {
	found := map[string]bool{}
	if rep != nil {
		for _, x := range rep.Findings {
			found[string(x.Class)] = true
		}
	}
	params := p.params(s.Config, prof)
	var rows []schemas.VulnCVRow
	for _, l := range f.labelRows() {
		rows = append(rows, schemas.VulnCVRow{ContractID: f.id, Category: f.category(), Fold: int64(fold), Setting: p.Name, Profile: string(prof),
			Params: params, Class: l.Class, Labelled: l.Labelled, Judged: l.Judged, Detected: found[l.Class], Status: status})
	}
	return rows
}

// runCV runs one file under one non-default setting.
func (s *Stage) runCV(ctx context.Context, env *pipeline.Env, u unit) (*pipeline.Output, error) {
	f := u.smartbugs
	out := &pipeline.Output{}
	t, _, status, err := s.deploySmartBugs(ctx, env, f, &schemas.VulnRun{})
	if walltime.Is(err) {
		return nil, err // the machine's failure: no row says anything of the file
	}
	if err != nil {
		pipeline.Add(out, schemas.VulnCV, s.cvRows(f, u.fold, u.cv, u.profile, status, nil))
		return out, nil // the file detects nothing under this setting; its default unit reports the failure
	}
	cfg := u.cv.apply(s.config(env, u.profile, engine.AblationNone))
	rep, err := engine.Run(ctx, t, cfg)
	if walltime.Is(err) {
		return nil, err
	}
	if err != nil {
		pipeline.Add(out, schemas.VulnCV, s.cvRows(f, u.fold, u.cv, u.profile, "error", nil))
		return out, nil
	}
	pipeline.Add(out, schemas.VulnCV, s.cvRows(f, u.fold, u.cv, u.profile, "ok", rep))
	return out, nil
}
