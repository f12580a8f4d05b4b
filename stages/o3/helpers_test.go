package o3

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/replay"
	"github.com/solbehave/solbehave/internal/sequence"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

var engines = &pipeline.Engines{}

func TestMain(m *testing.M) {
	code := m.Run()
	engines.Close()
	os.Exit(code)
}

const demoCorpus = "../../data/corpus/demo"

func newEnv(t testing.TB, corpus string) *pipeline.Env {
	t.Helper()
	data := t.TempDir()
	return &pipeline.Env{Corpus: corpus, Data: data, Seed: 42, Jobs: 2,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Out: io.Discard,
		Warehouse: warehouse.New(filepath.Join(data, "warehouse")), Engines: engines}
}

// loadRecords reads the corpus contracts named (all when none are).
func loadRecords(t testing.TB, corpus string, ids ...string) []*deploy.Record {
	t.Helper()
	client, err := etherscan.NewRecorded(corpus)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := etherscan.ListCorpus(corpus)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	var recs []*deploy.Record
	for _, e := range entries {
		if len(ids) > 0 && !want[e.ID] {
			continue
		}
		rec, err := deploy.Load(client, e, 1000)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 || (len(ids) > 0 && len(recs) != len(ids)) {
		t.Fatalf("corpus %s: found %d of %v", corpus, len(recs), ids)
	}
	return recs
}

var compiledOnce sync.Map // compile input as JSON -> *solc.Output

// compile compiles a record's original (files nil) or a variant of its
// sources, stores the output and returns its artifact id.
func compile(t testing.TB, env *pipeline.Env, rec *deploy.Record, files map[string]string) (string, *solc.Output) {
	t.Helper()
	in := rec.CompileInput(files)
	key := mustJSON(in)
	var out *solc.Output
	if v, ok := compiledOnce.Load(key); ok {
		out = v.(*solc.Output)
	} else {
		var err error
		if out, err = env.Engines.Solc().Compile(context.Background(), in); err != nil {
			t.Fatalf("%s: compile: %v", rec.Entry.ID, err)
		}
		compiledOnce.Store(key, out)
	}
	id, err := artifact.New(env.Data).Put(out)
	if err != nil {
		t.Fatal(err)
	}
	return id, out
}

// writeInputs stores what verify and compile would have for one contract.
func writeInputs(t testing.TB, env *pipeline.Env, id, origArtifact string, samples []schemas.Sample) {
	t.Helper()
	write(t, env, "contracts", id, "test", []schemas.Contract{{ContractID: id, Kept: true}})
	write(t, env, "reproducibility", id, "test", []schemas.Reproducibility{{ContractID: id, Kept: true, Artifact: origArtifact}})
	for i := range samples {
		samples[i].ContractID = id
	}
	write(t, env, "samples", id, "test", samples)
}

func write[T any](t testing.TB, env *pipeline.Env, dataset, id, part string, rows []T) {
	t.Helper()
	if err := warehouse.Write(env.Warehouse.Path(dataset, warehouse.ByContract(id), part), rows); err != nil {
		t.Fatal(err)
	}
}

func compiled(model string, k int64, artifactID, mutations string) schemas.Sample {
	return schemas.Sample{Model: model, Sample: k, Generator: model, CompiledRaw: true, CompiledRepaired: true,
		Artifact: artifactID, Mutations: mutations}
}

func references(k int, artifactID string) []schemas.Sample {
	var out []schemas.Sample
	for i := 0; i < k; i++ {
		out = append(out, compiled("reference", int64(i), artifactID, ""))
	}
	return out
}

// writeSequences runs Algorithm 1 with the static graph, as the sequences
// stage does, and writes its rows under extractor.
func writeSequences(t testing.TB, env *pipeline.Env, rec *deploy.Record, out *solc.Output, budget int, extractors ...string) *sequence.Result {
	t.Helper()
	res, err := dcrextract.Static(dcrextract.FromRecord(rec, out))
	if err != nil {
		t.Fatal(err)
	}
	c, err := sequence.FromRecord(rec, out, res.Graph)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sequence.DefaultConfig()
	cfg.Budget = budget
	gen, err := sequence.Generate(context.Background(), c, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range extractors {
		write(t, env, "sequence_calls", rec.Entry.ID, "sequences-"+ex, gen.Rows(rec.Entry.ID, ex))
	}
	return gen
}

// writeO2 replays the record's history on the original and the samples
// as the o2 stage does, and writes O2's replay_calls and coverage rows.
func writeO2(t testing.TB, env *pipeline.Env, rec *deploy.Record, out *solc.Output, samples []schemas.Sample) {
	t.Helper()
	target, err := rec.Target(out)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := deploy.Deploy(rec, out, target, nil, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var smps []replay.Sample
	for _, s := range samples {
		o, err := artifact.New(env.Data).Get(s.Artifact)
		if err != nil {
			t.Fatal(err)
		}
		d, err := deploy.DeploySample(rec, orig, o, chain.Options{})
		if err != nil {
			t.Fatal(err)
		}
		smps = append(smps, replay.Sample{Model: s.Model, Sample: s.Sample, Deployment: d})
	}
	res, err := replay.Compare(context.Background(), orig, smps, []replay.Sequence{replay.History(rec.Txs)}, replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := replay.Labels{ContractID: rec.Entry.ID, Oracle: schemas.OracleO2}
	write(t, env, "replay_calls", rec.Entry.ID, "o2", res.CallRows(l))
	write(t, env, "coverage", rec.Entry.ID, "o2", res.CoverageRows(l, ""))
}

func runStage(t testing.TB, env *pipeline.Env, s pipeline.Stage) pipeline.Counters {
	t.Helper()
	c, err := (&pipeline.Runner{Env: env}).Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if c.Failed > 0 {
		errs, _ := warehouse.ReadDataset[schemas.ErrorRow](env.Warehouse, "errors")
		t.Fatalf("%d unit(s) failed: %+v", c.Failed, errs)
	}
	return c
}

func openViews(t testing.TB, env *pipeline.Env) *sql.DB {
	t.Helper()
	db, err := views.OpenInMemory(env.Warehouse.Root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func queryMaps(t testing.TB, db *sql.DB, q string, args ...any) []map[string]any {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []map[string]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		m := map[string]any{}
		for i, c := range cols {
			m[c] = vals[i]
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func queryInt(t testing.TB, db *sql.DB, q string, args ...any) int64 {
	t.Helper()
	var n sql.NullInt64
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n.Int64
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
