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
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

const demoCorpus = "../../data/corpus/demo"

func run(t *testing.T, env *pipeline.Env, s *Stage) pipeline.Counters {
	t.Helper()
	c, err := (&pipeline.Runner{Env: env}).Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSkeletonsOfKeptContracts(t *testing.T) {
	env := regentest.Env(t, demoCorpus)
	regentest.Keep(t, env, "Vault", "StakingPool")
	if c := run(t, env, New()); c.Units != 2 || c.Ran != 2 || c.Failed != 0 {
		t.Fatalf("counters %+v", c)
	}
	rows, err := warehouse.ReadDataset[schemas.Skeleton](env.Warehouse, "skeletons")
	if err != nil {
		t.Fatal(err)
	}
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
	if c := run(t, env, New()); c.Skipped != 2 || c.Ran != 0 {
		t.Fatalf("rerun did not skip: %+v", c)
	}
}

func TestNatSpecFromTheModel(t *testing.T) {
	env := regentest.Env(t, demoCorpus)
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
	run(t, env, s)
	rows, _ := warehouse.ReadDataset[schemas.Skeleton](env.Warehouse, "skeletons")
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
	calls, _ := warehouse.ReadDataset[schemas.LLMCall](env.Warehouse, "llm_calls")
	if len(calls) != 1 || calls[0].Purpose != "natspec" || calls[0].Error != "" || calls[0].Sample != -1 {
		t.Fatalf("llm_calls %+v", calls)
	}

	garbage = true
	s2 := New()
	s2.LLM.BaseURL, s2.Generators = srv.BaseURL(), s.Generators
	s2.LLM.CacheDir = t.TempDir() // a fresh cache, so the garbage is asked for
	(&pipeline.Runner{Env: env, Force: true}).Run(context.Background(), s2)
	rows, _ = warehouse.ReadDataset[schemas.Skeleton](env.Warehouse, "skeletons")
	for _, r := range rows {
		if r.NatSpecSource == "llm" {
			t.Errorf("%s: llm NatSpec from a garbage reply", r.Function)
		}
	}
	calls, _ = warehouse.ReadDataset[schemas.LLMCall](env.Warehouse, "llm_calls")
	if len(calls) != 1 || !strings.HasPrefix(calls[0].Error, "unusable reply") {
		t.Fatalf("garbage reply not recorded: %+v", calls)
	}
}
