package compile

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/bytecode"
	"github.com/solbehave/solbehave/internal/llm/llmtest"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/regen/regentest"
	"github.com/solbehave/solbehave/internal/soltext"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// asLLM presents the reference generator as an LLM's, so its samples are repairable.
type asLLM struct{ regen.Generator }

func (asLLM) Name() string { return "openai:m" }
func (asLLM) Kind() string { return regen.KindOpenAI }

func breakDeposit(k int, _, src string) string {
	if k == 1 {
		return strings.Replace(src, "balance += amount;", "balance += amont;", 1)
	}
	return src
}

func TestCompileAndRepair(t *testing.T) {
	env := regentest.Env(t, stagetest.DemoCorpus)
	o := regentest.Keep(t, env, "Vault")[0]
	sk := regentest.Skeleton(t, env, o)
	ref, _ := regen.New("reference", regen.Config{})
	mut, _ := regen.New("mutant", regen.Config{MutationRate: 0.5})
	regentest.Generate(t, env, o, sk, ref, 2, nil)
	regentest.Generate(t, env, o, sk, mut, 3, breakDeposit)
	regentest.Generate(t, env, o, sk, asLLM{ref}, 2, breakDeposit)
	srv := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		if r.Temperature != 0.2 || !strings.Contains(r.Last(), "Undeclared identifier") {
			return llmtest.Reply{Status: 400, Body: "unexpected repair request"}
		}
		broken := r.Last()[strings.Index(r.Last(), "```solidity\n")+12:]
		def, _ := soltext.FindContract(broken, "Vault")
		return llmtest.Reply{Content: "The fix:\n" + llmtest.Fenced(strings.Replace(broken[def.Start:def.End], "amont", "amount", 1))}
	})
	s := repairingThrough(srv)
	c, rows := compileAll(t, env, s)
	if c.Units != 3 {
		t.Fatalf("run %+v", c)
	}
	got := byModelSample(rows)
	if len(rows) != 7 {
		t.Fatalf("%d sample rows, want 7", len(rows))
	}
	for _, k := range []string{"reference/0", "reference/1", "mutant/0", "mutant/2", "openai:m/0"} {
		r := got[k]
		if !r.CompiledRaw || !r.CompiledRepaired || r.RepairAttempted || r.Error != "" || r.Artifact == "" {
			t.Errorf("%s: %+v", k, r)
		}
		checkArtifact(t, env, r)
	}
	if m := got["mutant/1"]; m.CompiledRaw || m.CompiledRepaired || m.RepairAttempted || !strings.Contains(m.Error, "Undeclared identifier") || m.RawError != m.Error {
		t.Errorf("broken mutant: %+v", m)
	}
	l := got["openai:m/1"]
	if l.CompiledRaw || !l.RepairAttempted || !l.CompiledRepaired || l.Error != "" || !strings.Contains(l.RawError, "Undeclared") ||
		!strings.HasSuffix(l.SourcePath, "1.repaired.sol") {
		t.Errorf("repaired LLM sample: %+v", l)
	}
	checkArtifact(t, env, l)
	fixed, _ := os.ReadFile(filepath.Join(env.Data, l.SourcePath))
	if sum := sha256.Sum256(fixed); hex.EncodeToString(sum[:]) != l.SourceSHA256 || strings.Contains(string(fixed), "amont") {
		t.Error("the repaired source on disk does not match its row")
	}
	calls := stagetest.Rows(t, env, schemas.LLMCalls)
	if len(calls) != 1 || calls[0].Purpose != "repair" || calls[0].Sample != 1 || calls[0].Error != "" {
		t.Fatalf("llm_calls %+v", calls)
	}
	if got["reference/0"].CreationCodeSHA256 != got["openai:m/0"].CreationCodeSHA256 {
		t.Error("identical sources compiled to different creation code")
	}
	if c := stagetest.Run(t, env, s); c.Skipped != 3 {
		t.Fatalf("rerun %+v", c)
	}
}

