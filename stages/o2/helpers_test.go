package o2

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
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// engines is shared by every test of the package: one set of compiler workers.
var engines = &pipeline.Engines{}

func TestMain(m *testing.M) {
	code := m.Run()
	engines.Close()
	os.Exit(code)
}

const demoCorpus = "../../data/corpus/demo"

// newEnv is a run environment over corpus with a fresh data folder.
func newEnv(t testing.TB, corpus string) *pipeline.Env {
	t.Helper()
	data := t.TempDir()
	return &pipeline.Env{
		Corpus: corpus, Data: data, Seed: 42, Jobs: 2,
		Log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		Out:       io.Discard,
		Warehouse: warehouse.New(filepath.Join(data, "warehouse")),
		Engines:   engines,
	}
}

// loadRecords reads the corpus contracts named (all when none are).
func loadRecords(t testing.TB, corpus string, budget int, ids ...string) []*deploy.Record {
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
		rec, err := deploy.Load(client, e, budget)
		if err != nil {
			t.Fatalf("%s: %v", e.ID, err)
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 || (len(ids) > 0 && len(recs) != len(ids)) {
		t.Fatalf("corpus %s: found %d of the contracts %v", corpus, len(recs), ids)
	}
	return recs
}

// compiledOnce keeps the compiler outputs of this test binary: several tests
// compile the same sources.
var compiledOnce sync.Map // compile input as JSON -> *solc.Output

func compileCached(env *pipeline.Env, in solc.Input) (*solc.Output, error) {
	key := mustJSON(in)
	if v, ok := compiledOnce.Load(key); ok {
		return v.(*solc.Output), nil
	}
	out, err := env.Engines.Solc().Compile(context.Background(), in)
	if err == nil {
		compiledOnce.Store(key, out)
	}
	return out, err
}

// compile compiles a record's original (files nil) or a variant of its
// sources and stores the output, returning the artifact id.
func compile(t testing.TB, env *pipeline.Env, rec *deploy.Record, files map[string]string) (string, *solc.Output) {
	t.Helper()
	out, err := compileCached(env, rec.CompileInput(files))
	if err != nil {
		t.Fatalf("%s: compile: %v", rec.Entry.ID, err)
	}
	id, err := artifact.New(env.Data).Put(out)
	if err != nil {
		t.Fatal(err)
	}
	return id, out
}

// writeInputs stores what verify and the generation stages would have written
// for one contract: kept, the original's artifact, and the samples.
func writeInputs(t testing.TB, env *pipeline.Env, id, origArtifact string, samples []schemas.Sample) {
	t.Helper()
	write(t, env, "contracts", id, []schemas.Contract{{ContractID: id, Kept: true}})
	write(t, env, "reproducibility", id, []schemas.Reproducibility{{ContractID: id, Kept: true, Artifact: origArtifact}})
	for i := range samples {
		samples[i].ContractID = id
	}
	write(t, env, "samples", id, samples)
}

func write[T any](t testing.TB, env *pipeline.Env, dataset, id string, rows []T) {
	t.Helper()
	if err := warehouse.Write(env.Warehouse.Path(dataset, warehouse.ByContract(id), "test"), rows); err != nil {
		t.Fatal(err)
	}
}

// compiled is a samples row for a compiling sample.
func compiled(model string, k int64, artifactID, mutations string) schemas.Sample {
	gen := model
	if len(gen) > 7 && gen[:7] == "import:" {
		gen = "import"
	}
	return schemas.Sample{Model: model, Sample: k, Generator: gen, CompiledRaw: true, CompiledRepaired: true,
		Artifact: artifactID, Mutations: mutations}
}

// references are k reference samples of the original.
func references(k int, artifactID string) []schemas.Sample {
	var out []schemas.Sample
	for i := 0; i < k; i++ {
		out = append(out, compiled("reference", int64(i), artifactID, ""))
	}
	return out
}

// runStage runs the stage through the runner and fails on any failed unit.
func runStage(t testing.TB, env *pipeline.Env, s pipeline.Stage) pipeline.Counters {
	t.Helper()
	r := &pipeline.Runner{Env: env}
	c, err := r.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if c.Failed > 0 {
		errs, _ := warehouse.ReadDataset[schemas.ErrorRow](env.Warehouse, "errors")
		t.Fatalf("%d unit(s) failed: %+v", c.Failed, errs)
	}
	return c
}

// openViews opens DuckDB with every view over the env's warehouse.
func openViews(t testing.TB, env *pipeline.Env) *sql.DB {
	t.Helper()
	db, err := views.OpenInMemory(env.Warehouse.Root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// queryMaps runs a query and returns its rows as column -> value maps.
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

// queryInt runs a query returning one integer.
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
