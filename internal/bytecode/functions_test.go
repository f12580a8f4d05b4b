package bytecode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/core/vm/runtime"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/solbehave/solbehave/internal/evmasm"
)

// trace runs code on go-ethereum's EVM with input as calldata and returns
// the pcs executed by the top frame.
func trace(t *testing.T, code, input []byte) []uint64 {
	t.Helper()
	var pcs []uint64
	hooks := &tracing.Hooks{OnOpcode: func(pc uint64, _ byte, _, _ uint64, _ tracing.OpContext, _ []byte, depth int, _ error) {
		if depth == 1 {
			pcs = append(pcs, pc)
		}
	}}
	// Reverts and failed calls are fine: the trace is what matters.
	_, _, _ = runtime.Execute(code, input, &runtime.Config{EVMConfig: vm.Config{Tracer: hooks}})
	if len(pcs) == 0 {
		t.Fatalf("nothing executed for input %x", input)
	}
	return pcs
}

func callData(sel [4]byte, words ...uint64) []byte {
	out := append([]byte(nil), sel[:]...)
	for _, w := range words {
		var word [32]byte
		binary.BigEndian.PutUint64(word[24:], w)
		out = append(out, word[:]...)
	}
	return out
}

func abiMethods(t *testing.T, abiJSON []byte) map[[4]byte]abi.Method {
	t.Helper()
	parsed, err := abi.JSON(bytes.NewReader(abiJSON))
	if err != nil {
		t.Fatal(err)
	}
	out := map[[4]byte]abi.Method{}
	for _, m := range parsed.Methods {
		out[[4]byte(m.ID)] = m
	}
	return out
}

func TestRecoverFunctionsFixtures(t *testing.T) {
	eachFixture(t, func(t *testing.T, f fixture) {
		c := BuildCFG(f.code)
		fns, err := RecoverFunctions(c, f.abi)
		if err != nil {
			t.Fatal(err)
		}
		methods := abiMethods(t, f.abi)
		if len(fns) != len(methods) || len(methods) != 13 {
			t.Fatalf("%d functions for %d ABI methods (want 13)", len(fns), len(methods))
		}
		routes := Dispatch(c)
		if len(routes) != len(methods) {
			t.Errorf("dispatcher has %d routes, ABI %d methods", len(routes), len(methods))
		}
		byName := map[string]Function{}
		for _, fn := range fns {
			byName[fn.Name] = fn
			m, ok := methods[fn.Selector]
			switch {
			case !ok:
				t.Errorf("%s: selector %x not in the ABI", fn.Signature, fn.Selector)
			case !fn.Recovered:
				t.Errorf("%s: not recovered from the dispatcher", fn.Signature)
			case !c.isJumpDest(fn.Entry) || !JumpTargets(f.code)[fn.Entry]:
				t.Errorf("%s: entry %#x is not a JUMPDEST", fn.Signature, fn.Entry)
			case [4]byte(crypto.Keccak256([]byte(fn.Signature))) != fn.Selector:
				t.Errorf("%s: selector %x does not hash from the signature", fn.Signature, fn.Selector)
			case fn.ReadOnly != m.IsConstant() || fn.Payable != (fn.Name == "deposit"):
				t.Errorf("%s: read-only %v payable %v", fn.Signature, fn.ReadOnly, fn.Payable)
			case fn.Truncated || fn.Paths == 0 || fn.CriticalPaths == 0 || len(fn.CriticalPathBlocks) != fn.CriticalPaths:
				t.Errorf("%s: truncated %v, %d paths, %d critical (%d kept)", fn.Signature, fn.Truncated, fn.Paths, fn.CriticalPaths, len(fn.CriticalPathBlocks))
			}
			// Every state-changing function of this token writes storage and
			// every getter only reads it.
			if fn.HasSSTORE == fn.ReadOnly || fn.StorageScore != map[bool]int{true: 1, false: 2}[fn.ReadOnly] {
				t.Errorf("%s: SSTORE %v SLOAD %v score %d", fn.Signature, fn.HasSSTORE, fn.HasSLOAD, fn.StorageScore)
			}
			if fn.ReadOnly && !fn.HasSLOAD {
				t.Errorf("%s: getter without SLOAD", fn.Signature)
			}
			if want := fn.Name == "withdraw"; fn.Critical[ClassCallValue] != want {
				t.Errorf("%s: call_value %v, want %v", fn.Signature, fn.Critical[ClassCallValue], want)
			}
			if want := fn.Name == "isUnlocked"; fn.Critical[ClassEnvironment] != want {
				t.Errorf("%s: environment %v, want %v", fn.Signature, fn.Critical[ClassEnvironment], want)
			}
			if fn.Critical[ClassDelegateCall] || fn.Critical[ClassCallCode] || fn.Critical[ClassSelfDestruct] {
				t.Errorf("%s: classes %v the token does not have", fn.Signature, fn.Critical)
			}
		}
		if !byName["transfer"].Critical[ClassArithmetic] {
			t.Errorf("transfer's balance updates not marked arithmetic")
		}
		checkEntriesByExecution(t, c, f.code, fns)
	})
}

