package bytecode

import (
	"errors"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/solbehave/solbehave/internal/evmasm"
)

// checkCFGInvariants asserts what every CFG must satisfy: blocks tile the
// code, JUMPDESTs only open blocks, terminators only close them, and every
// edge leads to a block start.
func checkCFGInvariants(t *testing.T, c *CFG) {
	t.Helper()
	if !slices.IsSorted(c.Starts) || len(c.Starts) != len(c.Blocks) {
		t.Fatalf("Starts unsorted or out of step with Blocks")
	}
	var next uint64
	n := 0
	for _, s := range c.Starts {
		b := c.Blocks[s]
		if b.Start != next {
			t.Fatalf("block %#x does not start where the previous ended (%#x)", b.Start, next)
		}
		for i, in := range b.Instrs {
			if in.Op == vm.JUMPDEST && i > 0 {
				t.Errorf("block %#x has a JUMPDEST inside at %#x", s, in.PC)
			}
			if endsBlock(in.Op) && i != len(b.Instrs)-1 {
				t.Errorf("block %#x has %s inside at %#x", s, in.Op, in.PC)
			}
		}
		if b.End != b.Last().PC {
			t.Errorf("block %#x End %#x, last pc %#x", s, b.End, b.Last().PC)
		}
		for _, succ := range b.Succs {
			if c.Blocks[succ] == nil {
				t.Errorf("block %#x has an edge to %#x, not a block", s, succ)
			}
		}
		next = b.Last().Next()
		n += len(b.Instrs)
	}
	if n != len(c.Instrs) || next < uint64(len(c.Code)) {
		t.Fatalf("blocks hold %d of %d instructions, end at %#x of %#x", n, len(c.Instrs), next, len(c.Code))
	}
}

func TestBuildCFGFixtures(t *testing.T) {
	eachFixture(t, func(t *testing.T, f fixture) {
		c := BuildCFG(f.code)
		checkCFGInvariants(t, c)
		if len(c.Metadata) == 0 || len(c.Code)+len(c.Metadata) != len(f.code) {
			t.Fatalf("metadata not split: code %d + meta %d of %d", len(c.Code), len(c.Metadata), len(f.code))
		}
		for _, s := range c.Starts {
			if s >= uint64(len(c.Code)) {
				t.Errorf("block %#x starts inside the metadata (code is %d bytes)", s, len(c.Code))
			}
		}
		// The CFG's JUMPDEST blocks are exactly the EVM's jump targets in the code.
		for pc := range JumpTargets(f.code) {
			if pc < uint64(len(c.Code)) && !c.isJumpDest(pc) {
				t.Errorf("EVM jump target %#x is not a JUMPDEST block", pc)
			}
		}
		resolved, unresolved := 0, 0
		for _, b := range c.Blocks {
			switch op := b.Last().Op; {
			case b.Unresolved:
				unresolved++
			case op == vm.JUMP && len(b.Succs) != 1, op == vm.JUMPI && len(b.Succs) != 2 && !b.BadJump:
				t.Errorf("block %#x ends in %s with edges %x", b.Start, op, b.Succs)
			case op == vm.JUMP || op == vm.JUMPI:
				resolved++
			}
		}
		t.Logf("%d blocks, %d edges, %d jumps resolved in-block, %d left to path simulation",
			len(c.Blocks), c.Edges(), resolved, unresolved)
		if resolved == 0 || unresolved == 0 {
			t.Errorf("expected both in-block resolved jumps and return jumps, got %d and %d", resolved, unresolved)
		}
	})
}

