// Package stagetest is the kit the oracle stages' tests share: a run
// environment over a scratch data folder, corpus records, compiles cached
// per test binary, the input rows verify and the generation stages would
// have written, a runner that fails on failed units, and DuckDB queries over
// the views. It is imported by tests only.
package stagetest

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/proxy"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// DemoCorpus is the repository's demo corpus as a test reaches it from
// its package folder two levels below the root (every stage's, and this
// package's).
const DemoCorpus = "../../data/corpus/demo"

// engines is shared by the tests of one test binary (one package): one
// set of compiler workers, warm across the package's tests.
var engines = &pipeline.Engines{}

// Compiler is the solc manager of the test binary's shared engines.
func Compiler() *solc.Manager { return engines.Solc() }

// Main runs a package's tests, then closes the engines they shared: the
// TestMain of a package whose tests call NewEnv or Compiler.
func Main(m *testing.M) {
	code := m.Run()
	engines.Close()
	os.Exit(code)
}

// NewEnv is a run environment over corpus with a fresh data folder and the
// test binary's shared engines.
func NewEnv(t testing.TB, corpus string) *pipeline.Env {
	t.Helper()
	return newEnv(t, corpus, engines)
}

// IsolatedEnv is NewEnv with engines of its own, closed when the test
// ends: for a test that sets their options or must not share workers.
func IsolatedEnv(t testing.TB, corpus string) *pipeline.Env {
	t.Helper()
	env := newEnv(t, corpus, &pipeline.Engines{})
	t.Cleanup(env.Engines.Close)
	return env
}

func newEnv(t testing.TB, corpus string, engines *pipeline.Engines) *pipeline.Env {
	data := t.TempDir()
	return &pipeline.Env{
		Corpus: corpus, Data: data, Seed: 42, Jobs: 2,
		Log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		Out:       io.Discard,
		Warehouse: warehouse.New(filepath.Join(data, "warehouse")),
		Engines:   engines,
	}
}

// LoadRecords reads the corpus contracts whose id or name is given (all
// when none are), each with its first budget transactions.
func LoadRecords(t testing.TB, corpus string, budget int, ids ...string) []*deploy.Record {
	t.Helper()
	c, err := deploy.OpenCorpus(corpus)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	var recs []*deploy.Record
	for _, e := range c.Entries {
		if len(ids) > 0 && !want[e.ID] && !want[e.Name] {
			continue
		}
		rec, err := c.Load(e, budget)
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

// Admitted leaves out the records the crawl's proxy filter drops (the demo
// corpus's ERC1967Proxy): verify keeps none of them, so no oracle sees them.
func Admitted(recs []*deploy.Record) []*deploy.Record {
	var out []*deploy.Record
	for _, rec := range recs {
		if !proxy.DetectContract(rec.Source, rec.CreationInput()).Proxy {
			out = append(out, rec)
		}
	}
	return out
}

// compiled keeps the compiler outputs of a test binary: several tests
// compile the same sources, and solc takes seconds on a busy machine.
var compiled sync.Map // compile input as JSON -> *solc.Output

// CompileCached compiles in once per test binary.
func CompileCached(env *pipeline.Env, in solc.Input) (*solc.Output, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	key := string(b)
	if v, ok := compiled.Load(key); ok {
		return v.(*solc.Output), nil
	}
	out, err := env.Engines.Solc().Compile(context.Background(), in)
	if err == nil {
		compiled.Store(key, out)
	}
	return out, err
}

// Compile compiles a record's original (files nil) or a variant of its
// sources, stores the output and returns its artifact id.
func Compile(t testing.TB, env *pipeline.Env, rec *deploy.Record, files map[string]string) (string, *solc.Output) {
	t.Helper()
	out, err := CompileCached(env, rec.CompileInput(files))
	if err != nil {
		t.Fatalf("%s: compile: %v", rec.Entry.ID, err)
	}
	id, err := artifact.New(env.Data).Put(out)
	if err != nil {
		t.Fatal(err)
	}
	return id, out
}

// WriteInputs stores what verify and the generation stages would have
// written for one contract: kept, the original's artifact, and the samples.
func WriteInputs(t testing.TB, env *pipeline.Env, id, origArtifact string, samples []schemas.Sample) {
	t.Helper()
	Write(t, env, schemas.Contracts, id, "test", []schemas.Contract{{ContractID: id, Kept: true}})
	Write(t, env, schemas.Reproducibility, id, "test", []schemas.ReproducibilityRow{{ContractID: id, Kept: true, Artifact: origArtifact}})
	for i := range samples {
		samples[i].ContractID = id
	}
	Write(t, env, schemas.Samples, id, "test", samples)
}

// Write stores rows of a dataset in the contract's partition, file part.
func Write[T any](t testing.TB, env *pipeline.Env, dataset schemas.Table[T], id, part string, rows []T) {
	t.Helper()
	if err := warehouse.Write(env.Warehouse.Path(dataset.Name(), warehouse.ByContract(id), part), rows); err != nil {
		t.Fatal(err)
	}
}

// Sample is a samples row of a compiling sample; the generator is the
// model's kind (the part before ':').
func Sample(model string, k int64, artifactID, mutations string) schemas.Sample {
	gen, _, _ := strings.Cut(model, ":")
	return schemas.Sample{Model: model, Sample: k, Generator: gen, CompiledRaw: true, CompiledRepaired: true,
		Artifact: artifactID, Mutations: mutations}
}

// References are k reference samples of the original.
func References(k int, artifactID string) []schemas.Sample {
	var out []schemas.Sample
	for i := range k {
		out = append(out, Sample("reference", int64(i), artifactID, ""))
	}
	return out
}

// Run runs the stage through the runner and fails on a run error; failed
// units are only counted, for tests that expect some.
func Run(t testing.TB, env *pipeline.Env, s pipeline.Stage) pipeline.Counters {
	t.Helper()
	c, err := (&pipeline.Runner{Env: env}).Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// RunStage runs the stage through the runner and fails on any failed unit.
func RunStage(t testing.TB, env *pipeline.Env, s pipeline.Stage) pipeline.Counters {
	t.Helper()
	c := Run(t, env, s)
	if c.Failed > 0 {
		errs, _ := warehouse.ReadDataset(env.Warehouse, schemas.Errors)
		t.Fatalf("%d unit(s) failed: %+v", c.Failed, errs)
	}
	return c
}

// Rows reads every row of a dataset in the env's warehouse.
func Rows[T any](t testing.TB, env *pipeline.Env, dataset schemas.Table[T]) []T {
	t.Helper()
	rows, err := warehouse.ReadDataset(env.Warehouse, dataset)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// OpenViews opens DuckDB with every view over the env's warehouse.
func OpenViews(t testing.TB, env *pipeline.Env) *sql.DB {
	t.Helper()
	db, err := views.OpenInMemory(env.Warehouse.Root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// QueryMaps runs a query and returns its rows as column -> value maps.
func QueryMaps(t testing.TB, db *sql.DB, q string, args ...any) []map[string]any {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []map[string]any
	err = views.EachRow(rows, func(vals []any) error {
		m := map[string]any{}
		for i, c := range cols {
			m[c] = vals[i]
		}
		out = append(out, m)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// QueryInt runs a query returning one integer (0 for NULL).
func QueryInt(t testing.TB, db *sql.DB, q string, args ...any) int64 {
	t.Helper()
	var n sql.NullInt64
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n.Int64
}

// JSON is v as JSON, for comparing query results with what a test expects.
func JSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
