package guardstate

import (
	"errors"
	"math/big"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
)

const demoCorpus = "../../data/corpus/demo"

func TestMain(m *testing.M) { deploytest.Main(m) }

type demoContract struct {
	rec *deploy.Record
	out *solc.Output
}

func loadDemo(t *testing.T, name string) demoContract {
	t.Helper()
	rec, out := deploytest.LoadCompiled(t, demoCorpus, 10, name)
	return demoContract{rec: rec, out: out}
}

// send calls a function and fails the test if it reverts.
func send(t *testing.T, dep *deploy.Deployment, from common.Address, value *big.Int, method string, args ...any) {
	t.Helper()
	data, err := dep.ABI.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := dep.Chain.Call(from, dep.Address, data, value, dep.Block)
	if err != nil || !res.Success {
		t.Fatalf("%s: %v %v %s", method, err, res.Err, res.RevertReason)
	}
}

func mustInt(t *testing.T) func(dcrgraph.Value, error) *big.Int {
	return func(v dcrgraph.Value, err error) *big.Int { return intOf(t, v, err) }
}

func intOf(t *testing.T, v dcrgraph.Value, err error) *big.Int {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	n, ok := v.Int()
	if !ok {
		t.Fatalf("%s is not an integer", v)
	}
	return n
}

func holds(t *testing.T, s dcrgraph.State, guard string) bool {
	t.Helper()
	g, err := dcrgraph.ParseGuard(guard)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := g.Holds(s)
	if err != nil {
		t.Fatalf("%s: %v", guard, err)
	}
	return ok
}

var user = common.HexToAddress("0x00000000000000000000000000000000000a11ce")

// TestGiftTokenGuards reads a 0.4.24 contract (no storage layout from solc):
// getters for public state, the computed layout for the private balances
// mapping, the balance, and guards over all of them as the sale proceeds.
func TestGiftTokenGuards(t *testing.T) {
	d := loadDemo(t, "GiftToken")
	dep := deploytest.DeployTarget(t, d.rec, d.out)
	layout, err := LayoutOf(d.out, nil, "GiftToken")
	if err != nil {
		t.Fatal(err)
	}
	if !layout.Computed {
		t.Fatal("0.4.24 reports no storage layout; the layout should be computed")
	}
	s := ForDeployment(dep, dep.Chain, layout)
	owner := s.At(dep.Deployer, dep.Block)
	if got := mustInt(t)(owner.Mapping("balances", dcrgraph.AddressValue(dep.Deployer))); got.Cmp(big.NewInt(1e14)) != 0 {
		t.Fatalf("balances[deployer] = %s, want the initial supply 1e14", got)
	}
	if holds(t, owner, "selling") {
		t.Fatal("selling before enableSale")
	}
	send(t, dep, dep.Deployer, nil, "enableSale")
	send(t, dep, user, big.NewInt(1e18), "buy")
	if !holds(t, owner, "selling && address(this).balance == 1 ether && owner == msg.sender") {
		t.Fatal("after enableSale and a 1 ether purchase the guard should hold for the owner")
	}
	buyer := s.At(user, dep.Block)
	if !holds(t, buyer, "balances[msg.sender] == 4300 * 10**5 && balances[msg.sender] < balances[owner]") {
		t.Fatalf("buyer's balance: %v", mustInt(t)(buyer.Mapping("balances", buyer.Sender())))
	}
	if _, err := s.Mapping("allowed", buyer.Sender()); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("allowed is a nested mapping: want ErrUnreadable, got %v", err)
	}
	if _, err := s.Var("noSuchVariable"); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("unknown variable: want ErrUnreadable, got %v", err)
	}
	sameThroughStorage(t, dep, layout, "selling", "owner", "tokensPerEth", "_totalSupply")
}

