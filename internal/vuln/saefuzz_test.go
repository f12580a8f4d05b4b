package vuln

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/bytecode"
)

// saefuzzConfig is testConfig under the paper's profile.
func saefuzzConfig(seed int64) Config {
	c := testConfig(seed)
	c.Profile = ProfileSAEFUZZ
	return c
}

// TestArithmeticOracleIntendedRange: under saefuzz, an ADD whose result
// stays inside 256 bits but leaves uint8's range, truncated by the type's
// cleanup and stored, is an arithmetic finding (SAEFUZZ §3: the result
// against the intended integer range); the same tally checked against the
// range is not (real solc 0.4, real EVM).
func TestArithmeticOracleIntendedRange(t *testing.T) {
	vuln := run(t, deployTestdata(t, "arithmetic_narrow.sol", "NarrowTally"), saefuzzConfig(42))
	f := findingOf(vuln, Arithmetic)
	if f == nil {
		t.Fatalf("NarrowTally: no arithmetic finding (findings %+v)", vuln.Findings)
	}
	if !f.Reproduces {
		t.Errorf("NarrowTally: the arithmetic finding does not reproduce: %s", f.Evidence)
	}
	fixed := run(t, deployTestdata(t, "arithmetic_narrow.sol", "CheckedTally"), saefuzzConfig(42))
	if g := findingOf(fixed, Arithmetic); g != nil {
		t.Errorf("CheckedTally: arithmetic fired: seed %s evidence %s", g.Seed, g.Evidence)
	}
}

// TestRangeMask: the cleanup masks are 2^k−1 for k a multiple of 8 below 256.
func TestRangeMask(t *testing.T) {
	for _, c := range []struct {
		hex  string
		want bool
	}{{"0xff", true}, {"0xffff", true}, {"0xffffffffffffffffffffffffffffffffffffffff", true}, {"0x7f", false}, {"0xfe", false}, {"0x0", false}} {
		if got := rangeMask(mustWord(t, c.hex)); got != c.want {
			t.Errorf("rangeMask(%s) = %v, want %v", c.hex, got, c.want)
		}
	}
}