func TestInBlockStackSimulation(t *testing.T) {
	a := evmasm.New().UsePush0()
	a.PushLabel("ret").Push(5).Op(vm.SWAP1, vm.JUMP)                            // target moved by SWAP
	a.Label("ret").PushLabel("two").Push(1).Push(2).Op(vm.POP, vm.POP, vm.JUMP) // under POPs
	a.Label("two").PushLabel("three").Op(vm.DUP1, vm.POP, vm.JUMP)              // a DUP then POP
	a.Label("three").Push(0x10).Push(0x20).Op(vm.ADD, vm.JUMP)                  // folded to 0x30
	a.Label("dyn").Op(vm.JUMP)                                                  // from the caller
	code := a.MustAssemble()
	c := BuildCFG(code)
	checkCFGInvariants(t, c)
	for from, to := range map[string]string{"": "ret", "ret": "two", "two": "three"} {
		if got := c.Blocks[a.PC(from)].Succs; !slices.Equal(got, []uint64{a.PC(to)}) {
			t.Errorf("block %q edges %x, want [%x]", from, got, a.PC(to))
		}
	}
	if b := c.Blocks[a.PC("three")]; !b.BadJump || len(b.Succs) != 0 || b.Critical[0] != vm.ADD {
		t.Errorf("jump to 0x30 (no JUMPDEST) should be a bad jump with ADD critical: %+v", b)
	}
	if b := c.Blocks[a.PC("dyn")]; !b.Unresolved {
		t.Errorf("caller-supplied target should stay unresolved")
	}
}

func TestPathSimulationResolvesReturns(t *testing.T) {
	// An internal function called twice, returning through the address its
	// caller pushed: the second call must not be cut as a loop.
	a := evmasm.New().UsePush0()
	a.PushLabel("r1").PushLabel("f").Op(vm.JUMP)
	a.Label("r1").PushLabel("r2").PushLabel("f").Op(vm.JUMP)
	a.Label("r2").Op(vm.STOP)
	a.Label("f").Op(vm.TIMESTAMP, vm.POP, vm.JUMP)
	c := BuildCFG(a.MustAssemble())
	if !c.Blocks[a.PC("f")].Unresolved {
		t.Fatal("f's return should be unresolved in-block")
	}
	sum := explore(c, 0, &absStack{}, DefaultLimits)
	want := []uint64{0, a.PC("f"), a.PC("r1"), a.PC("f"), a.PC("r2")}
	if sum.complete != 1 || sum.critical != 1 || sum.truncated || !slices.Equal(sum.criticalPaths[0], want) {
		t.Fatalf("paths: complete %d critical %d truncated %v %x, want one path %x",
			sum.complete, sum.critical, sum.truncated, sum.criticalPaths, want)
	}
	if !sum.resolved[[2]uint64{a.PC("f"), a.PC("r1")}] || !sum.resolved[[2]uint64{a.PC("f"), a.PC("r2")}] {
		t.Errorf("return edges not reported: %v", sum.resolved)
	}
	if sum.classes.names()[ClassEnvironment] != true {
		t.Errorf("TIMESTAMP in f not seen: %v", sum.classes.names())
	}
}

func TestLoopVisitedOncePerPath(t *testing.T) {
	a := evmasm.New().UsePush0()
	a.Label("head").Push(0).Op(vm.CALLDATALOAD).PushLabel("body").Op(vm.JUMPI)
	a.Op(vm.STOP)
	a.Label("body").Push(1).Op(vm.SSTORE).PushLabel("head").Op(vm.JUMP)
	c := BuildCFG(a.MustAssemble())
	sum := explore(c, 0, &absStack{}, DefaultLimits)
	// head->stop, head->body->head->stop; head->body->head->body is cut.
	if sum.complete != 2 || !sum.hasSStore {
		t.Fatalf("complete paths %d (want 2), SSTORE %v", sum.complete, sum.hasSStore)
	}
}

func TestLimitsBoundTheSearch(t *testing.T) {
	// 12 independent branches: 4096 paths unless bounded.
	a := evmasm.New().UsePush0()
	for i := range 12 {
		l := string(rune('a' + i))
		a.Push(uint64(i)).Op(vm.CALLDATALOAD).PushLabel(l).Op(vm.JUMPI).Label(l)
	}
	a.Op(vm.STOP)
	c := BuildCFG(a.MustAssemble())
	sum := explore(c, 0, &absStack{}, Limits{MaxPaths: 100})
	if sum.complete != 100 || !sum.truncated {
		t.Fatalf("MaxPaths 100: complete %d truncated %v", sum.complete, sum.truncated)
	}
	sum = explore(c, 0, &absStack{}, Limits{MaxDepth: 5})
	if sum.complete != 0 || !sum.truncated {
		t.Fatalf("MaxDepth 5: complete %d truncated %v", sum.complete, sum.truncated)
	}
	if sum = explore(c, 0, &absStack{}, Limits{MaxPaths: 5000}); sum.complete != 4096 || sum.truncated {
		t.Fatalf("unbounded: complete %d truncated %v", sum.complete, sum.truncated)
	}
}

