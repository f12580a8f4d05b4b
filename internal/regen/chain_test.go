package regen

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/democorpus"
	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/llm/llmtest"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/solast"
)

// wolfcoinFixture compiles the WOLFCOIN-like token of the skeleton tests (a
// token whose bases hold most of its code) and builds its chain skeleton.
func wolfcoinFixture(t *testing.T) fixture { return wolfcoinAt(t, "0.8.19", "0.8.19") }

// wolfcoinAt is the WOLFCOIN-like fixture compiled with version under
// `pragma solidity <pragma>;`.
func wolfcoinAt(t *testing.T, version, pragma string) fixture {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: solc cannot run")
	}
	b, err := os.ReadFile("../skeleton/testdata/wolfcoin.sol")
	if err != nil {
		t.Fatal(err)
	}
	demoFixtures(t) // starts the compiler manager
	spec := democorpus.Spec{Name: "WOLFCOIN", Compiler: version}
	files := map[string]string{"WOLFCOIN.sol": strings.Replace(string(b), "pragma solidity 0.8.19;", "pragma solidity "+pragma+";", 1)}
	out, err := compileFiles(t, spec, files)
	if err != nil {
		t.Fatal(err)
	}
	root, err := solast.Parse(out.Sources["WOLFCOIN.sol"].AST)
	if err != nil {
		t.Fatal(err)
	}
	orig := &Original{Files: files, File: "WOLFCOIN.sol", ASTs: map[string]*solast.Node{"WOLFCOIN.sol": root}, Compiler: out.CompilerUsed}
	sk, err := skeleton.Build(orig.SkeletonInput("WOLFCOIN", ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{spec: spec, orig: orig, sk: sk, compiler: out.CompilerUsed}
}

// askedHeader is the header a generation prompt asks for (its second
// fenced block).
func askedHeader(prompt string) string {
	blocks := codeBlocks(prompt)
	if len(blocks) < 2 {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(blocks[1]), "\n")
	return lines[len(lines)-1]
}

// TestOpenAIRegeneratesTheChain: a scripted model receives one request per
// body of the target's inheritance chain (12 for the WOLFCOIN-like token,
// not the 2 its own contract declares), in source order across the file,
// each prompt showing the bodies written before it; every reply is in the
// sample, which compiles.
func TestOpenAIRegeneratesTheChain(t *testing.T) {
	f := wolfcoinFixture(t)
	orig := skeleton.NewOriginal(f.orig.Files)
	byHeader := map[string]skeleton.Function{}
	for _, i := range f.sk.Holes() {
		fn := f.sk.Functions[i]
		byHeader[fn.Contract+" "+f.sk.Header(i)] = fn
	}
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		h := askedHeader(r.Last())
		_, rest, _ := strings.Cut(r.Last(), "function of contract ")
		contract, _, _ := strings.Cut(rest, ",")
		fn, ok := byHeader[contract+" "+h]
		if !ok {
			return llmtest.Reply{Content: "which function?"}
		}
		body := orig.Body(fn)
		marked := "{ /* reply " + fn.Key + " */" + body[1:]
		return llmtest.Reply{Content: llmtest.Fenced(h + " " + marked)}
	})
	g := generator(t, "openai:m", Config{LLM: llm.Options{BaseURL: s.BaseURL(), Timeout: 5 * time.Second}, Temperature: 0.7, MaxTokens: 512})
	r := g.Generate(context.Background(), f.task(0, 7))
	if r.Err != "" || r.Generated != 12 || r.Failed != 0 {
		t.Fatalf("sample: err %q generated %d failed %d", r.Err, r.Generated, r.Failed)
	}
	reqs := s.Requests()
	if len(reqs) != 12 {
		t.Fatalf("%d requests, want one per chain body (12)", len(reqs))
	}
	for i, req := range reqs {
		fn := f.sk.Functions[f.sk.Holes()[i]]
		if askedHeader(req.Last()) != f.sk.Header(fn.Index) {
			t.Errorf("request %d asks for %q, want %s in source order", i, askedHeader(req.Last()), fn.Key)
		}
		if !strings.Contains(req.Last(), "function of contract "+fn.Contract+",") {
			t.Errorf("request %d does not name %s's contract %s", i, fn.Key, fn.Contract)
		}
		if i > 0 {
			prev := f.sk.Functions[f.sk.Holes()[i-1]]
			if !strings.Contains(req.Last(), "/* reply "+prev.Key+" */") {
				t.Errorf("request %d does not show the body generated for %s", i, prev.Key)
			}
		}
	}
	for _, i := range f.sk.Holes() {
		if key := f.sk.Functions[i].Key; !strings.Contains(r.Target, fmt.Sprintf("/* reply %s */", key)) {
			t.Errorf("the reply for %s is not in the sample", key)
		}
	}
	if _, err := compileFiles(t, f.spec, r.Files); err != nil {
		t.Fatalf("the chain sample does not compile: %v\n%s", err, r.Target)
	}
}

// TestImportMergesBases: an imported sample may define a base only (a
// benchmark's task asking for Pausable in WOLFCOIN's file): it is merged by
// name, its pragma and SPDX line ignored, and the original's compiler
// substitution (npm's 0.8.1 runs as 0.8.2) compiles it whatever pragma the
// sample writes. A sample defining none of the file's contracts is refused,
// naming what it defines.
func TestImportMergesBases(t *testing.T) {
	f := wolfcoinAt(t, "0.8.1", "^0.8.0")
	dir := filepath.Join(t.TempDir(), "bench-y")
	cdir := filepath.Join(dir, "WOLFCOIN")
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		t.Fatal(err)
	}
	pausable := "Sure, here's Pausable:\n```solidity\n// SPDX-License-Identifier: UNLICENSED\npragma solidity ^0.8.20;\n\n" +
		"contract Pausable is Ownable {\n    bool public paused;\n    function pause() public onlyOwner { paused = !paused; }\n" +
		"    function unpause() public onlyOwner { paused = false; }\n}\n```\nLet me know if you need more."
	os.WriteFile(filepath.Join(cdir, "0.sol"), []byte(pausable), 0o644)
	os.WriteFile(filepath.Join(cdir, "1.sol"), []byte("```solidity\ncontract Token { }\nlibrary Maths { }\n```"), 0o644)
	g := generator(t, "import:"+dir, Config{})
	r := g.Generate(context.Background(), f.task(0, 0))
	if r.Err != "" || !strings.Contains(r.Target, "paused = !paused;") || strings.Contains(r.Target, "0.8.20") ||
		strings.Contains(r.Target, "UNLICENSED") || strings.Contains(r.Target, "Let me know") || !strings.Contains(r.Target, "pragma solidity ^0.8.0;") {
		t.Fatalf("base-only import: %q\n%s", r.Err, r.Target)
	}
	out, err := compileFiles(t, f.spec, r.Files)
	if err != nil {
		t.Fatalf("the merged sample does not compile under the original's compiler: %v", err)
	}
	if !strings.HasPrefix(out.CompilerUsed, "0.8.2") && !strings.HasPrefix(out.CompilerUsed, "v0.8.2") {
		t.Errorf("compiler used %s, want the original's substitution 0.8.2", out.CompilerUsed)
	}
	bad := g.Generate(context.Background(), f.task(1, 0))
	if bad.Target != "" || bad.Failure != FailureModel || !strings.Contains(bad.Err, "contract Token, library Maths") {
		t.Fatalf("a sample without the file's contracts: %+v", bad)
	}
}