// checkEntriesByExecution calls every function on the EVM and checks that
// execution passes its entry and no other function's, that every block it
// runs from the entry on is one the path search found, and that every jump
// it takes is a CFG edge.
func checkEntriesByExecution(t *testing.T, c *CFG, code []byte, fns []Function) {
	t.Helper()
	rng := rand.New(rand.NewSource(7))
	entries := map[uint64]string{}
	for _, fn := range fns {
		entries[fn.Entry] = fn.Signature
	}
	for _, fn := range fns {
		blocks := map[uint64]bool{}
		for _, pc := range fn.Blocks {
			blocks[pc] = true
		}
		inputs := [][]byte{callData(fn.Selector, 0, 0, 0), callData(fn.Selector, rng.Uint64()>>40, rng.Uint64()>>40, 0)}
		for _, input := range inputs {
			pcs := trace(t, code, input)
			at := slices.Index(pcs, fn.Entry)
			if at < 0 {
				t.Errorf("%s: execution never reached entry %#x", fn.Signature, fn.Entry)
				continue
			}
			for i, pc := range pcs {
				if other, ok := entries[pc]; ok && pc != fn.Entry {
					t.Errorf("%s: execution passed %s's entry %#x", fn.Signature, other, pc)
				}
				if i < at {
					continue
				}
				if c.Blocks[pc] != nil && !blocks[pc] {
					t.Errorf("%s: executed block %#x the path search missed", fn.Signature, pc)
				}
				if i+1 < len(pcs) {
					if b := c.BlockAt(pc); b != nil && pc == b.End && pcs[i+1] != b.Last().Next() && !slices.Contains(b.Succs, pcs[i+1]) {
						t.Errorf("%s: jump %#x -> %#x is not a CFG edge (%x)", fn.Signature, pc, pcs[i+1], b.Succs)
					}
				}
			}
		}
	}
}

func TestCandidateOrderFixtures(t *testing.T) {
	eachFixture(t, func(t *testing.T, f fixture) {
		fns, err := RecoverFunctions(BuildCFG(f.code), f.abi)
		if err != nil {
			t.Fatal(err)
		}
		before := slices.Clone(fns)
		order := CandidateOrder(fns)
		if len(order) != len(fns) {
			t.Fatalf("order dropped functions: %d of %d", len(order), len(fns))
		}
		var names []string
		for i, fn := range order {
			names = append(names, fn.Name)
			if i == 0 {
				continue
			}
			prev := order[i-1]
			switch {
			case prev.ReadOnly && !fn.ReadOnly:
				t.Errorf("read-only %s before state-changing %s", prev.Name, fn.Name)
			case prev.ReadOnly == fn.ReadOnly && prev.StorageScore < fn.StorageScore:
				t.Errorf("%s (score %d) before %s (score %d)", prev.Name, prev.StorageScore, fn.Name, fn.StorageScore)
			case prev.ReadOnly == fn.ReadOnly && prev.StorageScore == fn.StorageScore &&
				bytes.Compare(prev.Selector[:], fn.Selector[:]) > 0:
				t.Errorf("tie %s, %s not in selector order", prev.Name, fn.Name)
			}
		}
		t.Logf("order: %v", names)
		if order[0].ReadOnly || !order[len(order)-1].ReadOnly || order[0].StorageScore != 2 {
			t.Errorf("writers should lead and getters trail: %v", names)
		}
		for i := range fns {
			if fns[i].Selector != before[i].Selector {
				t.Fatal("CandidateOrder modified its input")
			}
		}
		rng := rand.New(rand.NewSource(1))
		for range 5 {
			shuffled := slices.Clone(fns)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			again := CandidateOrder(shuffled)
			for i := range order {
				if again[i].Selector != order[i].Selector {
					t.Fatalf("order depends on input order at %d: %s vs %s", i, again[i].Name, order[i].Name)
				}
			}
		}
	})
}

