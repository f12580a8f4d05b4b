package vuln

import (
	"context"
	"fmt"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/subjects"
	engine "github.com/solbehave/solbehave/internal/vuln"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// benchUnit is an original of the working corpus, or one of its compiling
// samples.
type benchUnit struct {
	entry    etherscan.Entry
	original string          // artifact of the original's compile (verify)
	sample   *schemas.Sample // nil for the original itself
}

// planBenchmark lists every original that passed every admission filter
// (`contracts.kept`: reproduced and within the size filter) and every
// compiling sample of one, as the other oracles read them
// (internal/subjects).
func (s *Stage) planBenchmark(env *pipeline.Env, ablations []engine.Ablation, profiles []engine.Profile) ([]pipeline.Unit, error) {
	entries, err := etherscan.ListCorpus(env.Corpus)
	if err != nil {
		return nil, err
	}
	originals, err := subjects.ReadOriginals(env.Warehouse)
	if err != nil {
		return nil, err
	}
	samples, err := subjects.CompilingSamples(env.Warehouse)
	if err != nil {
		return nil, err
	}
	var units []pipeline.Unit
	add := func(id string, b *benchUnit) {
		model := ""
		if b.sample != nil {
			model = b.sample.Model
		}
		for _, p := range profiles {
			for _, a := range ablations {
				fp := s.fingerprint(env, p, a, "benchmark", b.entry.ID, b.original, b.sample)
				units = append(units, pipeline.Unit{ID: unitID(id, p, a), Contract: b.entry.ID, Model: model, Fingerprint: fp, Payload: unit{bench: b, ablation: a, profile: p}})
			}
		}
	}
	for _, e := range entries {
		art := originals.Artifacts[e.ID]
		if !originals.Kept[e.ID] || art == "" {
			continue
		}
		add(e.ID+"/original", &benchUnit{entry: e, original: art})
		for i := range samples[e.ID] {
			sm := samples[e.ID][i]
			add(fmt.Sprintf("%s/%s/%d", e.ID, sm.Model, sm.Sample), &benchUnit{entry: e, original: art, sample: &sm})
		}
	}
	if len(units) == 0 {
		env.Log.Info("vuln: no kept originals or compiling samples in the warehouse yet (run verify, generate and compile first)")
	}
	return units, nil
}

func (s *Stage) runBenchmark(ctx context.Context, env *pipeline.Env, pu pipeline.Unit, u unit) (*pipeline.Output, error) {
	b := u.bench
	run := schemas.VulnRun{ContractID: b.entry.ID, Subject: "original", Sample: -1, Ablation: string(u.ablation), Profile: string(u.profile)}
	if b.sample != nil {
		run.Subject, run.Model, run.Sample = "sample", b.sample.Model, b.sample.Sample
	}
	d, err := deployBench(env, b, &run)
	if err != nil {
		run.Status, run.Error = "deploy_error", err.Error()
		return output(run, nil), failure.New(failure.Deploy, false, err)
	}
	t := engine.Target{Chain: d.Chain, Address: d.Address, Deployer: d.Deployer, ABI: d.Contract.ABI, Block: d.Block}
	return s.detect(ctx, env, t, run, u.profile, u.ablation)
}

// deployBench deploys the original as verify did, and for a sample the
// sample beside it with the same deployer, arguments and address.
func deployBench(env *pipeline.Env, b *benchUnit, run *schemas.VulnRun) (*deploy.Deployment, error) {
	rec, err := deploy.LoadRecord(env.Corpus, b.entry, 0)
	if err != nil {
		return nil, err
	}
	store := artifact.New(env.Data)
	origOut, err := store.Get(b.original)
	if err != nil {
		return nil, err
	}
	target, err := rec.Target(origOut)
	if err != nil {
		return nil, err
	}
	run.Target, run.CompilerRequested = target.Name, rec.Source.CompilerVersion
	run.CompilerUsed, run.CompilerSubstitution = origOut.CompilerUsed, origOut.Release.Substituted
	orig, err := deploy.Deploy(rec, origOut, target, nil, chain.Options{})
	if err != nil || b.sample == nil {
		return orig, err
	}
	sampleOut, err := store.Get(b.sample.Artifact)
	if err != nil {
		return nil, err
	}
	run.CompilerUsed, run.CompilerSubstitution = sampleOut.CompilerUsed, sampleOut.Release.Substituted
	return deploy.DeploySample(rec, orig, sampleOut, chain.Options{})
}