// sameThroughStorage reads public variables through a State without an ABI
// (so through storage) and compares them with their getters.
func sameThroughStorage(t *testing.T, dep *deploy.Deployment, layout *Layout, names ...string) {
	t.Helper()
	viaGetter := ForDeployment(dep, dep.Chain, layout)
	viaStorage := New(dep.Chain, dep.Address, abi.ABI{}, layout, dep.Block)
	for _, name := range names {
		a, err := viaGetter.Var(name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := viaStorage.Var(name)
		if err != nil {
			t.Fatal(err)
		}
		if !a.Equal(b) {
			t.Errorf("%s: getter %s, storage %s", name, a, b)
		}
	}
}

// TestAllowlistNFTGuards reads a 0.8.19 contract through solc's layout:
// private mappings keyed by uint256 and by address.
func TestAllowlistNFTGuards(t *testing.T) {
	d := loadDemo(t, "AllowlistNFT")
	dep := deploytest.DeployTarget(t, d.rec, d.out)
	layout, err := LayoutOf(d.out, nil, "AllowlistNFT")
	if err != nil {
		t.Fatal(err)
	}
	if layout.Computed {
		t.Fatal("0.8.19 reports its storage layout; it should be used")
	}
	s := ForDeployment(dep, dep.Chain, layout).At(user, dep.Block)
	if !holds(t, s, "owners[1] == address(0) && !publicMintOpen") {
		t.Fatal("no token before any mint")
	}
	send(t, dep, dep.Deployer, nil, "setPublicMint", true)
	send(t, dep, user, big.NewInt(5e16), "mint", big.NewInt(1))
	if !holds(t, s, "owners[1] == msg.sender && balances[msg.sender] == 1 && totalSupply == 1 && publicMintOpen") {
		t.Fatal("after one public mint the caller owns token 1")
	}
	if !holds(t, s, "address(this).balance == 0.05 ether && block.number > 0 && now > 0") {
		t.Fatal("balance and block values")
	}
	sameThroughStorage(t, dep, layout, "price", "allowlistPrice", "publicMintOpen", "totalSupply", "owner")
}

// TestComputedLayoutMatchesSolc computes the layout of every 0.8.19 demo
// contract from its AST and compares it with the one solc reports.
func TestComputedLayoutMatchesSolc(t *testing.T) {
	for _, name := range []string{"TimedCrowdsale", "StakingPool", "AllowlistNFT", "PaymentChannel"} {
		d := loadDemo(t, name)
		want, err := LayoutOf(d.out, nil, name)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := solast.ParseProgram(d.out.ASTs(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := computeLayout(prog, name)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Vars) != len(want.Vars) {
			t.Errorf("%s: %d variables computed, solc has %d", name, len(got.Vars), len(want.Vars))
		}
		for v, w := range want.Vars {
			g, ok := got.Vars[v]
			if !ok || g.Slot.Cmp(w.Slot) != 0 || g.Offset != w.Offset || g.Type.Bytes != w.Type.Bytes || g.Type.Encoding != w.Type.Encoding {
				t.Errorf("%s.%s: computed %+v, solc %+v", name, v, g, w)
			}
		}
	}
}

// TestLayoutOfReadsTheGivenProgram: a caller that parsed the ASTs already
// gets the layout from its program (no second parse), the same layout as
// from the ASTs parsed anew; a program without the contract is an error.
func TestLayoutOfReadsTheGivenProgram(t *testing.T) {
	d := loadDemo(t, "GiftToken") // 0.4.24: the layout is computed from the AST
	prog, err := solast.ParseProgram(d.out.ASTs(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := LayoutOf(d.out, prog, "GiftToken")
	if err != nil {
		t.Fatal(err)
	}
	want, err := LayoutOf(d.out, nil, "GiftToken")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("from the given program %+v, parsed anew %+v", got, want)
	}
	empty, err := solast.ParseProgram(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LayoutOf(d.out, empty, "GiftToken"); err == nil {
		t.Fatal("a program without the contract gave a layout: it was parsed again")
	}
}
