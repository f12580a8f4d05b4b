package vuln

import (
	"context"
	"fmt"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	engine "github.com/solbehave/solbehave/internal/vuln"
	"github.com/solbehave/solbehave/internal/warehouse"
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

// planBenchmark lists every original the verify stage kept and every
// compiling sample of one.
func (s *Stage) planBenchmark(env *pipeline.Env, ablations []engine.Ablation) ([]pipeline.Unit, error) {
	entries, err := etherscan.ListCorpus(env.Corpus)
	if err != nil {
		return nil, err
	}
	byID := map[string]etherscan.Entry{}
	for _, e := range entries {
		byID[e.ID] = e
	}
	repro, err := warehouse.ReadDataset[schemas.Reproducibility](env.Warehouse, "reproducibility")
	if err != nil {
		return nil, err
	}
	samples, err := warehouse.ReadDataset[schemas.Sample](env.Warehouse, "samples")
	if err != nil {
		return nil, err
	}
	originals := map[string]string{}
	var units []pipeline.Unit
	add := func(id string, b *benchUnit) {
		for _, a := range ablations {
			fp := s.fingerprint(env, a, "benchmark", b.entry.ID, b.original, b.sample)
			units = append(units, pipeline.Unit{ID: unitID(id, a), Contract: b.entry.ID, Fingerprint: fp, Payload: unit{bench: b, ablation: a}})
		}
	}
	for _, r := range repro {
		e, ok := byID[r.ContractID]
		if !ok || !r.Kept || r.Artifact == "" {
			continue
		}
		originals[r.ContractID] = r.Artifact
		add(r.ContractID+"/original", &benchUnit{entry: e, original: r.Artifact})
	}
	for i := range samples {
		sm := samples[i]
		orig, ok := originals[sm.ContractID]
		if !ok || !sm.CompiledRepaired || sm.Artifact == "" {
			continue
		}
		add(fmt.Sprintf("%s/%s/%d", sm.ContractID, sm.Model, sm.Sample), &benchUnit{entry: byID[sm.ContractID], original: orig, sample: &sm})
	}
	if len(units) == 0 {
		env.Log.Info("vuln: no kept originals or compiling samples in the warehouse yet (run verify, generate and compile first)")
	}
	return units, nil
}

func (s *Stage) runBenchmark(ctx context.Context, env *pipeline.Env, pu pipeline.Unit, u unit) (*pipeline.Output, error) {
	b := u.bench
	run := schemas.VulnRun{ContractID: b.entry.ID, Subject: "original", Sample: -1, Ablation: string(u.ablation)}
	if b.sample != nil {
		run.Subject, run.Model, run.Sample = "sample", b.sample.Model, b.sample.Sample
	}
	d, err := deployBench(env, b, &run)
	if err != nil {
		run.Status, run.Error = "deploy_error", err.Error()
		return output(run, nil), pipeline.Fail("deploy", false, err)
	}
	t := engine.Target{Chain: d.Chain, Address: d.Address, Deployer: d.Deployer, ABI: d.Contract.ABI, Block: d.Block}
	return s.detect(ctx, env, t, run, u.ablation)
}

// deployBench deploys the original as verify did, and for a sample the
// sample beside it with the same deployer, arguments and address.
func deployBench(env *pipeline.Env, b *benchUnit, run *schemas.VulnRun) (*deploy.Deployment, error) {
	client, err := etherscan.NewRecorded(env.Corpus)
	if err != nil {
		return nil, err
	}
	rec, err := deploy.Load(client, b.entry, 0)
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