// compileAll runs s, wants no unit failed, and returns the counters and
// the `samples` rows.
func compileAll(t *testing.T, env *pipeline.Env, s *Stage) (pipeline.Counters, []schemas.Sample) {
	t.Helper()
	c := stagetest.Run(t, env, s)
	if c.Failed != 0 {
		t.Fatalf("run %+v", c)
	}
	return c, stagetest.Rows(t, env, schemas.Samples)
}

// repairingThrough is the stage with its repair requests sent to srv.
func repairingThrough(srv *llmtest.Server) *Stage {
	s := New()
	s.LLM.BaseURL = srv.BaseURL()
	return s
}

// byModelSample keys samples rows by "model/k".
func byModelSample(rows []schemas.Sample) map[string]schemas.Sample {
	got := map[string]schemas.Sample{}
	for _, r := range rows {
		got[r.Model+"/"+string(rune('0'+r.Sample))] = r
	}
	return got
}

// checkArtifact loads the sample's artifact as an oracle would.
func checkArtifact(t *testing.T, env *pipeline.Env, r schemas.Sample) {
	t.Helper()
	out, err := artifact.New(env.Data).Get(r.Artifact)
	if err != nil {
		t.Fatalf("%s/%d: %v", r.Model, r.Sample, err)
	}
	c, err := out.Contract("Vault")
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256([]byte(c.Creation)); hex.EncodeToString(sum[:]) != r.CreationCodeSHA256 {
		t.Errorf("%s/%d: creation_code_sha256 does not match the artifact", r.Model, r.Sample)
	}
}

// TestFailedGenerationsInCompileAtK: a model failure is a sample that does
// not compile, raw or repaired, and is not sent to repair; an endpoint
// failure gets no samples row at all (out of Compile@k).
func TestFailedGenerationsInCompileAtK(t *testing.T) {
	env := regentest.Env(t, stagetest.DemoCorpus)
	o := regentest.Keep(t, env, "Vault")[0]
	sk := regentest.Skeleton(t, env, o)
	ref, _ := regen.New("reference", regen.Config{})
	regentest.Generate(t, env, o, sk, asLLM{ref}, 1, nil)
	failed := []schemas.Generation{
		{ContractID: o.ID, Model: "openai:m", Sample: 1, Generator: regen.KindOpenAI, FunctionsFailed: 1,
			Error: "model failure at deposit: unusable reply", Failure: regen.FailureModel},
		{ContractID: o.ID, Model: "openai:m", Sample: 2, Generator: regen.KindOpenAI, FunctionsFailed: 1,
			Error: "endpoint failure at initialize: llm: endpoint 404", Failure: regen.FailureEndpoint},
	}
	stagetest.Write(t, env, schemas.Generations, o.ID, "generate-failed", failed)
	srv := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: 400, Body: "no repair expected"}
	})
	_, rows := compileAll(t, env, repairingThrough(srv))
	got := map[int64]schemas.Sample{}
	for _, r := range rows {
		got[r.Sample] = r
	}
	if len(rows) != 2 || !got[0].CompiledRepaired {
		t.Fatalf("samples %+v: want the good one and the model failure only", rows)
	}
	if m := got[1]; m.CompiledRaw || m.CompiledRepaired || m.RepairAttempted || !strings.Contains(m.Error, "model failure") {
		t.Errorf("model failure: %+v", m)
	}
	if srv.Count() != 0 {
		t.Errorf("%d repair requests for a failed generation", srv.Count())
	}
}

