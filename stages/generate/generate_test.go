package generate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/llm/llmtest"
	"github.com/solbehave/solbehave/internal/mutate"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/regen/regentest"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// vaultReplies answers every Vault function; while down is set, withdraw gets HTTP 503.
func vaultReplies(down *atomic.Bool) func(int, llmtest.Request) llmtest.Reply {
	return func(n int, r llmtest.Request) llmtest.Reply {
		last := r.Last()
		switch {
		case strings.Contains(last, "function initialize() public\n```"):
			return llmtest.Reply{Content: llmtest.Fenced("function initialize() public {\n        initialized = true;\n    }")}
		case strings.Contains(last, "function deposit(uint256 amount) public\n```"):
			return llmtest.Reply{Content: "balance += amount;"}
		case strings.Contains(last, "function withdraw(uint256 amount) public\n```"):
			if down.Load() {
				return llmtest.Reply{Status: 503, Body: "overloaded"}
			}
			return llmtest.Reply{Content: llmtest.Fenced("function withdraw(uint256 amount) public {\n        balance -= amount;\n    }")}
		}
		return llmtest.Reply{Content: "?"}
	}
}

func rowsByModel(t *testing.T, env *pipeline.Env) map[string][]schemas.Generation {
	rows := stagetest.Rows(t, env, schemas.Generations)
	out := map[string][]schemas.Generation{}
	for _, r := range rows {
		out[r.Model] = append(out[r.Model], r)
	}
	return out
}

func TestGenerateAllKinds(t *testing.T) {
	env := regentest.Env(t, stagetest.DemoCorpus)
	o := regentest.Keep(t, env, "Vault")[0]
	regentest.Skeleton(t, env, o)
	var down atomic.Bool
	down.Store(true)
	srv := llmtest.New(t, vaultReplies(&down))
	s := New()
	s.Generators, s.Samples = []string{"mutant", "reference", "openai:m"}, 3
	s.LLM.BaseURL, s.LLM.Retries, s.LLM.Timeout, s.LLM.Concurrency = srv.BaseURL(), 0, 5*time.Second, 2

	c := stagetest.Run(t, env, s)
	if c.Units != 3 || c.Failed != 1 {
		t.Fatalf("first run %+v: want the openai unit failed (transient 503)", c)
	}
	got := rowsByModel(t, env)
	if len(got["mutant"]) != 3 || len(got["reference"]) != 3 || len(got["openai:m"]) != 3 {
		t.Fatalf("rows per model: %d %d %d", len(got["mutant"]), len(got["reference"]), len(got["openai:m"]))
	}
	for _, r := range got["openai:m"] {
		if r.FunctionsFailed != 1 || r.FunctionsGenerated != 2 || r.LLMCalls != 3 || r.Failure != regen.FailureEndpoint || r.SourcePath != "" {
			t.Errorf("openai sample with the 503: %+v", r)
		}
	}
	errs := stagetest.Rows(t, env, schemas.Errors)
	if len(errs) != 1 || !errs[0].Retriable || errs[0].Class != failure.Endpoint.String() {
		t.Fatalf("errors %+v", errs)
	}

	down.Store(false)
	if c := stagetest.Run(t, env, s); c.Ran != 1 || c.Skipped != 2 || c.Failed != 0 {
		t.Fatalf("second run %+v: want only the failed unit retried", c)
	}
	asked := srv.Count()
	got = rowsByModel(t, env)
	for _, r := range got["openai:m"] {
		if r.FunctionsFailed != 0 || r.FunctionsGenerated != 3 || r.Failure != "" || r.Seed != regen.SampleSeed(42, o.ID, "openai:m", int(r.Sample)) {
			t.Errorf("openai sample after the retry: %+v", r)
		}
		b, err := os.ReadFile(filepath.Join(env.Data, r.SourcePath))
		if err != nil || !strings.Contains(string(b), "balance -= amount;") {
			t.Errorf("sample file %s: %v", r.SourcePath, err)
		}
	}
	for _, r := range got["mutant"] {
		var ms []mutate.Mutation
		if err := json.Unmarshal([]byte(r.Mutations), &ms); err != nil || int64(len(ms)) != r.NMutated {
			t.Errorf("mutations %q: %v", r.Mutations, err)
		}
	}
	for _, r := range got["reference"] {
		if r.Mutations != "" || r.FunctionsGenerated != 3 {
			t.Errorf("reference row %+v", r)
		}
	}
	calls := stagetest.Rows(t, env, schemas.LLMCalls)
	if len(calls) != 9 {
		t.Fatalf("%d llm_calls rows, want 9 (3 samples x 3 functions)", len(calls))
	}
	cached := 0
	for _, c := range calls {
		if c.Cached {
			cached++
		}
	}
	if cached != 6 || srv.Count() != asked {
		t.Errorf("the retry re-asked cached calls: %d cached", cached)
	}

	s.Samples = 2
	stagetest.Run(t, env, s)
	got = rowsByModel(t, env)
	if len(got["mutant"]) != 2 {
		t.Fatalf("after --samples 2: %d mutant rows", len(got["mutant"]))
	}
	if _, err := os.Stat(filepath.Join(env.Data, regen.SamplePath(o.ID, "mutant", 2))); !os.IsNotExist(err) {
		t.Error("sample 2's file survived --samples 2")
	}
}

