// Package o3 is the DCR-guided replay oracle of solbehave paper §IV-E and
// §V-D, and beside it the negative replay the paper's conclusion proposes
// (O4): for every kept contract with a compiling sample and validated
// sequences, the original C* and every compiling sample Ĉ are deployed from
// source as O2 deploys them, and each extractor's sequences (the
// `sequence_calls` rows the sequences stage wrote) are replayed on both,
// every sequence from a fresh fork of the post-deployment state, and
// compared call by call (internal/replay).
//
//   - O3: the kept calls, each from its recorded sender, value and block:
//     calls the original accepted, so any other outcome on Ĉ is Ĉ's fault.
//   - O4: every call Algorithm 1 pruned (the original rejected it), issued
//     as a probe at the very place it was tried, i.e. after the kept calls
//     before it, its effects then discarded: a sample that accepts a call
//     the original rejects diverges.
//
// Both come out of one replay per extractor (the probes do not change the
// state the kept calls see) and are written as separate oracles, so O4
// never mixes into O3's figures.
//
// Graph settings (§V-D): `fixed` replays every model's samples against the
// sequences of --reference-extractor (default: the one LLM generator's
// model, llm:<m>, else static; a run with several LLM generators must name
// it, §V-C); `matched` replays a model's samples against
// the sequences of the extractor that is that model (llm:<m> for a sample
// model <m> or <provider>:<m>). Reference, mutant and import samples have no
// extractor of their own, so only `fixed` covers them.
//
// Profiles: the stage replays the sequences Algorithm 1 generated under
// --o3-profile (paper or extended, shared with the sequences stage); one
// unit per (contract, profile), and a run of one profile leaves the other's
// rows.
//
// Outputs: `replay_calls` (oracles O3 and O4, with the profile and the
// extractor whose graph made the calls), `view_snapshots` (O3) and
// `coverage` (O3, one row set per extractor, `model` = the extractor;
// graph_setting `fixed` for the reference extractor, `matched` for others),
// each row with its profile.
package o3

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/callseq"
	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/replay"
	"github.com/solbehave/solbehave/internal/sharedflag"
	"github.com/solbehave/solbehave/internal/subjects"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Graph settings of O3 and O4 rows.
const (
	SettingFixed   = "fixed"
	SettingMatched = "matched"
)

// Stage is the o3 stage.
type Stage struct {
	// Reference is the extractor whose sequences every model is judged by
	// (fixed); "": dcrextract.DefaultReference(Generators).
	Reference     string
	Generators    []string // the run's generators (--generator)
	Profile       string   // the profile whose sequences are replayed
	SnapshotEvery int      // kept calls between two readings of the zero-argument views
	History       int      // recorded transactions loaded (as the sequences stage did)
}

// New returns the stage with its defaults.
func New() *Stage {
	return &Stage{Profile: callseq.ProfilePaper, SnapshotEvery: 50, History: 1000}
}

func (s *Stage) Name() string    { return "o3" }
func (s *Stage) Version() string { return "3" }
func (s *Stage) Summary() string {
	return "O3/O4: replay the validated sequences (O3) and the pruned calls as probes (O4) on the original and every compiling sample"
}

func (s *Stage) BindFlags(fs *pflag.FlagSet) {
	sharedflag.String(fs, &s.Reference, "reference-extractor", s.Reference, dcrextract.ReferenceFlagUsage)
	sharedflag.StringList(fs, &s.Generators, "generator", nil, regen.GeneratorFlagUsage)
	sharedflag.String(fs, &s.Profile, "o3-profile", s.Profile, "O3: protocol of Algorithm 1: paper (every call from the deployer, proposed arguments, no retry, one block of 12 s per call) or extended (history senders, retries with recorded and searched arguments, history pace)")
	sharedflag.Int(fs, &s.SnapshotEvery, "snapshot-every", s.SnapshotEvery, "replay oracles: calls between two readings of the zero-argument view functions (0: none)")
	sharedflag.Int(fs, &s.History, "o3-history", s.History, "O3: recorded transactions read for senders, pace and fallback arguments")
}

// unit is what Plan hands to Run.
type unit struct {
	rec          *deploy.Record
	loadErr      error
	origArtifact string
	samples      []schemas.Sample
	calls        map[string][]schemas.SequenceCall // extractor -> rows
}

// reference is the run's reference extractor (Check refuses a run that
// has none).
func (s *Stage) reference() string {
	r, _ := dcrextract.ChooseReference(s.Reference, s.Generators)
	return r
}