func TestCandidateOrderRules(t *testing.T) {
	fn := func(sel byte, ro bool, score int, recovered bool) Function {
		return Function{Selector: [4]byte{sel}, ReadOnly: ro, StorageScore: score, Recovered: recovered}
	}
	in := []Function{
		fn(1, true, 2, true), fn(2, false, 0, true), fn(3, false, 1, true), fn(4, false, 2, true),
		fn(5, false, 2, false), fn(6, false, 2, true), fn(7, true, 0, true),
	}
	var got []byte
	for _, f := range CandidateOrder(in) {
		got = append(got, f.Selector[0])
	}
	if want := []byte{4, 6, 3, 2, 1, 7}; !bytes.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

func TestDispatchVariants(t *testing.T) {
	const s1, s2, s3, s4, s8, s9, mid = 0x11111111, 0x22222222, 0x33333333, 0x44444444, 0x88888888, 0x99999999, 0x30000000
	a := evmasm.New().UsePush0()
	selectorHead(a)
	a.Op(vm.DUP1).PushSelector(mid).Op(vm.GT).PushLabel("low").Op(vm.JUMPI) // binary search: mid > sel
	a.Op(vm.DUP1).PushSelector(s3).Op(vm.EQ).PushLabel("f3").Op(vm.JUMPI)
	a.Op(vm.DUP1).PushSelector(s4).Op(vm.EQ, vm.ISZERO).PushLabel("fallback").Op(vm.JUMPI) // Vyper style
	// the fall-through entry has no JUMPDEST
	a.Mark("f4")
	a.Push(1).Push(0).Op(vm.SSTORE, vm.STOP)
	a.Label("low").Op(vm.DUP1).PushSelector(s1).Op(vm.EQ).PushLabel("f1").Op(vm.JUMPI)
	a.PushSelector(s2).Op(vm.DUP2, vm.EQ).PushLabel("f2").Op(vm.JUMPI) // PUSH4 s DUP2 EQ
	a.PushLabel("fallback").Op(vm.JUMP)
	a.Label("fallback").Push(4).Op(vm.CALLDATALOAD).PushSelector(s9).Op(vm.EQ).PushLabel("f1").Op(vm.JUMPI) // not the selector
	a.Push(0).Push(0).Op(vm.REVERT)
	a.Label("f1").Op(vm.DUP1).PushSelector(s8).Op(vm.EQ).PushLabel("f2").Op(vm.JUMPI, vm.STOP) // a comparison in a body
	a.Label("f2").Op(vm.STOP)
	a.Label("f3").Op(vm.TIMESTAMP, vm.STOP)
	code := a.MustAssemble()
	c := BuildCFG(code)
	got := map[uint32]uint64{}
	for _, r := range Dispatch(c) {
		got[binary.BigEndian.Uint32(r.Selector[:])] = r.Entry
	}
	want := map[uint32]uint64{s1: a.PC("f1"), s2: a.PC("f2"), s3: a.PC("f3"), s4: a.PC("f4")}
	if len(got) != len(want) {
		t.Fatalf("routes %x, want %x", got, want)
	}
	for sel, entry := range want {
		if got[sel] != entry {
			t.Errorf("selector %#x routed to %#x, want %#x", sel, got[sel], entry)
		}
		var key [4]byte
		binary.BigEndian.PutUint32(key[:], sel)
		if !slices.Contains(trace(t, code, callData(key)), entry) {
			t.Errorf("the EVM does not reach %#x for %#x", entry, sel)
		}
	}
}

func TestRecoverFunctionsABIHandling(t *testing.T) {
	f := loadFixture(t, fixtures[0])
	c := BuildCFG(f.code)
	if _, err := RecoverFunctions(c, []byte("{not json")); err == nil {
		t.Error("bad ABI JSON accepted")
	}
	extra := []byte(`[{"type":"function","name":"ghost","inputs":[],"outputs":[],"stateMutability":"nonpayable"},
		{"type":"function","name":"transfer","inputs":[{"name":"to","type":"address"},{"name":"amount","type":"uint256"}],
		 "outputs":[{"name":"","type":"bool"}],"stateMutability":"nonpayable"},{"type":"fallback"}]`)
	fns, err := RecoverFunctions(c, extra)
	if err != nil {
		t.Fatal(err)
	}
	if len(fns) != 2 {
		t.Fatalf("%d functions, want ghost and transfer only", len(fns))
	}
	for _, fn := range fns {
		if fn.Recovered != (fn.Name == "transfer") {
			t.Errorf("%s recovered %v", fn.Name, fn.Recovered)
		}
	}
	order := CandidateOrder(fns)
	if len(order) != 1 || order[0].Name != "transfer" {
		t.Errorf("unroutable ghost() not dropped: %v", order)
	}
	if _, err := RecoverFunctions(BuildCFG(nil), f.abi); err != nil {
		t.Errorf("empty code: %v", err)
	}
	if !errors.Is(BuildCFG(nil).AddDynamicEdge(0, 0), ErrNoSuchPC) {
		t.Error("edge in empty code accepted")
	}
}
