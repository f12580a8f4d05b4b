package subjects

import (
	"errors"
	"fmt"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/replay"
	"github.com/solbehave/solbehave/schemas"
)

// DeployOriginal deploys C* from its stored compiler output, as verify did.
// Every oracle deploys through here so that O1, O2 and O3 compare the very
// same original (same deployer, block, constructor arguments, libraries).
func DeployOriginal(store *artifact.Store, rec *deploy.Record, artifactID string) (*deploy.Deployment, error) {
	if artifactID == "" {
		return nil, failure.New(failure.Input, false, errors.New("the original has no artifact (run verify)"))
	}
	out, err := store.Get(artifactID)
	if err != nil {
		return nil, failure.New(failure.Input, false, err)
	}
	target, err := rec.Target(out)
	if err != nil {
		return nil, failure.New(failure.Compile, false, err)
	}
	d, err := deploy.Deploy(rec, out, target, nil, chain.Options{})
	if err != nil {
		return nil, failure.New(failure.Deploy, false, fmt.Errorf("original: %w", err))
	}
	return d, nil
}

// DeployAll deploys the original and then its samples: the start of every
// differential oracle's unit.
func DeployAll(store *artifact.Store, rec *deploy.Record, origArtifact string, samples []schemas.Sample) (*deploy.Deployment, []replay.Sample, error) {
	orig, err := DeployOriginal(store, rec, origArtifact)
	if err != nil {
		return nil, nil, err
	}
	deployed, err := DeploySamples(store, rec, orig, samples)
	if err != nil {
		return nil, nil, err
	}
	return orig, deployed, nil
}

// DeployUnit is DeployAll from the artifacts under data, for a unit whose
// record may not have loaded: then the unit fails as the source's fault, the
// check every oracle's Run starts with.
func DeployUnit(data string, rec *deploy.Record, loadErr error, origArtifact string, samples []schemas.Sample) (*deploy.Deployment, []replay.Sample, error) {
	if loadErr != nil {
		return nil, nil, failure.New(failure.Source, false, loadErr)
	}
	return DeployAll(artifact.New(data), rec, origArtifact, samples)
}

// DeploySamples deploys every sample like the original, in the order given.
// A sample that cannot be deployed stays in with the reason (DeployErr): it
// is the sample's failure, not the unit's. A missing artifact is the unit's.
func DeploySamples(store *artifact.Store, rec *deploy.Record, orig *deploy.Deployment, samples []schemas.Sample) ([]replay.Sample, error) {
	out := make([]replay.Sample, len(samples))
	for i, smp := range samples {
		out[i] = replay.Sample{Model: smp.Model, Sample: smp.Sample}
		compiled, err := store.Get(smp.Artifact)
		if err != nil {
			return nil, failure.New(failure.Input, false, fmt.Errorf("sample %s/%d: %w", smp.Model, smp.Sample, err))
		}
		d, err := deploy.DeploySample(rec, orig, compiled, chain.Options{})
		if err != nil {
			out[i].DeployErr = err.Error()
			continue
		}
		out[i].Deployment = d
	}
	return out, nil
}
