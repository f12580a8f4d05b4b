package regen

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/democorpus"
	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/llm/llmtest"
	"github.com/solbehave/solbehave/internal/mutate"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/soltext"
	"github.com/solbehave/solbehave/internal/stagetest"
)

// multiFileFixture is stagetest's multi-file source (CapToken over
// BaseToken and Owned, each in its own file) compiled with its recorded
// settings, with its chain skeleton.
func multiFileFixture(t *testing.T) fixture {
	t.Helper()
	demoFixtures(t) // starts the compiler manager
	files := stagetest.MultiFileSources()
	out, err := compileMulti(files)
	if err != nil {
		t.Fatal(err)
	}
	asts := map[string]*solast.Node{}
	for name, text := range files {
		if asts[name], err = solast.ParseWithSource(out.Sources[name].AST, text); err != nil {
			t.Fatal(err)
		}
	}
	orig := &Original{Files: files, File: stagetest.MultiFileFile, ASTs: asts, Compiler: out.CompilerUsed}
	sk, err := skeleton.Build(orig.SkeletonInput(stagetest.MultiFileTarget, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := out.Contract(stagetest.MultiFileTarget)
	if err != nil {
		t.Fatal(err)
	}
	spec := democorpus.Spec{Name: stagetest.MultiFileTarget, Compiler: stagetest.MultiFileCompiler}
	return fixture{spec: spec, orig: orig, sk: sk, abi: string(c.ABI), compiler: out.CompilerUsed}
}

func compileMulti(files map[string]string) (*solc.Output, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return mgr.Compile(ctx, stagetest.MultiFileInput(files))
}

// holeOf is the index of the skeleton function with key.
func holeOf(t *testing.T, sk *skeleton.Skeleton, key string) int {
	t.Helper()
	for _, f := range sk.Functions {
		if f.Key == key {
			return f.Index
		}
	}
	t.Fatalf("no function %s in the skeleton", key)
	return -1
}

// TestReferenceAndMutantAcrossFiles: the reference sample of a multi-file
// source writes every base body back into its own file and compiles with
// the recorded settings to the original's ABI; mutants reach the bases'
// files, and a base's modifier (onlyOwner, defined in Owned.sol) is one the
// modifier-dropping operator knows when the target's headers invoke it.
func TestReferenceAndMutantAcrossFiles(t *testing.T) {
	f := multiFileFixture(t)
	ref := reference{}.Generate(context.Background(), Task{ContractID: "CapToken", Skeleton: f.sk, Original: f.orig})
	if ref.Err != "" || ref.Generated != 17 || len(ref.Files) != 6 {
		t.Fatalf("reference: err %q, %d bodies, %d files", ref.Err, ref.Generated, len(ref.Files))
	}
	if !strings.Contains(ref.Files[stagetest.MultiFileBase], `require(balance >= amount, "BaseToken: balance");`) ||
		strings.Contains(ref.Files[stagetest.MultiFileFile], "BaseToken: balance") {
		t.Fatalf("a base's body is not back in its own file:\n%s", ref.Files[stagetest.MultiFileBase])
	}
	out, err := compileMulti(ref.Files)
	if err != nil {
		t.Fatalf("the reference does not compile with the recorded settings: %v", err)
	}
	if c, _ := out.Contract(stagetest.MultiFileTarget); c == nil || string(c.ABI) != f.abi {
		t.Fatal("the reference's ABI differs from the original's")
	}

	g := generator(t, "mutant", Config{MutationRate: 1})
	files := map[string]bool{}
	for seed := int64(0); seed < 4; seed++ {
		r := g.Generate(context.Background(), f.task(0, seed))
		if r.Err != "" {
			t.Fatal(r.Err)
		}
		for _, m := range r.Mutations {
			files[f.sk.Functions[holeOf(t, f.sk, m.Function)].File] = true
		}
		if _, err := compileMulti(r.Files); err != nil {
			t.Fatalf("mutant %d does not compile: %v", seed, err)
		}
	}
	if !files[stagetest.MultiFileBase] || !files[stagetest.MultiFileOwned] || !files[stagetest.MultiFileFile] {
		t.Errorf("mutations reached files %v, want the target's and both bases'", files)
	}
	sites := mutate.Sites(f.orig.Files[stagetest.MultiFileFile], mustFunctions(t, f)[holeOf(t, f.sk, "mint")],
		mutate.Options{Checked: true, Modifiers: modifierNames(f.orig)})
	hasDrop := false
	for _, s := range sites {
		hasDrop = hasDrop || s.Operator == mutate.RemoveModifier
	}
	if !hasDrop {
		t.Error("mint's onlyOwner (defined in another file) is not a mutation site")
	}
}

func mustFunctions(t *testing.T, f fixture) map[int]solast.Function {
	t.Helper()
	fns, err := targetFunctions(f.task(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return fns
}

// TestOpenAIAcrossFiles: a scripted model gets one request per body of the
// chain across files (17: the target's 6 and its bases' 11), bases' files
// first; each prompt shows every file of the chain under its `// File:`
// line with the bodies written so far and names the function's file; each
// reply lands in its own file, and the sample compiles.
func TestOpenAIAcrossFiles(t *testing.T) {
	f := multiFileFixture(t)
	orig := skeleton.NewOriginal(f.orig.Files)
	byHeader := map[string]skeleton.Function{}
	for _, i := range f.sk.Holes() {
		fn := f.sk.Functions[i]
		byHeader[fn.Contract+" in "+fn.File+" "+f.sk.Header(i)] = fn
	}
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		_, rest, _ := strings.Cut(r.Last(), "function of contract ")
		where, _, _ := strings.Cut(rest, ", marked")
		fn, ok := byHeader[where+" "+askedHeader(r.Last())]
		if !ok {
			return llmtest.Reply{Content: "which function?"}
		}
		body := orig.Body(fn)
		return llmtest.Reply{Content: llmtest.Fenced(askedHeader(r.Last()) + " { /* reply " + fn.Key + " */" + body[1:])}
	})
	g := generator(t, "openai:m", Config{LLM: llm.Options{BaseURL: s.BaseURL(), Timeout: 5 * time.Second}, Temperature: 0.7, MaxTokens: 512})
	r := g.Generate(context.Background(), f.task(0, 3))
	if r.Err != "" || r.Generated != 17 {
		t.Fatalf("sample: err %q generated %d", r.Err, r.Generated)
	}
	reqs := s.Requests()
	if len(reqs) != 17 {
		t.Fatalf("%d requests, want one per body of the chain (17)", len(reqs))
	}
	for i, req := range reqs {
		fn := f.sk.Functions[f.sk.Holes()[i]]
		for _, file := range f.sk.ChainFiles() {
			if !strings.Contains(req.Last(), "// File: "+file+"\n") {
				t.Errorf("request %d (%s) does not show %s", i, fn.Key, file)
			}
		}
		if strings.Contains(req.Last(), "library FxMath") {
			t.Errorf("request %d shows a file outside the chain", i)
		}
		if i > 0 {
			if prev := f.sk.Functions[f.sk.Holes()[i-1]]; !strings.Contains(req.Last(), "/* reply "+prev.Key+" */") {
				t.Errorf("request %d does not show the body generated for %s", i, prev.Key)
			}
		}
	}
	if k := f.sk.Functions[f.sk.Holes()[0]].Key; k != "Context._msgSender" {
		t.Errorf("first request asks for %s, want the most base file's first function", k)
	}
	for _, i := range f.sk.Holes() {
		fn := f.sk.Functions[i]
		if !strings.Contains(r.Files[fn.File], "/* reply "+fn.Key+" */") {
			t.Errorf("the reply for %s is not in %s", fn.Key, fn.File)
		}
	}
	if _, err := compileMulti(r.Files); err != nil {
		t.Fatalf("the sample does not compile: %v", err)
	}
}

// TestImportMergesIntoDefiningFile: an imported sample's definitions go
// into the files that define them (BaseToken into lib/fx/token/BaseToken.sol,
// CapToken into src/CapToken.sol), never appended to the target's file,
// and the result compiles.
func TestImportMergesIntoDefiningFile(t *testing.T) {
	f := multiFileFixture(t)
	dir := filepath.Join(t.TempDir(), "bench-z")
	cdir := filepath.Join(dir, "CapToken")
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		t.Fatal(err)
	}
	base := f.orig.Files[stagetest.MultiFileBase]
	def, _ := soltext.FindContract(base, "BaseToken")
	tok, _ := soltext.FindContract(f.orig.Files[stagetest.MultiFileFile], "CapToken")
	sample := "```solidity\n" + strings.Replace(base[def.Start:def.End], "balanceOf[to] += amount;", "balanceOf[to] += amount + 1;", 1) + "\n\n" +
		strings.Replace(f.orig.Files[stagetest.MultiFileFile][tok.Start:tok.End], `"Cap Token"`, `"Cap Token 2"`, 1) + "\n```"
	if err := os.WriteFile(filepath.Join(cdir, "0.sol"), []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	r := generator(t, "import:"+dir, Config{}).Generate(context.Background(), f.task(0, 0))
	if r.Err != "" {
		t.Fatal(r.Err)
	}
	if !strings.Contains(r.Files[stagetest.MultiFileBase], "balanceOf[to] += amount + 1;") || strings.Count(r.Target, "contract BaseToken") != 0 ||
		!strings.Contains(r.Target, `"Cap Token 2"`) || r.Files[stagetest.MultiFileOwned] != f.orig.Files[stagetest.MultiFileOwned] {
		t.Fatalf("merge:\n%s\n---\n%s", r.Files[stagetest.MultiFileBase], r.Target)
	}
	if _, err := compileMulti(r.Files); err != nil {
		t.Fatalf("the merged sample does not compile: %v", err)
	}
}

// TestRepairAcrossFiles: a compiler error in a regenerated base body in
// another file reaches the model (the request shows the chain's files) and
// the fixed base replaces the definition in its own file.
func TestRepairAcrossFiles(t *testing.T) {
	f := multiFileFixture(t)
	broken := map[string]string{}
	for k, v := range f.orig.Files {
		broken[k] = v
	}
	broken[stagetest.MultiFileBase] = strings.Replace(broken[stagetest.MultiFileBase], "balanceOf[to] += amount;", "balanceOf[to] += amont;", 1)
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		prompt := r.Last()
		if !strings.Contains(prompt, "amont") || !strings.Contains(prompt, "// File: "+stagetest.MultiFileBase+"\n") ||
			!strings.Contains(prompt, "// File: "+stagetest.MultiFileFile+"\n") || strings.Contains(prompt, "library FxMath") {
			return llmtest.Reply{Status: 400, Body: "the request does not show the chain's files"}
		}
		def, _ := soltext.FindContract(broken[stagetest.MultiFileBase], "BaseToken")
		return llmtest.Reply{Content: llmtest.Fenced(strings.Replace(broken[stagetest.MultiFileBase][def.Start:def.End], "amont", "amount", 1))}
	})
	c := llm.New(llm.Options{BaseURL: s.BaseURL(), Model: "m"})
	fixed, row, err := Repair(context.Background(), c, RepairTask{ContractID: "CapToken", Model: "openai:m", Files: broken,
		File: stagetest.MultiFileFile, Target: "CapToken", Compiler: f.compiler, Error: "DeclarationError: Undeclared identifier.", MaxTokens: 4096})
	if err != nil || row.Error != "" {
		t.Fatalf("repair: %v %+v", err, row)
	}
	if strings.Contains(fixed[stagetest.MultiFileBase], "amont") || strings.Contains(fixed[stagetest.MultiFileFile], "contract BaseToken") {
		t.Fatalf("the fix is not in the base's file")
	}
	if _, err := compileMulti(fixed); err != nil {
		t.Fatalf("the repaired sample does not compile: %v", err)
	}
}