func TestDefaultGenerators(t *testing.T) {
	env := regentest.Env(t, stagetest.DemoCorpus)
	s := New()
	gens, err := s.generators(env)
	if err != nil || len(gens) != 2 || gens[0].Name() != "mutant" || gens[1].Name() != "reference" {
		t.Fatalf("default generators %v %v", gens, err)
	}
	s.LLM.BaseURL = "http://localhost:1/v1"
	if _, err := s.generators(env); err == nil {
		t.Fatal("--llm-url without an openai generator was accepted")
	}
	s.Generators = []string{"mutant", "mutant"}
	if _, err := s.generators(env); err == nil {
		t.Fatal("a generator named twice was accepted")
	}
	// Names that the sample folders map alike are refused too.
	imports := t.TempDir()
	os.Mkdir(filepath.Join(imports, "a+b"), 0o755)
	os.Mkdir(filepath.Join(imports, "a_b"), 0o755)
	for _, pair := range [][]string{{"import:" + filepath.Join(imports, "a+b"), "import:" + filepath.Join(imports, "a_b")},
		{"openai:m+x", "openai:m_x"}, {"openai:org/m", "openai:org_m"}} {
		s.Generators = pair
		if _, err := s.generators(env); err == nil || !strings.Contains(err.Error(), "share the sample folder") {
			t.Errorf("%q: want the pair refused, got %v", pair, err)
		}
	}
}

// TestFailedGenerations: an endpoint that answers 404 to every request is
// not the model's failure: every sample is marked endpoint, the unit fails
// with class endpoint (exit status 2), not retried; a model that answers
// garbage fails its samples (failure model, no source) and the unit passes.
func TestFailedGenerations(t *testing.T) {
	env := regentest.Env(t, stagetest.DemoCorpus)
	o := regentest.Keep(t, env, "Vault")[0]
	regentest.Skeleton(t, env, o)
	missing := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply { return llmtest.Reply{Status: 404, Body: "not found"} })
	garbage := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "Sorry, I cannot write Solidity."}
	})

	s := New()
	s.Generators, s.Samples = []string{"openai:m"}, 2
	s.LLM.BaseURL, s.LLM.Retries, s.LLM.Timeout = missing.BaseURL(), 1, 5*time.Second
	if c := stagetest.Run(t, env, s); c.Failed != 1 {
		t.Fatalf("404 endpoint: %+v, want the unit failed", c)
	}
	errs := stagetest.Rows(t, env, schemas.Errors)
	if len(errs) != 1 || errs[0].Class != failure.Endpoint.String() || errs[0].Retriable || !strings.Contains(errs[0].Message, "404") {
		t.Fatalf("errors %+v", errs)
	}
	for _, r := range rowsByModel(t, env)["openai:m"] {
		if r.Failure != regen.FailureEndpoint || r.SourcePath != "" || r.LLMCalls != 1 || !strings.Contains(r.Error, "endpoint failure") {
			t.Errorf("404 sample %+v", r)
		}
	}

	s.LLM.BaseURL = garbage.BaseURL()
	s.Generators = []string{"openai:g"}
	if c := stagetest.Run(t, env, s); c.Failed != 0 {
		t.Fatalf("garbage replies: %+v, want no failed unit", c)
	}
	rows := rowsByModel(t, env)["openai:g"]
	if len(rows) != 2 {
		t.Fatalf("%d garbage rows", len(rows))
	}
	for _, r := range rows {
		if r.Failure != regen.FailureModel || r.SourcePath != "" || r.FunctionsFailed != 1 || !strings.Contains(r.Error, "model failure") {
			t.Errorf("garbage sample %+v", r)
		}
	}
}