// TestCompileAndRepairAcrossFiles: a multi-file sample compiles from its
// recorded standard-JSON input (the remapped imports compile only with the
// recorded remappings); an error in a regenerated base body in another
// file goes to repair showing the chain's files, the fix lands in the
// base's own file, and the row points at every repaired file.
func TestCompileAndRepairAcrossFiles(t *testing.T) {
	env := regentest.MultiFileEnv(t)
	o := regentest.Keep(t, env, stagetest.MultiFileTarget)[0]
	sk := regentest.Skeleton(t, env, o)
	ref, _ := regen.New("reference", regen.Config{})
	regentest.Generate(t, env, o, sk, ref, 1, nil)
	regentest.Generate(t, env, o, sk, asLLM{ref}, 2, func(k int, file, src string) string {
		if k == 1 && file == stagetest.MultiFileBase {
			return strings.Replace(src, "balanceOf[to] += amount;", "balanceOf[to] += amont;", 1)
		}
		return src
	})
	srv := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		shown := r.Last()
		if !strings.Contains(shown, "Undeclared identifier") || !strings.Contains(shown, "// File: "+stagetest.MultiFileBase+"\n") {
			return llmtest.Reply{Status: 400, Body: "unexpected repair request"}
		}
		broken := shown[strings.Index(shown, "// File: "+stagetest.MultiFileBase):]
		def, _ := soltext.FindContract(broken, "BaseToken")
		return llmtest.Reply{Content: llmtest.Fenced(strings.Replace(broken[def.Start:def.End], "amont", "amount", 1))}
	})
	_, rows := compileAll(t, env, repairingThrough(srv))
	got := byModelSample(rows)
	for _, k := range []string{"reference/0", "openai:m/0"} {
		if r := got[k]; !r.CompiledRaw || r.Artifact == "" || r.FilesPath == "" {
			t.Errorf("%s: %+v", k, r)
		}
	}
	l := got["openai:m/1"]
	if l.CompiledRaw || !l.RepairAttempted || !l.CompiledRepaired || !strings.HasSuffix(l.FilesPath, "1.repaired.files.json") {
		t.Fatalf("repaired sample: %+v", l)
	}
	b, err := os.ReadFile(filepath.Join(env.Data, l.FilesPath))
	if err != nil {
		t.Fatal(err)
	}
	var files map[string]string
	if err := json.Unmarshal(b, &files); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(files[stagetest.MultiFileBase], "amont") || strings.Contains(files[stagetest.MultiFileFile], "contract BaseToken") {
		t.Error("the fix is not in the base's own file")
	}
}

// TestCompileKeepsTheRecordedSettings: the reference sample of the demo's
// TipJar (a standard-JSON record that links TipLedger at its mainnet
// address in settings.libraries and sets the optimizer to 200 runs)
// compiles from the recorded input: its runtime code is the original's,
// the library linked in place, up to the metadata tail. The same files
// compiled without the recorded settings give other code.
func TestCompileKeepsTheRecordedSettings(t *testing.T) {
	env := regentest.Env(t, stagetest.DemoCorpus)
	o := regentest.Keep(t, env, "TipJar")[0]
	sk := regentest.Skeleton(t, env, o)
	ref, _ := regen.New("reference", regen.Config{})
	regentest.Generate(t, env, o, sk, ref, 1, nil)
	_, rows := compileAll(t, env, New())
	if len(rows) != 1 || !rows[0].CompiledRaw {
		t.Fatalf("samples %+v", rows)
	}
	runtime := func(id string) []byte {
		out, err := artifact.New(env.Data).Get(id)
		if err != nil {
			t.Fatal(err)
		}
		c, err := out.Contract("TipJar")
		if err != nil {
			t.Fatal(err)
		}
		code, err := c.RuntimeCode(nil)
		if err != nil {
			t.Fatalf("TipJar's runtime code is not linked: %v", err)
		}
		body, _ := bytecode.SplitMetadata(code)
		return body
	}
	orig, sample := runtime(o.Artifact), runtime(rows[0].Artifact)
	if !bytes.Equal(orig, sample) {
		t.Fatal("the reference sample's runtime code differs from the original's")
	}
	bare, err := env.Engines.Solc().Compile(context.Background(), o.Record.CompileInput(o.Record.Files.Files))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := bare.Contract("TipJar"); err == nil {
		if code, err := c.RuntimeCode(nil); err == nil {
			if body, _ := bytecode.SplitMetadata(code); bytes.Equal(body, orig) {
				t.Fatal("without the recorded settings the code is the same: the test proves nothing")
			}
		}
	}
}