// Check refuses, before any stage runs, a run with several LLM generators
// and no --reference-extractor.
func (s *Stage) Check() error {
	if _, err := dcrextract.ChooseReference(s.Reference, s.Generators); err != nil {
		return fmt.Errorf("o3: %w", err)
	}
	return nil
}

// InScope: a run plans one profile's units and leaves the other's.
func (s *Stage) InScope(unitID string) bool {
	p := unitProfile(unitID)
	return p == "" || p == s.Profile
}

// unitProfile is the profile of a unit id, "<contract>/<profile>" or
// "<contract>/<profile>/<model>" ("" for an id of neither shape).
func unitProfile(unitID string) string {
	parts := strings.SplitN(unitID, "/", 3)
	if len(parts) >= 2 && callseq.IsProfile(parts[1]) {
		return parts[1]
	}
	return ""
}

// Plan makes, per kept contract with compiling samples and sequences of the
// profile, one unit per model (its samples' O3 and O4 rows) and one for the
// original alone (the coverage of each extractor's sequences): a model's run
// never rewrites another model's rows.
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	if !callseq.IsProfile(s.Profile) {
		return nil, fmt.Errorf("o3: --o3-profile %q: want one of %v", s.Profile, callseq.ProfileNames())
	}
	callsByContract, err := readCalls(env.Warehouse, s.Profile)
	if err != nil || len(callsByContract) == 0 {
		return nil, err
	}
	hasCalls := func(id string) bool { return len(callsByContract[id]) > 0 }
	kept, samplesByContract, err := subjects.KeptCompared(env.Warehouse, env.Corpus, s.History, hasCalls)
	if err != nil {
		return nil, err
	}
	var units []pipeline.Unit
	for _, sub := range kept {
		id, samples, calls := sub.Entry.ID, samplesByContract[sub.Entry.ID], callsByContract[sub.Entry.ID]
		u := unit{rec: sub.Record, loadErr: sub.LoadErr, origArtifact: sub.Artifact, calls: calls}
		fp := func(samples []schemas.Sample) string {
			return pipeline.Fingerprint(s.Version(), s.reference(), s.Profile, s.SnapshotEvery, s.History, sub.Digest, u.origArtifact,
				subjects.Keys(samples), callsDigest(calls), pipeline.ErrText(u.loadErr))
		}
		units = append(units, pipeline.Unit{ID: id + "/" + s.Profile, Contract: id, Fingerprint: fp(nil), Payload: u})
		byModel := subjects.ByModel(samples)
		for _, model := range slices.Sorted(maps.Keys(byModel)) {
			mu := u
			mu.samples = byModel[model]
			units = append(units, pipeline.Unit{ID: id + "/" + s.Profile + "/" + model, Contract: id, Model: model,
				Fingerprint: fp(mu.samples), Payload: mu})
		}
	}
	return units, nil
}

// readCalls reads the sequence rows of one profile, by contract and extractor.
func readCalls(w *warehouse.Warehouse, profile string) (map[string]map[string][]schemas.SequenceCall, error) {
	rows, err := warehouse.ReadDataset(w, schemas.SequenceCalls)
	if err != nil {
		return nil, err
	}
	calls := map[string]map[string][]schemas.SequenceCall{}
	for _, c := range rows {
		if c.Profile != profile {
			continue
		}
		byEx := calls[c.ContractID]
		if byEx == nil {
			byEx = map[string][]schemas.SequenceCall{}
			calls[c.ContractID] = byEx
		}
		byEx[c.Extractor] = append(byEx[c.Extractor], c)
	}
	return calls, nil
}