func TestCallValueOperand(t *testing.T) {
	call := func(value func(*evmasm.Asm)) *Block {
		a := evmasm.New().UsePush0()
		a.Push(0).Push(0).Push(0).Push(0)
		value(a)
		a.Push(0xca11).Op(vm.GAS, vm.CALL, vm.STOP)
		return BuildCFG(a.MustAssemble()).Blocks[0]
	}
	if b := call(func(a *evmasm.Asm) { a.Push(0) }); len(b.Critical) != 0 {
		t.Errorf("CALL with constant 0 value marked %v", b.Critical)
	}
	if b := call(func(a *evmasm.Asm) { a.Op(vm.CALLVALUE) }); !slices.Equal(b.Critical, []vm.OpCode{vm.CALL}) {
		t.Errorf("CALL with CALLVALUE value marked %v", b.Critical)
	}
	if b := call(func(a *evmasm.Asm) { a.Push(3).Push(3).Op(vm.SUB) }); len(b.Critical) != 1 || b.Critical[0] != vm.SUB {
		t.Errorf("CALL with folded 3-3 value marked %v, want only SUB", b.Critical)
	}
}

func TestAddDynamicEdge(t *testing.T) {
	a := evmasm.New().UsePush0()
	a.Push(0x20).Op(vm.CALLDATALOAD, vm.JUMP) // JUMP at pc 3
	a.Label("x").Op(vm.STOP)
	a.Label("y").Op(vm.STOP)
	c := BuildCFG(a.MustAssemble())
	if sum := explore(c, 0, &absStack{}, DefaultLimits); sum.complete != 0 || !sum.truncated {
		t.Fatalf("unresolved jump should cut the path: %+v", sum)
	}
	if err := c.AddDynamicEdge(3, a.PC("y")); err != nil { // the JUMP
		t.Fatal(err)
	}
	for range 2 { // any pc of the block; a repeat is a no-op
		if err := c.AddDynamicEdge(2, a.PC("x")); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.Blocks[0].Succs; !slices.Equal(got, []uint64{a.PC("x"), a.PC("y")}) {
		t.Fatalf("edges %x", got)
	}
	if sum := explore(c, 0, &absStack{}, DefaultLimits); sum.complete != 2 || sum.truncated {
		t.Fatalf("dynamic edges not followed: %d complete paths", sum.complete)
	}
	for _, tc := range []struct {
		from, to uint64
		err      error
	}{
		{1, a.PC("x"), ErrNoSuchPC},  // inside PUSH1 data
		{99, a.PC("x"), ErrNoSuchPC}, // past the code
		{0, 2, ErrNotJumpDest},
		{a.PC("x"), a.PC("y"), ErrNotJumpBlock},
	} {
		if err := c.AddDynamicEdge(tc.from, tc.to); !errors.Is(err, tc.err) {
			t.Errorf("AddDynamicEdge(%d, %d) = %v, want %v", tc.from, tc.to, err, tc.err)
		}
	}
}

func TestBlockHalts(t *testing.T) {
	a := evmasm.New().UsePush0()
	a.Push(0).Op(vm.CALLDATALOAD).PushLabel("end").Op(vm.JUMPI) // block 0: JUMPI
	a.Push(1)                                                   // falls into "mid"
	a.Label("mid").Op(vm.POP, vm.STOP)
	a.Label("end").Push(2) // runs off the end of the code: an implicit STOP
	c := BuildCFG(a.MustAssemble())
	want := map[uint64]bool{0: false, 6: false, a.PC("mid"): true, a.PC("end"): true}
	if len(c.Blocks) != len(want) {
		t.Fatalf("%d blocks, want %d", len(c.Blocks), len(want))
	}
	for pc, halts := range want {
		if b := c.Blocks[pc]; b == nil || b.Halts() != halts {
			t.Errorf("block %#x Halts() = %v, want %v", pc, b != nil && b.Halts(), halts)
		}
	}
}

func TestReachCompletesTruncatedPathSearch(t *testing.T) {
	// The SSTORE sits on the fallthrough arm of the first branch; 4096 paths
	// follow the join, so a path search bounded at 100 never comes back to
	// that arm. The reachability summary must still see it.
	a := evmasm.New().UsePush0()
	a.Push(0).Op(vm.CALLDATALOAD).PushLabel("join").Op(vm.JUMPI)
	a.Push(1).Push(0).Op(vm.SSTORE)
	a.Label("join")
	for i := range 12 {
		l := string(rune('a' + i))
		a.Push(uint64(i + 1)).Op(vm.CALLDATALOAD).PushLabel(l).Op(vm.JUMPI).Label(l)
	}
	a.Op(vm.NUMBER, vm.POP, vm.STOP)
	c := BuildCFG(a.MustAssemble())
	lim := Limits{MaxPaths: 100}
	paths := explore(c, 0, &absStack{}, lim)
	if paths.hasSStore || !paths.truncated {
		t.Fatalf("the test needs a truncated path search that misses the SSTORE (sstore %v truncated %v)", paths.hasSStore, paths.truncated)
	}
	states := reach(c, 0, &absStack{}, DefaultLimits.MaxStates)
	if !states.hasSStore || states.truncated || len(states.blocks) != len(c.Blocks) {
		t.Fatalf("reach: sstore %v truncated %v, %d of %d blocks", states.hasSStore, states.truncated, len(states.blocks), len(c.Blocks))
	}
	var fn Function
	fn.fill(0, paths, states)
	if !fn.HasSSTORE || fn.StorageScore != 2 || !fn.Critical[ClassEnvironment] || !fn.Truncated || !fn.Cuts.Budget {
		t.Errorf("merged function: %+v", fn)
	}
	if reach(c, 0, &absStack{}, 5).truncated != true {
		t.Error("MaxStates 5 not reported as truncation")
	}
}

func TestReachIgnoresStoresThatRevert(t *testing.T) {
	a := evmasm.New().UsePush0()
	a.Push(0).Op(vm.CALLDATALOAD).PushLabel("ok").Op(vm.JUMPI)
	a.Push(1).Push(0).Op(vm.SSTORE).Push(0).Push(0).Op(vm.REVERT) // rolled back
	a.Label("ok").Push(0).Op(vm.SLOAD, vm.POP, vm.STOP)
	c := BuildCFG(a.MustAssemble())
	s := reach(c, 0, &absStack{}, DefaultLimits.MaxStates)
	p := explore(c, 0, &absStack{}, DefaultLimits)
	if s.hasSStore || p.hasSStore || !s.hasSLoad || !p.hasSLoad {
		t.Fatalf("reach sstore %v sload %v; paths sstore %v sload %v", s.hasSStore, s.hasSLoad, p.hasSStore, p.hasSLoad)
	}
}

func TestBranchRefinementPrunesContradictions(t *testing.T) {
	// A flag is tested twice, as solc does around try/catch: the second
	// JUMPI must follow what the first one implied, or the path reaches a
	// JUMP whose destination is misaligned.
	a := evmasm.New().UsePush0()
	a.PushLabel("ret").Push(4).Op(vm.CALLDATALOAD, vm.DUP1, vm.ISZERO).PushLabel("failed").Op(vm.JUMPI)
	a.Push(7).Op(vm.SWAP1).PushLabel("join").Op(vm.JUMP) // success arm: one extra word under the flag
	a.Label("failed")
	a.Label("join").PushLabel("use").Op(vm.JUMPI) // jumps when the flag is set
	a.Op(vm.JUMP)                                 // the flag was 0: return address on top
	a.Label("use").Op(vm.POP, vm.JUMP)            // drop the extra word, return
	a.Label("ret").Op(vm.STOP)
	c := BuildCFG(a.MustAssemble())
	sum := explore(c, 0, &absStack{}, DefaultLimits)
	if sum.complete != 2 || sum.truncated || sum.cuts.Unresolved != 0 {
		t.Fatalf("complete %d (want 2), truncated %v, cuts %+v", sum.complete, sum.truncated, sum.cuts)
	}
}
