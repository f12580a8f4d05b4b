package o3

import (
	"context"
	"testing"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/callseq"
	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/replay"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/internal/subjects"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

func TestMain(m *testing.M) { stagetest.Main(m) }

// demoVault writes the inputs of the demo Vault with its original
// recompiled as sample 0 of each model, and returns the environment, the
// record and the original's compiler output.
func demoVault(t *testing.T, models ...string) (*pipeline.Env, *deploy.Record, *solc.Output) {
	t.Helper()
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	rec := stagetest.LoadRecords(t, stagetest.DemoCorpus, 1000, stagetest.VaultID)[0]
	id, out := stagetest.Compile(t, env, rec, nil)
	var samples []schemas.Sample
	for _, m := range models {
		samples = append(samples, stagetest.Sample(m, 0, id, ""))
	}
	stagetest.WriteInputs(t, env, stagetest.VaultID, id, samples)
	return env, rec, out
}

// writeSequences runs Algorithm 1 with the static graph, as the sequences
// stage does under the paper profile, and writes its rows under extractor.
func writeSequences(t testing.TB, env *pipeline.Env, rec *deploy.Record, out *solc.Output, budget int, extractors ...string) *callseq.Result {
	t.Helper()
	return writeProfile(t, env, rec, out, budget, callseq.ProfilePaper, extractors...)
}

// writeProfile is writeSequences under the named profile.
func writeProfile(t testing.TB, env *pipeline.Env, rec *deploy.Record, out *solc.Output, budget int, profile string, extractors ...string) *callseq.Result {
	t.Helper()
	res, err := dcrextract.Static(dcrextract.FromRecord(rec, out))
	if err != nil {
		t.Fatal(err)
	}
	c, err := callseq.FromRecord(rec, out, res.Graph)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := callseq.ProfileConfig(profile)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Budget = budget
	gen, err := callseq.Generate(context.Background(), c, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range extractors {
		stagetest.Write(t, env, schemas.SequenceCalls, rec.Entry.ID, "sequences-"+ex+"-"+profile, gen.Rows(rec.Entry.ID, ex, profile))
	}
	return gen
}

// writeO2 replays the record's history on the original and the samples
// as the o2 stage does, and writes O2's replay_calls and coverage rows.
func writeO2(t testing.TB, env *pipeline.Env, rec *deploy.Record, out *solc.Output, samples []schemas.Sample) {
	t.Helper()
	orig := deploytest.DeployTarget(t, rec, out)
	smps, err := subjects.DeploySamples(artifact.New(env.Data), rec, orig, samples)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range smps {
		if s.Deployment == nil {
			t.Fatalf("sample %s/%d: %s", s.Model, s.Sample, s.DeployErr)
		}
	}
	res, err := replay.Compare(context.Background(), orig, smps, []replay.Sequence{replay.History(rec.Txs)}, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := replay.Labels{ContractID: rec.Entry.ID, Oracle: schemas.OracleO2}
	stagetest.Write(t, env, schemas.ReplayCalls, rec.Entry.ID, "o2", res.CallRows(l))
	stagetest.Write(t, env, schemas.Coverage, rec.Entry.ID, "o2", res.CoverageRows(l, ""))
}
