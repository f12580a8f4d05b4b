package compile

import (
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/llm/llmtest"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/regen/regentest"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/soltext"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
)

// skeletonOf keeps the named demo contract and writes its skeleton.
func skeletonOf(t *testing.T, name string) (*pipeline.Env, regentest.Original, *skeleton.Skeleton) {
	t.Helper()
	env := regentest.Env(t, stagetest.DemoCorpus)
	o := regentest.Keep(t, env, name)[0]
	return env, o, regentest.Skeleton(t, env, o)
}

// asImport presents the reference generator as an imported sample folder's.
type asImport struct{ regen.Generator }

func (asImport) Name() string { return "import:edited" }
func (asImport) Kind() string { return regen.KindImport }

// vaultDeposit is the demo Vault's deposit function, NatSpec aside.
const vaultDeposit = "function deposit(uint256 amount) public {\n        balance += amount;\n    }"

// dropWithdraw deletes withdraw from sample 0: an import that compiles
// without the function.
func dropWithdraw(k int, _, src string) string {
	if k != 0 {
		return src
	}
	i := strings.Index(src, "function withdraw(")
	end, _ := soltext.MatchBrace(src, i+strings.Index(src[i:], "{"))
	return src[:i] + src[end+1:]
}

// TestRepairThatDeletesTheFunctionDoesNotCompile: a model that "repairs"
// the broken deposit by deleting it gets a sample that compiles but lacks
// a function of the original: recorded as not compiling after repair, the
// reason in its row. An imported sample without withdraw is refused the
// same way on its first pass; untouched samples compile.
func TestRepairThatDeletesTheFunctionDoesNotCompile(t *testing.T) {
	env, o, sk := skeletonOf(t, "Vault")
	ref, _ := regen.New("reference", regen.Config{})
	regentest.Generate(t, env, o, sk, asLLM{ref}, 2, breakDeposit)
	regentest.Generate(t, env, o, sk, asImport{ref}, 2, dropWithdraw)
	srv := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		broken := r.Last()[strings.Index(r.Last(), "```solidity\n")+12:]
		def, _ := soltext.FindContract(broken, "Vault")
		vault := broken[def.Start:def.End]
		i := strings.Index(vault, "function deposit(")
		end, _ := soltext.MatchBrace(vault, i+strings.Index(vault[i:], "{"))
		return llmtest.Reply{Content: llmtest.Fenced(vault[:i] + vault[end+1:])}
	})
	_, rows := compileAll(t, env, repairingThrough(srv))
	got := byModelSample(rows)
	if len(rows) != 4 {
		t.Fatalf("%d sample rows, want 4", len(rows))
	}
	for _, k := range []string{"openai:m/0", "import:edited/1"} {
		if r := got[k]; !r.CompiledRaw || !r.CompiledRepaired || r.Error != "" {
			t.Errorf("%s: %+v", k, r)
		}
	}
	l := got["openai:m/1"]
	if !l.RepairAttempted || l.CompiledRepaired || l.Artifact != "" ||
		!strings.HasPrefix(l.Error, ReasonRepairChangedInterface+": lacks function deposit(uint256)") {
		t.Errorf("repair that deleted deposit: repaired=%v error=%q", l.CompiledRepaired, l.Error)
	}
	imp := got["import:edited/0"]
	if imp.CompiledRaw || imp.CompiledRepaired || imp.RepairAttempted ||
		!strings.HasPrefix(imp.Error, ReasonChangedInterface+": lacks function withdraw(uint256)") || imp.RawError != imp.Error {
		t.Errorf("import without withdraw: raw=%v error=%q", imp.CompiledRaw, imp.Error)
	}
}

