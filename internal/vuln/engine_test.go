package vuln

import (
	"bytes"
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/walltime"
)

func TestRunIsDeterministic(t *testing.T) {
	target := deployTestdata(t, "reentrancy.sol", "ReentrantBank")
	a := run(t, target, testConfig(3))
	b := run(t, target, testConfig(3))
	if a.TestCases != b.TestCases || a.ValidTestCases != b.ValidTestCases || a.InstructionsCovered != b.InstructionsCovered {
		t.Fatalf("counts differ: %+v vs %+v", a, b)
	}
	if len(a.Findings) != len(b.Findings) {
		t.Fatalf("findings differ: %d vs %d", len(a.Findings), len(b.Findings))
	}
	for i := range a.Findings {
		if a.Findings[i].Seed != b.Findings[i].Seed || a.Findings[i].Evidence != b.Findings[i].Evidence {
			t.Errorf("finding %d differs:\n%s\n%s", i, a.Findings[i].Seed, b.Findings[i].Seed)
		}
	}
	c := run(t, target, testConfig(4))
	if c.TestCases == a.TestCases && c.InstructionsCovered == a.InstructionsCovered && len(c.Findings) > 0 && c.Findings[0].Seed == a.Findings[0].Seed {
		t.Error("another seed gave the very same run")
	}
}

// The opcode-presence ablation fires on a CALL with value and on any
// ADD/SUB/MUL, so the safe bank (no reentrancy, no overflow) is reported.
func TestOpcodeAblationFiresOnPresence(t *testing.T) {
	target := deployTestdata(t, "reentrancy_fixed.sol", "SafeBank")
	cfg := testConfig(1)
	full := run(t, target, cfg)
	cfg.Ablation = AblationOpcode
	opcode := run(t, target, cfg)
	for _, class := range []Class{Reentrancy, Arithmetic} {
		if findingOf(full, class) != nil {
			t.Errorf("full detector reported %s on the safe bank", class)
		}
		if findingOf(opcode, class) == nil {
			t.Errorf("opcode ablation did not report %s", class)
		}
	}
}

func TestAblationsChangeGuidance(t *testing.T) {
	target := deployTestdata(t, "reentrancy.sol", "ReentrantBank")
	cfg := testConfig(1)
	guided := run(t, target, cfg)
	if !guided.StaticGuided || guided.Candidates != 3 {
		t.Errorf("guided run: static %v, %d candidates, want true and 3 (deposit, withdraw, balances)", guided.StaticGuided, guided.Candidates)
	}
	cfg.Ablation = AblationNoStatic
	if r := run(t, target, cfg); r.StaticGuided {
		t.Error("no-static run used stage 1")
	}
	cfg.Ablation = AblationRandom
	r := run(t, target, cfg)
	if r.Seeds != cfg.Population*cfg.Generations {
		t.Errorf("random ablation ran %d seeds, want a fresh population every generation (%d)", r.Seeds, cfg.Population*cfg.Generations)
	}
	if _, err := ParseAblation("static"); err == nil {
		t.Error("ParseAblation accepted an unknown name")
	}
}

func TestDeployStandaloneDefaultArguments(t *testing.T) {
	target := deployTestdata(t, "ctor.sol", "Configured")
	if target.Deployer != StandaloneDeployer {
		t.Errorf("deployer %s", target.Deployer)
	}
	if got := target.Chain.Balance(target.Address); got.Cmp(CreationValue) != 0 {
		t.Errorf("payable constructor received %s, want %s", got, CreationValue)
	}
	if admin := target.Chain.StorageAt(target.Address, common.Hash{}); admin != common.BytesToHash(StubAddress.Bytes()) {
		t.Errorf("admin %s, want the stub %s", admin, StubAddress)
	}
	if len(target.Chain.Code(StubAddress)) == 0 {
		t.Error("the stub has no code")
	}
}

// TestDeployStandaloneLibrariesOnce: a library the contract and another
// library both link (Shared) is deployed once, as the oracle stages deploy
// it, so the deployer creates three contracts (Shared, Twice, Ledger), and
// the contract works through them.
func TestDeployStandaloneLibrariesOnce(t *testing.T) {
	target := deployTestdata(t, "libraries.sol", "Ledger")
	if n := target.Chain.Nonce(StandaloneDeployer); n != 3 {
		t.Errorf("the deployer created %d contracts, want 3 (each library once, then Ledger)", n)
	}
	parsed, err := abi.JSON(bytes.NewReader(target.ABI))
	if err != nil {
		t.Fatal(err)
	}
	book, err := parsed.Pack("book", big.NewInt(5))
	if err != nil {
		t.Fatal(err)
	}
	res, err := target.Chain.Call(StandaloneDeployer, target.Address, book, nil, target.Block)
	if err != nil || !res.Success {
		t.Fatalf("book(5): %v %+v", err, res)
	}
	if total := target.Chain.StorageAt(target.Address, common.Hash{}); total.Big().Int64() != 10 {
		t.Errorf("total %d after book(5), want 10", total.Big())
	}
}

func TestRunRejectsAnEmptyTarget(t *testing.T) {
	target := deployTestdata(t, "frozen.sol", "Locker")
	target.Address = common.HexToAddress("0x1234")
	if _, err := Run(context.Background(), target, testConfig(1)); err != ErrNoCode {
		t.Fatalf("got %v, want ErrNoCode", err)
	}
}

// TestBudgetIsNoReport: a run past its wall-clock budget is an error (a
// walltime.Error, a retriable timeout for the pipeline), never a report of
// the seeds that ran before the clock stopped them.
func TestBudgetIsNoReport(t *testing.T) {
	target := deployTestdata(t, "reentrancy.sol", "ReentrantBank")
	cfg := testConfig(3)
	cfg.Budget = time.Nanosecond
	rep, err := Run(context.Background(), target, cfg)
	if !walltime.Is(err) || rep != nil {
		t.Fatalf("report %+v, err %v; want a walltime.Error", rep, err)
	}
}
