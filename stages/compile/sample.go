package compile

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/schemas"
)

// sample compiles one generated sample, repairing it once when allowed.
func (s *Stage) sample(ctx context.Context, c *compiler, g schemas.Generation) (schemas.Sample, *repairCall, error) {
	row := schemas.Sample{ContractID: g.ContractID, Model: g.Model, Sample: g.Sample, Generator: g.Generator,
		SourcePath: g.SourcePath, SourceSHA256: g.SourceSHA256, Mutations: g.Mutations, NMutated: g.NMutated,
		FunctionsGenerated: g.FunctionsGenerated, FunctionsFailed: g.FunctionsFailed, GenerationMS: g.GenerationMS,
		Ablation: g.Ablation, FilesPath: g.FilesPath}
	if g.Error != "" || g.SourcePath == "" {
		row.Error, row.RawError = cmp.Or(g.Error, "nothing was generated"), cmp.Or(g.Error, "nothing was generated")
		return row, nil, nil
	}
	files, err := c.readSample(g)
	if err != nil {
		return row, nil, failure.New(failure.Sample, true, err)
	}
	res, cost, err := c.compileKeepingInterface(ctx, g.ContractID, files, ReasonChangedInterface)
	if err != nil {
		return row, nil, err
	}
	row.CompileMS, row.CompileSolcStarts, row.CompileSolcYouth = cost.ms, cost.starts, cost.youth
	res.fill(&row)
	row.RawError = row.Error
	row.CompiledRaw = res.OK
	if res.OK || g.Generator != regen.KindOpenAI || !s.Repair {
		return row, nil, nil
	}
	return s.repair(ctx, c, g, files, res, row)
}

// compileCost is what compiling one version of a sample took: wall
// milliseconds, solc workers started and their youth (samples.compile_ms,
// compile_solc_starts, compile_solc_youth; recompile_* for a repair).
type compileCost struct {
	ms, starts int64
	youth      float64
}

// compileKeepingInterface compiles a sample's files and refuses one that
// changed the interface (for reason); it also says what that took. The
// original's compile, which the interface check needs once per unit, is
// left out of the sample's figures: the unit's CPU is split over its
// samples' compiles by their wall time, and so spreads it over them.
func (c *compiler) compileKeepingInterface(ctx context.Context, contractID string, files map[string]string, reason string) (outcome, compileCost, error) {
	start, tally := time.Now(), &solc.Tally{}
	res, err := c.compile(solc.WithTally(ctx, tally), files)
	if err != nil {
		return res, compileCost{}, err
	}
	took := time.Since(start)
	if res.OK {
		if _, err := c.reference(ctx, contractID); err != nil {
			return res, compileCost{}, err
		}
	}
	start = time.Now()
	res, err = c.keepInterface(ctx, contractID, files, res, reason)
	starts, youth := tally.Figures()
	return res, compileCost{(took + time.Since(start)).Milliseconds(), int64(starts), youth}, err
}

// keepInterface records a compiled sample that changed the contract's
// interface as not compiling, for reason.
func (c *compiler) keepInterface(ctx context.Context, contractID string, files map[string]string, o outcome, reason string) (outcome, error) {
	if !o.OK {
		return o, nil
	}
	why, err := c.interfaceChange(ctx, contractID, files, o)
	if err != nil || why == "" {
		return o, err
	}
	return refuse(o, reason, why), nil
}

// readSample reads every file of a sample.
func (c *compiler) readSample(g schemas.Generation) (map[string]string, error) {
	data := c.env.Data
	if g.FilesPath != "" {
		return regen.ReadSampleFiles(data, g.FilesPath)
	}
	name, err := c.soleFile()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(data, filepath.FromSlash(g.SourcePath)))
	if err != nil {
		return nil, err
	}
	return map[string]string{name: string(b)}, nil
}