// callsDigest digests a contract's sequence rows, extractors in order.
func callsDigest(calls map[string][]schemas.SequenceCall) string {
	h := sha256.New()
	for _, ex := range sortedExtractors(calls) {
		b, _ := json.Marshal(calls[ex])
		h.Write([]byte(ex))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func sortedExtractors(calls map[string][]schemas.SequenceCall) []string {
	exs := make([]string, 0, len(calls))
	for ex := range calls {
		exs = append(exs, ex)
	}
	sort.Strings(exs)
	return exs
}

// Matches reports whether extractor is the model itself: llm:<m> for a
// sample model <m> or <provider>:<m>.
func Matches(model, extractor string) bool {
	m, ok := strings.CutPrefix(extractor, "llm:")
	if !ok || m == "" {
		return false
	}
	return model == m || strings.HasSuffix(model, ":"+m)
}

// Run replays one contract's sequences, extractor by extractor.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, pu pipeline.Unit) (*pipeline.Output, error) {
	u := pu.Payload.(unit)
	orig, samples, err := subjects.DeployUnit(env.Data, u.rec, u.loadErr, u.origArtifact, u.samples)
	if err != nil {
		return nil, err
	}
	out := &pipeline.Output{}
	for _, ex := range sortedExtractors(u.calls) {
		if err := s.replayExtractor(ctx, env, pu, ex, u.calls[ex], orig, samples, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// replayExtractor replays one extractor's sequences on the unit's samples
// it judges (its model's unit), or on the original alone (the original's
// unit: the coverage rows).
func (s *Stage) replayExtractor(ctx context.Context, env *pipeline.Env, pu pipeline.Unit, ex string, rows []schemas.SequenceCall,
	orig *deploy.Deployment, samples []replay.Sample, out *pipeline.Output) error {
	contractID := pu.Contract
	seqs, err := callseq.Replayable(rows)
	if err != nil {
		return failure.New(failure.Input, false, fmt.Errorf("%s sequences: %w", ex, err))
	}
	fixed := ex == s.reference()
	var judged []replay.Sample
	for _, smp := range samples {
		if fixed || Matches(smp.Model, ex) {
			judged = append(judged, smp)
		}
	}
	if pu.Model != "" && len(judged) == 0 {
		return nil // this extractor judges other models only
	}
	res, err := replay.Compare(ctx, orig, judged, seqs, replay.Options{SnapshotEvery: s.SnapshotEvery})
	if err != nil {
		return err
	}
	if pu.Model == "" {
		s.addCoverage(out, res, contractID, ex, fixed)
		return nil
	}
	sp := splitOf(seqs)
	if fixed {
		s.addRows(env, out, res, sp, contractID, ex, SettingFixed, func(string) bool { return true })
	}
	if hasMatched(judged, ex) {
		s.addRows(env, out, res, sp, contractID, ex, SettingMatched, func(model string) bool { return Matches(model, ex) })
	}
	return nil
}

// addCoverage writes the coverage of one extractor's kept calls on the
// original, labelled with the graph setting its sequences judge under.
func (s *Stage) addCoverage(out *pipeline.Output, res *replay.Result, contractID, ex string, fixed bool) {
	setting := SettingMatched
	if fixed {
		setting = SettingFixed
	}
	cov := keptResult(res).CoverageRows(replay.Labels{ContractID: contractID, Oracle: schemas.OracleO3, GraphSetting: setting}, ex)
	for i := range cov {
		cov[i].Profile = s.Profile
	}
	pipeline.Add(out, schemas.Coverage, cov)
}

func hasMatched(samples []replay.Sample, ex string) bool {
	for _, s := range samples {
		if Matches(s.Model, ex) {
			return true
		}
	}
	return false
}

// addRows writes one graph setting's O3 and O4 rows for the samples keep
// admits, labelled with the profile and the extractor ex.
func (s *Stage) addRows(env *pipeline.Env, out *pipeline.Output, res *replay.Result, sp split, contractID, ex, setting string, keep func(model string) bool) {
	calls := res.CallRows(replay.Labels{ContractID: contractID, Oracle: schemas.OracleO3, GraphSetting: setting})
	var o3, o4 []schemas.ReplayCall
	odd := 0
	for _, r := range calls {
		if !keep(r.Model) {
			continue
		}
		r.Profile, r.Extractor = s.Profile, ex
		if r.Probe {
			r, departs := o4Row(r)
			o4 = append(o4, r)
			odd += departs
			continue
		}
		r.Step = int64(sp.keptBefore(r.Seq, int(r.Step)))
		o3 = append(o3, r)
		if r.StatusRef != schemas.StatusSuccess {
			odd++
		}
	}
	if odd > 0 { // the original did not repeat what it did during generation
		env.Log.Warn("o3: replay on the original departs from the generation", "contract", contractID, "setting", setting, "rows", odd)
	}
	pipeline.Add(out, schemas.ReplayCalls, o3)
	pipeline.Add(out, schemas.ReplayCalls, o4)
	var views []schemas.ViewSnapshot
	for _, v := range res.ViewRows(replay.Labels{ContractID: contractID, Oracle: schemas.OracleO3, GraphSetting: setting}) {
		if keep(v.Model) {
			v.Profile = s.Profile
			v.AfterCalls = int64(sp.keptBefore(v.Seq, int(v.AfterCalls)))
			views = append(views, v)
		}
	}
	pipeline.Add(out, schemas.ViewSnapshots, views)
}
