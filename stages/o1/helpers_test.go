package o1

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

// figure1Withdraw is the regenerated withdraw of the paper's Figure 1.
const figure1Withdraw = `function withdraw(uint256 amount) public {
        if (!initialized) return;
        balance -= amount;
    }`

// newEnv is a run environment over the demo corpus with a fresh data folder.
func newEnv(t testing.TB) *pipeline.Env {
	t.Helper()
	data := t.TempDir()
	return &pipeline.Env{
		Corpus: demoCorpus, Data: data, Seed: 42, Jobs: 2,
		Log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		Out:       io.Discard,
		Warehouse: warehouse.New(filepath.Join(data, "warehouse")),
		Engines:   engines,
	}
}

// loadDemo reads a demo contract by name.
func loadDemo(t testing.TB, name string) *deploy.Record {
	t.Helper()
	client, err := etherscan.NewRecorded(demoCorpus)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := etherscan.ListCorpus(demoCorpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name == name {
			rec, err := deploy.Load(client, e, historyLimit)
			if err != nil {
				t.Fatal(err)
			}
			return rec
		}
	}
	t.Fatalf("no %s in the demo corpus", name)
	return nil
}

// compiledOnce keeps this test binary's compiler outputs: solc takes seconds
// on a busy machine.
var compiledOnce sync.Map // compile input as JSON -> *solc.Output

// compile compiles the record's source edited by edit (nil: unchanged) and
// stores the output, returning the artifact id.
func compile(t testing.TB, env *pipeline.Env, rec *deploy.Record, edit func(string) string) string {
	t.Helper()
	var files map[string]string
	if edit != nil {
		files = map[string]string{}
		for name, src := range rec.Files.Files {
			files[name] = edit(src)
			if files[name] == src {
				t.Fatal("the edit changed nothing")
			}
		}
	}
	in := rec.CompileInput(files)
	key, _ := json.Marshal(in)
	var out *solc.Output
	if v, ok := compiledOnce.Load(string(key)); ok {
		out = v.(*solc.Output)
	} else {
		var err error
		if out, err = env.Engines.Solc().Compile(context.Background(), in); err != nil {
			t.Fatalf("%s: compile: %v", rec.Entry.ID, err)
		}
		compiledOnce.Store(string(key), out)
	}
	id, err := artifact.New(env.Data).Put(out)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// writeInputs stores what verify and the generation stages would have
// written for one contract.
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

// compiledSample is a samples row of a compiling sample.
func compiledSample(model string, k int64, artifactID string) schemas.Sample {
	return schemas.Sample{Model: model, Sample: k, Generator: strings.SplitN(model, ":", 2)[0],
		CompiledRaw: true, CompiledRepaired: true, Artifact: artifactID}
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

// replaceFunction swaps the function whose header starts with header for body.
func replaceFunction(t testing.TB, src, header, body string) string {
	t.Helper()
	start := strings.Index(src, header)
	if start < 0 {
		t.Fatalf("no %q in the source", header)
	}
	depth := 0
	for i := strings.Index(src[start:], "{") + start; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return src[:start] + body + src[i+1:]
			}
		}
	}
	t.Fatalf("unbalanced braces after %q", header)
	return ""
}
