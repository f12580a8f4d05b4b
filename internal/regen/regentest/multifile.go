package regentest

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/mutate"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// BaseMutation is the body the multi-file fixture's base mutants change:
// BaseToken._transfer, a body of a base that lives in another file than
// the deployed contract. Its zero-address check is what they mutate:
// dropped (mutant 0), the history's transfer to the zero address reverts
// on the original and succeeds on the mutant; negated (relational `==`),
// every transfer the original accepts reverts on the mutant.
const BaseMutation = "BaseToken._transfer"

// MultiFileSamples writes, for the multi-file fixture's record, the inputs
// the oracles read: the original kept with its artifact, and compiling
// samples made through the chain skeleton, as the generate stage makes
// them: the reference (model reference) and mutant 0, whose one mutation
// drops BaseMutation's zero-address check; each of ops adds one more
// mutant (1, 2, ...) whose one mutation is that operator on the same
// check. Each sample's files are stored under the data folder
// (samples.files_path). It returns the original's artifact.
func MultiFileSamples(t testing.TB, env *pipeline.Env, rec *deploy.Record, ops ...string) string {
	t.Helper()
	origID, out := stagetest.Compile(t, env, rec, nil)
	orig, target, err := regen.OriginalOf(rec, out)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := skeleton.Build(orig.SkeletonInput(target, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := regen.New(regen.KindReference, regen.Config{})
	if err != nil {
		t.Fatal(err)
	}
	res := ref.Generate(context.Background(), regen.Task{ContractID: rec.Entry.ID, Skeleton: sk, Original: orig})
	if res.Err != "" {
		t.Fatal(res.Err)
	}
	samples := []schemas.Sample{multiFileSample(t, env, rec, "reference", 0, res.Files, "")}
	for k, op := range append([]string{mutate.DropRequire}, ops...) {
		mutated, m := mutateBase(t, sk, orig, op)
		samples = append(samples, multiFileSample(t, env, rec, "mutant", int64(k), mutated, stagetest.JSON([]mutate.Mutation{m})))
	}
	stagetest.WriteInputs(t, env, rec.Entry.ID, origID, samples)
	return origID
}

// mutateBase is the reference with operator op applied to
// BaseMutation's zero-address check (for relational, the `==` variant).
func mutateBase(t testing.TB, sk *skeleton.Skeleton, orig *regen.Original, op string) (map[string]string, mutate.Mutation) {
	t.Helper()
	var fn skeleton.Function
	for _, f := range sk.Functions {
		if f.Key == BaseMutation {
			fn = f
		}
	}
	if fn.Key == "" {
		t.Fatalf("the chain skeleton has no hole for %s", BaseMutation)
	}
	src := orig.Files[fn.File]
	check := strings.Index(src, "require(to != address(0)")
	if check < 0 {
		t.Fatalf("%s has no zero-address check", BaseMutation)
	}
	end := check + strings.Index(src[check:], ";")
	var site mutate.Site
	for _, c := range solast.Contracts(orig.ASTs[fn.File]) {
		for _, d := range solast.Functions(c.Node) {
			if d.Src.Start != fn.Orig.Start {
				continue
			}
			for _, s := range mutate.Sites(src, d, mutate.Options{Checked: true}) {
				if s.Operator == op && s.Start >= check && s.End <= end+1 && (op != mutate.Relational || s.Text == "==") {
					site = s
				}
			}
		}
	}
	if site.Operator == "" {
		t.Fatalf("no %s site on the zero-address check of %s", op, BaseMutation)
	}
	o := skeleton.NewOriginal(orig.Files)
	bodies := map[int]string{}
	for _, i := range sk.Holes() {
		bodies[i] = o.Body(sk.Functions[i])
	}
	bodies[fn.Index] = o.Body(fn, skeleton.Edit{Start: site.Start, End: site.End, Text: site.Text})
	return sk.Fill(bodies, nil, ""), mutate.Mutation{Function: fn.Key, Signature: fn.Signature, Operator: site.Operator, Detail: site.Detail}
}

// multiFileSample compiles files as the compile stage does (the record's
// standard-JSON settings) and stores them as sample k of model.
func multiFileSample(t testing.TB, env *pipeline.Env, rec *deploy.Record, model string, k int64, files map[string]string, mutations string) schemas.Sample {
	t.Helper()
	in, err := regen.CompileInput(rec, files)
	if err != nil {
		t.Fatal(err)
	}
	out, err := stagetest.CompileCached(env, in)
	if err != nil {
		t.Fatalf("%s sample: %v", model, err)
	}
	id, err := artifact.New(env.Data).Put(out)
	if err != nil {
		t.Fatal(err)
	}
	smp := stagetest.Sample(model, k, id, mutations)
	dir := regen.SampleDir(rec.Entry.ID, model)
	smp.SourcePath, smp.FilesPath = path.Join(dir, fmt.Sprintf("%d.sol", k)), path.Join(dir, fmt.Sprintf("%d.files.json", k))
	b, err := json.Marshal(files)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, env.Data, smp.SourcePath, []byte(files[stagetest.MultiFileFile]))
	writeFile(t, env.Data, smp.FilesPath, b)
	return smp
}