// TestSampleThatRewritesALibraryDoesNotCompile: GiftToken's skeleton
// regenerates GiftToken's bodies only (its skeleton rows: ERC20Interface in
// its chain has no body to write); a sample that also drops a check from
// the SafeMath library, or renames a parameter of ERC20Interface's event,
// compiles with the same ABI but changed a definition it was not asked to
// regenerate.
func TestSampleThatRewritesALibraryDoesNotCompile(t *testing.T) {
	env, o, sk := skeletonOf(t, "GiftToken")
	ref, _ := regen.New("reference", regen.Config{})
	regentest.Generate(t, env, o, sk, asImport{ref}, 3, func(k int, _, src string) string {
		switch k {
		case 0:
			return strings.Replace(src, "require(b <= a);\n", "", 1)
		case 2:
			return strings.Replace(src, "address indexed _to, uint256 _value);", "address indexed _to, uint256 _amount);", 1)
		}
		return src
	})
	_, rows := compileAll(t, env, New())
	got := byModelSample(rows)
	if r := got["import:edited/1"]; !r.CompiledRepaired {
		t.Errorf("untouched sample: %+v", r)
	}
	if r := got["import:edited/0"]; r.CompiledRaw || !strings.HasPrefix(r.Error, ReasonChangedInterface+": changes library SafeMath") {
		t.Errorf("sample with a rewritten library: raw=%v error=%q", r.CompiledRaw, r.Error)
	}
	if r := got["import:edited/2"]; r.CompiledRaw || !strings.HasPrefix(r.Error, ReasonChangedInterface+": changes contract ERC20Interface") {
		t.Errorf("sample with a rewritten interface: raw=%v error=%q", r.CompiledRaw, r.Error)
	}
}

// TestInterfaceMutantsDoNotCompile: mutant:interface renames one public
// function of the target per sample; each such sample compiles as Solidity
// but is refused for the function its ABI lacks, while plain mutants of the
// same seed compile.
func TestInterfaceMutantsDoNotCompile(t *testing.T) {
	env, o, sk := skeletonOf(t, "Vault")
	iface, err := regen.New("mutant:"+regen.InterfaceVariant, regen.Config{MutationRate: 0})
	if err != nil {
		t.Fatal(err)
	}
	regentest.Generate(t, env, o, sk, iface, 3, nil)
	_, rows := compileAll(t, env, New())
	if len(rows) != 3 {
		t.Fatalf("%d sample rows, want 3", len(rows))
	}
	for _, r := range rows {
		if r.CompiledRaw || r.CompiledRepaired || !strings.HasPrefix(r.Error, ReasonChangedInterface+": ") ||
			!strings.Contains(r.Mutations, regen.RenameFunction) {
			t.Errorf("sample %d: raw=%v error=%q mutations=%s", r.Sample, r.CompiledRaw, r.Error, r.Mutations)
		}
	}
}

// TestRepairRestoresAChangedInterface: an LLM sample that compiles without
// withdraw is refused on its first pass and sent to repair with the
// reason; a repair that restores the function compiles.
func TestRepairRestoresAChangedInterface(t *testing.T) {
	env, o, sk := skeletonOf(t, "Vault")
	ref, _ := regen.New("reference", regen.Config{})
	regentest.Generate(t, env, o, sk, asLLM{ref}, 1, dropWithdraw)
	original := o.Record.Files.Files[sk.File]
	srv := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		if !strings.Contains(r.Last(), "lacks function withdraw(uint256)") {
			return llmtest.Reply{Status: 400, Body: "the repair request does not say what changed"}
		}
		def, _ := soltext.FindContract(original, "Vault")
		return llmtest.Reply{Content: llmtest.Fenced(original[def.Start:def.End])}
	})
	_, rows := compileAll(t, env, repairingThrough(srv))
	r := byModelSample(rows)["openai:m/0"]
	if r.CompiledRaw || !r.RepairAttempted || !r.CompiledRepaired || !strings.HasPrefix(r.RawError, ReasonChangedInterface+": lacks function withdraw") {
		t.Errorf("raw=%v repaired=%v raw_error=%q error=%q", r.CompiledRaw, r.CompiledRepaired, r.RawError, r.Error)
	}
}
