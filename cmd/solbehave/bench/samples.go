package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/mutate"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/solc"
)

// sampleModel is the generator of the bench's samples: mutants, so the
// oracles compare code that really differs, as they do on a model's.
const sampleModel = regen.KindMutant

// mutantSamples builds the original's skeleton and generates and compiles
// k mutant samples on the persistent worker, as the skeleton, generate and
// compile stages would. With SampleCompiles below k, only that many are
// generated and compiled, the k reuse them in turn, and the compile time of
// k is estimated from their mean. Samples that do not compile are counted
// and left out.
func (b *bencher) mutantSamples(ctx context.Context, cr *contractRun, rec *deploy.Record, orig *solc.Output) []*solc.Output {
	if cr.Skip != "" {
		return nil
	}
	o, target, err := regen.OriginalOf(rec, orig)
	if err != nil {
		cr.SampleErr = "original: " + err.Error()
		return nil
	}
	sk, err := skeleton.Build(o.SkeletonInput(target, ""), nil)
	if err != nil {
		cr.SampleErr = "skeleton: " + err.Error()
		return nil
	}
	gen, err := regen.New(sampleModel, regen.Config{MutationRate: mutate.DefaultRate})
	if err != nil {
		cr.SampleErr = err.Error()
		return nil
	}
	n := b.cfg.Samples
	if c := b.cfg.SampleCompiles; c > 0 && c < n {
		n = c
	}
	var outs []*solc.Output
	var total time.Duration
	for i := range n {
		out, elapsed, err := b.sample(ctx, rec, gen, regen.Task{ContractID: rec.Entry.ID, Sample: i,
			Seed: regen.SampleSeed(42, rec.Entry.ID, gen.Name(), i), Skeleton: sk, Original: o})
		total += elapsed
		if err != nil {
			cr.SamplesFailed++
			continue
		}
		outs = append(outs, out)
	}
	if len(outs) == 0 {
		cr.SampleErr = fmt.Sprintf("none of %d mutant samples compiled", n)
		return nil
	}
	cr.SampleCompile = total * time.Duration(b.cfg.Samples) / time.Duration(n)
	cr.SampleCompileEstimated = n < b.cfg.Samples
	samples := make([]*solc.Output, b.cfg.Samples)
	for i := range samples {
		samples[i] = outs[i%len(outs)]
	}
	return samples
}

// sample generates one sample and compiles it; elapsed covers both.
func (b *bencher) sample(ctx context.Context, rec *deploy.Record, gen regen.Generator, t regen.Task) (*solc.Output, time.Duration, error) {
	start := time.Now()
	res := gen.Generate(ctx, t)
	if res.Err != "" {
		return nil, time.Since(start), fmt.Errorf("generate: %s", res.Err)
	}
	in, err := regen.CompileInput(rec, res.Files)
	if err != nil {
		return nil, time.Since(start), err
	}
	out, err := b.warm.Compile(ctx, in)
	return out, time.Since(start), err
}
