package skeleton

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/llm/llmtest"
	"github.com/solbehave/solbehave/internal/regen/regentest"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

func TestSkeletonsOfKeptContracts(t *testing.T) {
	env := regentest.Env(t, stagetest.DemoCorpus)
	regentest.Keep(t, env, "Vault", "StakingPool")
	if c := stagetest.Run(t, env, New()); c.Units != 2 || c.Ran != 2 || c.Failed != 0 {
		t.Fatalf("counters %+v", c)
	}
	rows := stagetest.Rows(t, env, schemas.Skeletons)
	byContract := map[string][]schemas.Skeleton{}
	for _, r := range rows {
		byContract[r.Target] = append(byContract[r.Target], r)
	}
	if len(byContract["Vault"]) != 3 || len(byContract["StakingPool"]) < 10 {
		t.Fatalf("rows per contract: Vault %d, StakingPool %d", len(byContract["Vault"]), len(byContract["StakingPool"]))
	}
	for _, r := range rows {
		if !r.StubCompiled || r.StubError != "" {
			t.Errorf("%s: stubbed skeleton does not compile: %s", r.ContractID, r.StubError)
		}
		public := r.Visibility == "public" || r.Visibility == "external"
		if public != (r.NatSpecSource == "template") || r.NatSpecModel != "" {
			t.Errorf("%s.%s (%s): natspec %s", r.Target, r.Function, r.Visibility, r.NatSpecSource)
		}
		b, err := os.ReadFile(filepath.Join(env.Data, r.SkeletonPath))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != r.SkeletonSHA256 {
			t.Errorf("%s: skeleton_sha256 does not match the file", r.ContractID)
		}
	}
	sol, _ := os.ReadFile(filepath.Join(env.Data, "skeletons", byContract["Vault"][0].ContractID, "skeleton.sol"))
	if strings.Contains(string(sol), "balance -= amount") || !strings.Contains(string(sol), "/// @notice Withdraw.") {
		t.Errorf("Vault skeleton:\n%s", sol)
	}
	if c := stagetest.Run(t, env, New()); c.Skipped != 2 || c.Ran != 0 {
		t.Fatalf("rerun did not skip: %+v", c)
	}
}

func TestNatSpecFromTheModel(t *testing.T) {
	env := regentest.Env(t, stagetest.DemoCorpus)
	regentest.Keep(t, env, "Vault")
	garbage := false
	srv := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		if garbage {
			return llmtest.Reply{Content: "Sorry, I cannot."}
		}
		return llmtest.Reply{Content: "```json\n" + `{"withdraw": {"notice": "Take amount out of the vault.", "params": {"amount": "wei to take"}},
			"deposit": {"notice": "Put amount in."}}` + "\n```"}
	})
	s := New()
	s.LLM.BaseURL, s.Generators = srv.BaseURL(), []string{"openai:m1", "mutant"}
	if got := s.natspecModel(); got != "m1" {
		t.Fatalf("auto NatSpec model %q", got)
	}
	stagetest.Run(t, env, s)
	rows := stagetest.Rows(t, env, schemas.Skeletons)
	src := map[string]string{}
	for _, r := range rows {
		src[r.Function] = r.NatSpecSource
		if r.NatSpecModel != "openai:m1" {
			t.Errorf("natspec_model %q", r.NatSpecModel)
		}
	}
	if src["withdraw"] != "llm" || src["deposit"] != "llm" || src["initialize"] != "template" {
		t.Fatalf("NatSpec sources %v", src)
	}
	sol, _ := os.ReadFile(filepath.Join(env.Data, "skeletons", rows[0].ContractID, "skeleton.sol"))
	if !strings.Contains(string(sol), "/// @param amount wei to take") {
		t.Errorf("skeleton without the model's NatSpec:\n%s", sol)
	}
	calls := stagetest.Rows(t, env, schemas.LLMCalls)
	if len(calls) != 1 || calls[0].Purpose != "natspec" || calls[0].Error != "" || calls[0].Sample != -1 {
		t.Fatalf("llm_calls %+v", calls)
	}

	garbage = true
	s2 := New()
	s2.LLM.BaseURL, s2.Generators = srv.BaseURL(), s.Generators
	s2.LLM.CacheDir = t.TempDir() // a fresh cache, so the garbage is asked for
	(&pipeline.Runner{Env: env, Force: true}).Run(context.Background(), s2)
	rows = stagetest.Rows(t, env, schemas.Skeletons)
	for _, r := range rows {
		if r.NatSpecSource == "llm" {
			t.Errorf("%s: llm NatSpec from a garbage reply", r.Function)
		}
	}
	calls = stagetest.Rows(t, env, schemas.LLMCalls)
	if len(calls) != 1 || !strings.HasPrefix(calls[0].Error, "unusable reply") {
		t.Fatalf("garbage reply not recorded: %+v", calls)
	}
}