// TestSAEFUZZCandidatesOnCriticalPaths: under saefuzz the candidates are the
// routed functions with a critical path (plus the fallback), drawn alike;
// extended (all-candidates) keeps every routed function.
func TestSAEFUZZCandidatesOnCriticalPaths(t *testing.T) {
	target := deployTestdata(t, "arithmetic_narrow.sol", "NarrowTally")
	g := bytecode.BuildCFG(target.Chain.Code(target.Address))
	fns, err := bytecode.RecoverFunctions(g, target.ABI)
	if err != nil {
		t.Fatal(err)
	}
	critical := map[string]bool{}
	routed := 0
	for _, fn := range fns {
		if fn.Recovered {
			routed++
			critical[fn.Signature] = fn.CriticalPaths > 0
		}
	}
	saefuzz, err := newEngine(target, saefuzzConfig(42).withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range saefuzz.candidates {
		if c.method != nil && !critical[c.name] {
			t.Errorf("saefuzz candidate %s is on no critical path", c.name)
		}
		if c.weight != 1 {
			t.Errorf("saefuzz candidate %s weighs %d, want 1", c.name, c.weight)
		}
	}
	if len(saefuzz.candidates) >= routed {
		t.Errorf("saefuzz: %d candidates of %d routed functions; the getter without a critical path should be out", len(saefuzz.candidates), routed)
	}
	extended, err := newEngine(target, testConfig(42).withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(extended.candidates) != routed {
		t.Errorf("extended: %d candidates, want every routed function (%d)", len(extended.candidates), routed)
	}
}

// TestSAEFUZZMutationSenderValueArgs: under saefuzz a mutant keeps its
// transactions, their functions and their time gaps (SAEFUZZ names values
// replaced or bits flipped, sender and value changed); extended's tx-edits
// change gaps and lengths.
func TestSAEFUZZMutationSenderValueArgs(t *testing.T) {
	target := deployTestdata(t, "reentrancy.sol", "ReentrantBank")
	changed := func(cfg Config) (shape int) {
		e, err := newEngine(target, cfg.withDefaults())
		if err != nil {
			t.Fatal(err)
		}
		for range 200 {
			s := e.randomSeed()
			m := e.mutate(s)
			if len(m.Txs) != len(s.Txs) {
				shape++
				continue
			}
			for i := range m.Txs {
				if m.Txs[i].fn != s.Txs[i].fn || m.Txs[i].Advance != s.Txs[i].Advance || m.Txs[i].Blocks != s.Txs[i].Blocks {
					shape++
					break
				}
			}
		}
		return shape
	}
	if n := changed(saefuzzConfig(42)); n != 0 {
		t.Errorf("saefuzz: %d of 200 mutants changed a sequence's functions, length or gaps", n)
	}
	if n := changed(testConfig(42)); n == 0 {
		t.Error("extended: no mutant changed a sequence's functions, length or gaps (tx-edits off?)")
	}
}

func mustWord(t *testing.T, hex string) *uint256.Int {
	t.Helper()
	w, err := uint256.FromHex(hex)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestSitesHoldEveryFinding: every finding's evidence is one of the run's
// sites (per-bug recall reads the sites), and a finding's class has one.
func TestSitesHoldEveryFinding(t *testing.T) {
	r := run(t, deployTestdata(t, "arithmetic.sol", "WrappingToken"), saefuzzConfig(42))
	if findingOf(r, Arithmetic) == nil {
		t.Fatalf("WrappingToken: no arithmetic finding (findings %+v)", r.Findings)
	}
	for _, f := range r.Findings {
		if f.Class == FrozenEther {
			continue
		}
		var ev []Evidence
		if err := json.Unmarshal([]byte(f.Evidence), &ev); err != nil {
			t.Fatal(err)
		}
		held := false
		for _, st := range r.Sites {
			if st.Class == f.Class && len(st.PCs) == len(ev) && st.PCs[0] == ev[0].PC && st.PCs[len(ev)-1] == ev[len(ev)-1].PC {
				held = true
			}
		}
		if !held {
			t.Errorf("%s finding %s is in no site of %+v", f.Class, f.Evidence, r.Sites)
		}
	}
}

// TestSAEFUZZInitialSequences: under saefuzz the first generation is the
// candidates combined into sequences of distinct functions ("Candidate
// lists are deduplicated and combined into transaction sequences"), writers
// before readers, in descending order of accumulated score, the best first,
// every call sent by the attacker ("calls that an external adversary" can
// invoke):
// on ReentrantBank (deposit, withdraw, the balances getter) the first seed
// deposits, then withdraws, then reads. Random draws with repeats (the
// all-candidates extension) call a function twice in some seed.
func TestSAEFUZZInitialSequences(t *testing.T) {
	target := deployTestdata(t, "reentrancy.sol", "ReentrantBank")
	pool := func(cfg Config) []*Seed {
		e, err := newEngine(target, cfg.withDefaults())
		if err != nil {
			t.Fatal(err)
		}
		return e.initialPool()
	}
	repeats := func(s *Seed) bool {
		seen := map[*candidate]bool{}
		for _, tx := range s.Txs {
			if seen[tx.fn] {
				return true
			}
			seen[tx.fn] = true
		}
		return false
	}
	for _, seed := range []int64{1, 2, 3} {
		p := pool(saefuzzConfig(seed))
		var names []string
		for _, tx := range p[0].Txs {
			names = append(names, tx.fn.name)
		}
		if got := strings.Join(names, " "); got != "deposit() withdraw() balances(address)" {
			t.Errorf("seed %d: first sequence %q, want deposit() withdraw() balances(address)", seed, got)
		}
		both := 0
		for i, s := range p {
			if repeats(s) {
				t.Errorf("seed %d: sequence %d calls a function twice", seed, i)
			}
			for _, tx := range s.Txs {
				if tx.Sender != 3 { // the attacker (setupActors)
					t.Errorf("seed %d: sequence %d: a call sent by actor %d, want the attacker (the external adversary)", seed, i, tx.Sender)
					break
				}
			}
			if i > 0 && accumulated(p[i-1]) < accumulated(s) {
				t.Errorf("seed %d: sequence %d scores above the one before it", seed, i)
			}
			if len(s.Txs) >= 2 && s.Txs[0].fn.name == "deposit()" && s.Txs[1].fn.name == "withdraw()" {
				both++
			}
		}
		if both < len(p)/4 {
			t.Errorf("seed %d: %d of %d sequences deposit then withdraw, want at least a quarter", seed, both, len(p))
		}
	}
	cfg := saefuzzConfig(1)
	cfg.Profile = "saefuzz+all-candidates"
	n := 0
	for _, s := range pool(cfg) {
		if repeats(s) {
			n++
		}
	}
	if n == 0 {
		t.Error("all-candidates: no sequence repeats a function (drawn with repeats, as before)")
	}
}

// TestSAEFUZZFirstGenerationCallsEveryWriter: with more state-changing
// candidates than initialSequences combines, each of them is still called
// by some sequence of the first generation (saefuzz's mutation never adds a
// function, so one left out would never run); read-only ones need not be.
func TestSAEFUZZFirstGenerationCallsEveryWriter(t *testing.T) {
	target := deployTestdata(t, "many_writers.sol", "ManyWriters")
	for _, seed := range []int64{1, 2} {
		e, err := newEngine(target, saefuzzConfig(seed).withDefaults())
		if err != nil {
			t.Fatal(err)
		}
		called := map[string]bool{}
		for _, s := range e.initialPool() {
			for _, tx := range s.Txs {
				called[tx.fn.name] = true
			}
		}
		writers := 0
		for _, c := range e.candidates {
			if c.readOnly {
				continue
			}
			writers++
			if !called[c.name] {
				t.Errorf("seed %d: writer %s is called by no initial sequence", seed, c.name)
			}
		}
		if writers <= maxCombined {
			t.Fatalf("seed %d: %d writers, want more than maxCombined (%d)", seed, writers, maxCombined)
		}
	}
}