// TestGenerateAcrossFiles: on a multi-file source every sample completes
// the 17 bodies of the chain across its files and is stored with every
// file (files_path), each body in the file that declares it: the
// reference's base file holds the base's original bodies, and mutants
// mutate functions whose bodies live in the bases' files.
func TestGenerateAcrossFiles(t *testing.T) {
	env := regentest.MultiFileEnv(t)
	o := regentest.Keep(t, env, stagetest.MultiFileTarget)[0]
	sk := regentest.Skeleton(t, env, o)
	s := New()
	s.Generators, s.Samples, s.MutationRate = []string{"mutant", "reference"}, 3, 0.5
	if c := stagetest.Run(t, env, s); c.Failed != 0 || c.Ran != 2 {
		t.Fatalf("counters %+v", c)
	}
	declaredIn := map[string]string{}
	for _, f := range sk.Functions {
		declaredIn[f.Key] = f.File
	}
	inBase := 0
	for model, rows := range rowsByModel(t, env) {
		for _, r := range rows {
			if r.FunctionsGenerated != 17 || r.FilesPath == "" {
				t.Fatalf("%s sample %d: %d bodies, files %q", model, r.Sample, r.FunctionsGenerated, r.FilesPath)
			}
			b, err := os.ReadFile(filepath.Join(env.Data, r.FilesPath))
			if err != nil {
				t.Fatal(err)
			}
			var files map[string]string
			if err := json.Unmarshal(b, &files); err != nil || len(files) != 6 || strings.Contains(stagetest.JSON(files), "TODO") {
				t.Fatalf("%s sample %d files: %v", model, r.Sample, err)
			}
			base := files[stagetest.MultiFileBase]
			if model == "reference" && (!strings.Contains(base, `require(balance >= amount, "BaseToken: balance");`) || strings.Contains(base, "/// @title")) {
				t.Errorf("reference sample %d: the base's file\n%s", r.Sample, base)
			}
			var ms []mutate.Mutation
			json.Unmarshal([]byte(r.Mutations), &ms)
			for _, m := range ms {
				if declaredIn[m.Function] != stagetest.MultiFileFile {
					inBase++
				}
			}
		}
	}
	if inBase == 0 {
		t.Error("no mutant mutated a function of a base's file")
	}
}

// TestModelNamesAreTheGenerators: the names runStages claims before any
// stage runs are the models' as the model column has them (import: its
// folder's base name), whose folder names then collide as the files would.
func TestModelNamesAreTheGenerators(t *testing.T) {
	data, dirs := t.TempDir(), t.TempDir()
	stage := func(folder string) *Stage {
		if err := os.MkdirAll(filepath.Join(dirs, folder), 0o755); err != nil {
			t.Fatal(err)
		}
		s := New()
		s.Generators = []string{"mutant", "import:" + filepath.Join(dirs, folder)}
		return s
	}
	first := stage("a+b")
	if got := first.ModelNames(data); len(got) != 2 || got[0] != "mutant" || got[1] != "import:a+b" {
		t.Fatalf("model names %q", got)
	}
	if err := pipeline.ClaimStagesModels(data, []pipeline.Stage{first}); err != nil {
		t.Fatal(err)
	}
	if err := pipeline.ClaimStagesModels(data, []pipeline.Stage{stage("a_b")}); err == nil {
		t.Error("import:a_b claimed import:a+b's folders")
	}
}

// TestKilledWritesAreRemoved: a SIGKILL between a sample's create and
// rename left `.0.sol.tmp-*` in its folder, which the resumed run kept.
func TestKilledWritesAreRemoved(t *testing.T) {
	env := regentest.Env(t, stagetest.DemoCorpus)
	o := regentest.Keep(t, env, "Vault")[0]
	regentest.Skeleton(t, env, o)
	dir := filepath.Join(env.Data, regen.SampleDir(o.ID, "reference"))
	os.MkdirAll(dir, 0o755)
	left := filepath.Join(dir, ".0.sol.tmp-2087145")
	os.WriteFile(left, []byte("contract Half"), 0o644)
	s := New()
	s.Generators, s.Samples = []string{"reference"}, 1
	if c := stagetest.Run(t, env, s); c.Ran != 1 || c.Failed != 0 {
		t.Fatalf("the resumed run: %+v", c)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("the killed write's %s is still there (%v)", filepath.Base(left), err)
	}
}