// TestSizeAblationAndScope: --size-ablation adds the compiling contracts
// that were not kept, their rows marked ablation; --regenerate target
// stubs only the target's own functions and is part of the fingerprint.
func TestSizeAblationAndScope(t *testing.T) {
	env := regentest.Env(t, stagetest.DemoCorpus)
	gift := regentest.Keep(t, env, "Vault", "GiftToken")[1]
	dropped := []schemas.Contract{{ContractID: gift.ID, Name: "GiftToken", Kept: false, Reason: "size filter"}}
	stagetest.Write(t, env, schemas.Contracts, gift.ID, "verify", dropped)
	if c := stagetest.Run(t, env, New()); c.Units != 1 {
		t.Fatalf("without --size-ablation: %+v, want the kept Vault only", c)
	}
	s := New()
	s.SizeAblation = true
	if c := stagetest.Run(t, env, s); c.Units != 2 || c.Ran != 1 || c.Skipped != 1 {
		t.Fatalf("with --size-ablation: %+v", c)
	}
	rows := stagetest.Rows(t, env, schemas.Skeletons)
	chain := 0
	for _, r := range rows {
		if r.Ablation != (r.Target == "GiftToken") || r.Regenerate != "chain" {
			t.Errorf("%s.%s: ablation %v regenerate %s", r.Target, r.Function, r.Ablation, r.Regenerate)
		}
		if r.Target == "GiftToken" {
			chain++
		}
	}
	s.Regenerate = "target"
	if c := stagetest.Run(t, env, s); c.Ran != 2 {
		t.Fatalf("--regenerate target did not rerun both units: %+v", c)
	}
	rows = stagetest.Rows(t, env, schemas.Skeletons)
	own := 0
	for _, r := range rows {
		if r.Target == "GiftToken" {
			own++
			if r.DeclaredIn != "GiftToken" || r.Regenerate != "target" {
				t.Errorf("target scope row %+v", r)
			}
		}
	}
	if own >= chain {
		t.Errorf("GiftToken: %d bodies under target, %d under chain: its bases were not regenerated", own, chain)
	}
	s.Regenerate = "all"
	if _, err := (&pipeline.Runner{Env: env}).Run(context.Background(), s); err == nil {
		t.Error("--regenerate all was accepted")
	}
}

// TestSkeletonAcrossFiles: on a multi-file (standard-JSON) source the stage
// stubs the bodies of the target's bases in their own files (17 rows: the
// target's 6 and its bases' 11, each naming its file), the stubbed skeleton
// compiles with the recorded settings (remappings included), and
// skeleton.sol shows the chain's files, bases first.
func TestSkeletonAcrossFiles(t *testing.T) {
	env := regentest.MultiFileEnv(t)
	regentest.Keep(t, env, stagetest.MultiFileTarget)
	if c := stagetest.Run(t, env, New()); c.Ran != 1 || c.Failed != 0 {
		t.Fatalf("counters %+v", c)
	}
	rows := stagetest.Rows(t, env, schemas.Skeletons)
	perFile := map[string]int{}
	for _, r := range rows {
		perFile[r.DeclaredFile]++
		if r.File != stagetest.MultiFileFile || !r.StubCompiled || r.NFunctions != 17 {
			t.Errorf("%s: file %s, stub compiled %v (%s), %d bodies", r.Function, r.File, r.StubCompiled, r.StubError, r.NFunctions)
		}
	}
	want := map[string]int{stagetest.MultiFileContext: 1, stagetest.MultiFileOwned: 5, stagetest.MultiFileBase: 5, stagetest.MultiFileFile: 6}
	if len(rows) != 17 || stagetest.JSON(perFile) != stagetest.JSON(want) {
		t.Fatalf("%d rows, per file %v; want 17, %v", len(rows), perFile, want)
	}
	sol, err := os.ReadFile(filepath.Join(env.Data, "skeletons", rows[0].ContractID, "skeleton.sol"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(sol)
	if !strings.HasPrefix(text, "// File: "+stagetest.MultiFileContext+"\n") || !strings.Contains(text, "// File: "+stagetest.MultiFileBase+"\n") ||
		strings.Contains(text, "BaseToken: balance") || !strings.Contains(text, "held[msg.sender] += amount;") {
		t.Errorf("skeleton.sol:\n%s", text)
	}
}
