package vuln

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/bytecode"
	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/fuzz"
)

// Ablation selects a variant of the detector (SAEFUZZ Table 5).
type Ablation string

const (
	AblationNone     Ablation = "none"      // the full detector
	AblationNoStatic Ablation = "no-static" // stage 1 removed: every ABI function, no ordering or weights
	AblationRandom   Ablation = "random"    // stage 2 removed: fresh random sequences each generation
	AblationOpcode   Ablation = "opcode"    // stage 3 replaced: a class fires when its opcodes execute
)

// Ablations lists the variants in the order reports show them.
var Ablations = []Ablation{AblationNone, AblationNoStatic, AblationRandom, AblationOpcode}

// ParseAblation checks an ablation name.
func ParseAblation(s string) (Ablation, error) {
	for _, a := range Ablations {
		if string(a) == s {
			return a, nil
		}
	}
	return "", fmt.Errorf("vuln: unknown ablation %q (want none, no-static, random or opcode)", s)
}

// Profile names what the detector runs: the SAEFUZZ paper's §3 as written
// (the default) or this project's extensions on top of it.
type Profile string

const (
	// ProfileSAEFUZZ is saefuzz.txt §3 as written: storage-ordered sequences
	// from the critical paths (SSTORE 2 points, SLOAD 1, read-only
	// functions last), the evolutionary loop (α, p_m, fitness), and the five
	// oracles with their two pieces of evidence as Table 3 states them. None
	// of Extensions is on.
	ProfileSAEFUZZ Profile = "saefuzz"
	// ProfileExtended adds every one of Extensions.
	ProfileExtended Profile = "extended"
)

// Profiles lists the profiles in the order reports show them.
var Profiles = []Profile{ProfileSAEFUZZ, ProfileExtended}

// ParseProfile checks a profile name: saefuzz, extended, or saefuzz with
// named Extensions added, "saefuzz+tx-edits+repair" (a per-rule ablation:
// saefuzz plus exactly those rules). The added rules are put in the order
// of Extensions, so one set has one name (and one unit id, fingerprint and
// profile column).
func ParseProfile(s string) (Profile, error) {
	for _, p := range Profiles {
		if string(p) == s {
			return p, nil
		}
	}
	base, rest, ok := strings.Cut(s, "+")
	if !ok || base != string(ProfileSAEFUZZ) {
		return "", fmt.Errorf("vuln: unknown profile %q (want saefuzz, extended or saefuzz+<extension>[+<extension>...])", s)
	}
	added := map[string]bool{}
	for _, x := range strings.Split(rest, "+") {
		if !slices.Contains(Extensions, x) {
			return "", fmt.Errorf("vuln: profile %q: unknown extension %q (want one of %s)", s, x, strings.Join(Extensions, ", "))
		}
		if added[x] {
			return "", fmt.Errorf("vuln: profile %q names extension %q twice", s, x)
		}
		added[x] = true
	}
	name := string(ProfileSAEFUZZ)
	for _, x := range Extensions {
		if added[x] {
			name += "+" + x
		}
	}
	return Profile(name), nil
}

// Has reports whether the profile turns extension x on: extended has every
// one of Extensions, saefuzz none, saefuzz+<x>... those it names.
func (p Profile) Has(x string) bool {
	if p == ProfileExtended {
		return true
	}
	_, rest, ok := strings.Cut(string(p), "+")
	return ok && slices.Contains(strings.Split(rest, "+"), x)
}

// Extensions names what ProfileExtended adds to SAEFUZZ, each this
// project's own (README, "Vulnerability profiles"):
//   - cross-reentry: an attacker transaction carries, Config.CrossReentry of
//     the time, a call of another function to make when called back
//     (cross-function reentrancy);
//   - guard-waits: Config.GapHints of the time mutations wait exactly as long
//     as a time or block guard of the last run asked for;
//   - campaigns: Config.Campaigns of the initial seeds are an attacker's
//     campaign (campaignSeed);
//   - fund: the target's balance is raised to Config.Fund (100 ETH) before
//     the seeds run (Ether of earlier users for a second withdrawal to take);
//   - reentry-confirmation: besides SAEFUZZ's evidence (a positive-value
//     call with a read–call–write on one slot), the reentrancy oracle takes
//     the attacker's re-entry using the stale state (Ether sent again, or a
//     slot the caller read changed by the re-entrant frame), which admits
//     zero-value callbacks: ERC-777/721 hooks;
//   - frozen-static: frozen Ether also needs the code to hold no instruction
//     that could send Ether (else a payout the fuzzer did not reach reads
//     as frozen);
//   - stake-constants: a quarter of the Ether values sent are round amounts
//     the code holds as constants (an exact stake, `msg.value == 10 ether`);
//   - exact-values: half of the mutations of a transaction that compared its
//     msg.value or an argument for equality with a value it did not hold
//     send that value (an exact stake, a guess of a number derived from
//     block state; see exactHints);
//   - deploy-block-state: the slots the constructor derived from its block
//     (Target.BlockSlots: an answer drawn from blockhash and now at
//     deployment) carry block state into the taint of every seed;
//   - send-calls: the block-state oracle counts a send or transfer of zero
//     wei as a payout (ContractFuzzer's SendCall; see oracles.payout);
//   - all-candidates: every function the dispatcher routes is a candidate,
//     weighing 1, plus 2 on a critical path, plus 1 when it changes state,
//     and the initial sequences are drawn by weight, with repeats, from one
//     main sender (SAEFUZZ builds sequences from the functions recovered on
//     critical paths only: see initialSequences);
//   - tx-edits: transaction-level mutation also changes the time gap before
//     a transaction, duplicates it or replaces it by a fresh call (SAEFUZZ
//     names sender and value only);
//   - repair: half the mutations aim at a transaction that reverted;
//   - elitism: the best seed survives unchanged in place of the weakest, and
//     offspring identical to a parent are mutated;
//   - unprivileged-delegate: the delegatecall oracle also needs a sender
//     other than the deployer (SAEFUZZ asks only that target or arguments
//     come from transaction input).
//
// campaigns covers both the initial campaign seeds and the sender mutation
// that turns a whole sequence into the attacker's.
var Extensions = []string{"cross-reentry", "guard-waits", "campaigns", "fund", "reentry-confirmation", "frozen-static", "stake-constants", "exact-values", "deploy-block-state", "send-calls",
	"all-candidates", "tx-edits", "repair", "elitism", "unprivileged-delegate"}

// Config is one run's budget and parameters; zero fields take the defaults
// of DefaultConfig.
type Config struct {
	// Profile is saefuzz (the paper; default) or extended (Extensions on).
	// Under saefuzz the shares CrossReentry, GapHints and Campaigns and the
	// Fund are ignored (off).
	Profile      Profile
	Population   int     // seeds per generation
	Generations  int     // fixed number of generations
	MaxTxs       int     // longest initial sequence
	Alpha        float64 // top fraction recombined by crossover
	MutationRate float64 // p_m: chance a seed outside the top fraction is mutated
	// BranchWeight is w in fitness = w·branch coverage + (1−w)·instruction
	// coverage (the paper leaves the weighting open; equal weights by default).
	BranchWeight float64
	GasThreshold uint64 // reentrancy: a CALL must forward more gas than this (2,300: the transfer stipend)
	TxGas        uint64 // gas limit of every generated transaction
	Reentries    int    // times the attacker re-enters per armed call
	// CrossReentry is the chance that an attacker transaction re-enters
	// another function of the target when called back (cross-function
	// reentrancy) rather than its own call; GapHints the chance that a
	// time mutation waits as long as a guard of the last run asked for.
	// Negative: never.
	CrossReentry float64
	GapHints     float64
	// Campaigns is the share of initial seeds that are an attacker's
	// campaign (see campaignSeed). Negative: none.
	Campaigns float64
	Fund      *big.Int // the target's balance is raised to this before the seeds run (Ether of earlier users)
	// Budget guards the machine: a run past it fails (walltime.Error); 0:
	// none. The generations bound the evolution, and gas every transaction.
	Budget   time.Duration
	Ablation Ablation
	Seed     int64
}

// DefaultConfig is the configuration the stage starts from.
func DefaultConfig() Config {
	return Config{
		Profile: ProfileSAEFUZZ, Population: 32, Generations: 30, MaxTxs: 5, Alpha: 0.5, MutationRate: 0.5, BranchWeight: 0.5,
		GasThreshold: 2300, TxGas: 3_000_000, Reentries: 1, CrossReentry: 0.3, GapHints: 0.5, Campaigns: 0.25, Fund: ether(100),
		Ablation: AblationNone,
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.Population < 2 {
		c.Population = d.Population
	}
	if c.Generations <= 0 {
		c.Generations = d.Generations
	}
	if c.MaxTxs <= 0 {
		c.MaxTxs = d.MaxTxs
	}
	if c.Alpha <= 0 || c.Alpha > 1 {
		c.Alpha = d.Alpha
	}
	if c.MutationRate < 0 || c.MutationRate > 1 {
		c.MutationRate = d.MutationRate
	}
	if c.BranchWeight < 0 || c.BranchWeight > 1 {
		c.BranchWeight = d.BranchWeight
	}
	if c.GasThreshold == 0 {
		c.GasThreshold = d.GasThreshold
	}
	if c.TxGas == 0 {
		c.TxGas = d.TxGas
	}
	if c.Reentries <= 0 {
		c.Reentries = d.Reentries
	}
	if c.CrossReentry == 0 || c.CrossReentry > 1 {
		c.CrossReentry = d.CrossReentry
	}
	if c.GapHints == 0 || c.GapHints > 1 {
		c.GapHints = d.GapHints
	}
	if c.Campaigns == 0 || c.Campaigns > 1 {
		c.Campaigns = d.Campaigns
	}
	if c.Fund == nil {
		c.Fund = d.Fund
	}
	if c.Ablation == "" {
		c.Ablation = AblationNone
	}
	if c.Profile == "" {
		c.Profile = d.Profile
	}
	// SAEFUZZ's seeding and deployment: none of our seed strategies, no
	// top-up, unless the profile names them.
	if !c.has("cross-reentry") {
		c.CrossReentry = -1
	}
	if !c.has("guard-waits") {
		c.GapHints = -1
	}
	if !c.has("campaigns") {
		c.Campaigns = -1
	}
	if !c.has("fund") {
		c.Fund = new(big.Int)
	}
	return c
}

// has reports whether the run has extension x of Extensions on.
func (c Config) has(x string) bool { return c.Profile.Has(x) }

func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

// Target is one deployed contract to analyse.
type Target struct {
	Chain    *chain.Harness // the state right after deployment; Run never modifies it
	Address  common.Address
	Deployer common.Address // the privileged account (owner-only code runs for it)
	ABI      []byte         // the contract's ABI JSON
	Block    chain.Block    // the deployment's block; transactions run after it
	// BlockSlots are storage slots whose value after the constructor
	// depends on the deployment's block (see DeployStandalone); nil when
	// unknown.
	BlockSlots []uint256.Int
	// Deployment says how a standalone deployment departed from the plain
	// one ("" when it did not): the code-size limit lifted, constructor
	// arguments the fuzzer chose.
	Deployment string
}

// Report is the outcome of one run.
type Report struct {
	Findings []Finding
	// Sites are the distinct places the oracles fired, over every seed
	// (Findings keeps the first seed per class); per-bug recall maps them
	// to source lines.
	Sites []Site
	// Instructions and Branches are the denominators of coverage: the
	// instruction positions of the runtime code (metadata excluded) and
	// twice its JUMPIs; the covered counts are over all seeds.
	Instructions, InstructionsCovered int
	Branches, BranchesCovered         int
	// TestCases counts the generated transactions executed, ValidTestCases
	// those that succeeded (did not revert or fail).
	TestCases, ValidTestCases int
	Seeds, Generations        int
	Candidates                int  // functions sequences draw from
	StaticGuided              bool // stage 1 recovered the dispatcher (else every ABI function is a candidate)
	Elapsed                   time.Duration
}

// InstructionCoverage is the share of instruction positions executed.
func (r *Report) InstructionCoverage() float64 { return ratio(r.InstructionsCovered, r.Instructions) }

// BranchCoverage is the share of JUMPI outcomes reached.
func (r *Report) BranchCoverage() float64 { return ratio(r.BranchesCovered, r.Branches) }

// ValidRatio is the share of generated transactions that succeeded.
func (r *Report) ValidRatio() float64 { return ratio(r.ValidTestCases, r.TestCases) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// ErrNoCode is returned when the target address holds no code.
var ErrNoCode = errors.New("vuln: target has no code")

// actor is an account sequences send from.
type actor struct {
	name string
	from common.Address
	via  *common.Address // the attacker contract the transaction goes through
}

// Fixed accounts of every run.
var (
	UserA           = common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	UserB           = common.HexToAddress("0x0000000000000000000000000000000000000b0b")
	AttackerEOA     = common.HexToAddress("0x00000000000000000000000000000000ba5eba11")
	AttackerAddress = common.HexToAddress("0x000000000000000000000000000000000000a77a")
)

// engine is one run over one target.
type engine struct {
	cfg    Config
	target Target
	gen    *fuzz.Generator
	tr     *tracer
	traced *chain.Harness // post-deployment state with the attacker, traced

	actors     []actor
	attackerIx int
	candidates []*candidate
	ordered    bool // sequences keep the storage-dependency order
	directed   bool // evolution on (not the random ablation)

	instructions, branches int
	sendSites              int // CALL, CALLCODE, DELEGATECALL and SELFDESTRUCT instructions of the code
	// exitSites counts the blocks holding an instruction through which
	// Ether can leave: a CALL whose value is not the constant 0 in its
	// block, CALLCODE, DELEGATECALL (the delegated code runs with the
	// target's balance) or SELFDESTRUCT. Frozen Ether needs there to be none.
	exitSites int
	total     *coverage
	stakes    []uint256.Int   // round Ether amounts among the code's constants (extension stake-constants)
	selectors map[uint32]bool // the ABI's function selectors (exact-values leaves the dispatcher's out)
	report    Report
	oracles   *oracles
}

// Run analyses one target: sequence extraction, seed evolution and the five
// oracles. A cancelled context or a run past Config.Budget is an error
// (walltime.Error for the budget), never a report of the seeds that ran.
func Run(ctx context.Context, t Target, cfg Config) (*Report, error) {
	start := time.Now()
	e, err := newEngine(t, cfg.withDefaults())
	if err != nil {
		return nil, err
	}
	if err := e.evolve(ctx, start); err != nil {
		return nil, err
	}
	e.finish()
	e.report.Elapsed = time.Since(start)
	return &e.report, nil
}

func newEngine(t Target, cfg Config) (*engine, error) {
	code := t.Chain.Code(t.Address)
	if len(code) == 0 {
		return nil, ErrNoCode
	}
	parsed, err := abi.JSON(bytes.NewReader(t.ABI))
	if err != nil {
		return nil, fmt.Errorf("vuln: ABI: %w", err)
	}
	e := &engine{cfg: cfg, target: t, directed: cfg.Ablation != AblationRandom, selectors: map[uint32]bool{}}
	for _, m := range parsed.Methods {
		e.selectors[binary.BigEndian.Uint32(m.ID)] = true
	}
	e.setupActors(t)
	cfgGraph := bytecode.BuildCFG(code)
	e.instructions = len(cfgGraph.Instrs)
	for _, in := range cfgGraph.Instrs {
		switch in.Op {
		case vm.JUMPI:
			e.branches += 2
		case vm.CALL, vm.CALLCODE, vm.DELEGATECALL, vm.SELFDESTRUCT:
			e.sendSites++
		}
	}
	for _, b := range cfgGraph.Blocks {
		e.exitSites += len(b.Critical) - countOps(b.Critical, vm.ADD, vm.SUB, vm.MUL, vm.DIV, vm.MOD, vm.EXP, vm.TIMESTAMP, vm.NUMBER)
	}
	e.candidates, e.ordered = e.buildCandidates(cfgGraph, parsed, t.ABI)
	if len(e.candidates) == 0 {
		return nil, fmt.Errorf("vuln: the ABI offers no callable function")
	}
	e.report = Report{Instructions: e.instructions, Branches: e.branches, Candidates: len(e.candidates), StaticGuided: e.ordered}
	dict := e.dictionary(code)
	e.stakes = stakes(dict.Words())
	e.gen = fuzz.NewGenerator(uint64(cfg.Seed), dict)
	e.tr = newTracer(t.Address, len(code))
	if cfg.has("deploy-block-state") {
		e.tr.deploySlots = t.BlockSlots
	}
	e.total = newCoverage(len(code))
	e.oracles = newOracles(e)
	e.traced = e.prepare(t)
	return e, nil
}

// countOps counts the entries of ops that are one of of.
func countOps(ops []vm.OpCode, of ...vm.OpCode) int {
	n := 0
	for _, op := range ops {
		for _, o := range of {
			if op == o {
				n++
				break
			}
		}
	}
	return n
}

func (e *engine) setupActors(t Target) {
	attacker := AttackerAddress
	e.actors = []actor{
		{name: "deployer", from: t.Deployer},
		{name: "user_a", from: UserA},
		{name: "user_b", from: UserB},
		{name: "attacker", from: AttackerEOA, via: &attacker},
	}
	e.attackerIx = 3
}

// prepare forks the deployment, installs the attacker (and the stub
// contract, where the deployment has none), funds the target and attaches
// the tracer.
func (e *engine) prepare(t Target) *chain.Harness {
	base := t.Chain.Fork()
	base.SetCode(AttackerAddress, attackerCode(t.Address, e.cfg.Reentries))
	if len(base.Code(StubAddress)) == 0 {
		base.SetCode(StubAddress, []byte{0x00})
	}
	if base.Balance(t.Address).Cmp(e.cfg.Fund) < 0 {
		base.SetBalance(t.Address, e.cfg.Fund)
	}
	return base.WithOptions(chain.Options{Hooks: e.tr.hooks()})
}

// stakes are the constants that read as a stake: a positive multiple of
// 0.001 Ether, at most 1,000 Ether (extension stake-constants).
func stakes(words []uint256.Int) []uint256.Int {
	finney, most := uint256.NewInt(1e15), new(uint256.Int).Mul(uint256.NewInt(1000), uint256.NewInt(1e18))
	var out []uint256.Int
	for _, w := range words {
		if !w.IsZero() && !w.Gt(most) && new(uint256.Int).Mod(&w, finney).IsZero() {
			out = append(out, w)
		}
	}
	return out
}

// dictionary seeds the value generator with the code's constants and the
// run's accounts.
func (e *engine) dictionary(code []byte) *fuzz.Dictionary {
	d := fuzz.NewDictionary()
	for _, a := range e.actors {
		d.AddAddress(a.from)
	}
	d.AddAddress(AttackerAddress)
	d.AddAddress(StubAddress)
	d.AddAddress(e.target.Address)
	body, _ := bytecode.SplitMetadata(code)
	d.AddBytecode(body)
	return d
}

// buildCandidates is stage 1's output as the evolution uses it: under
// saefuzz the functions recovered on critical paths (SAEFUZZ §3), drawn
// alike and ranked by storage dependency; under extended (all-candidates)
// every function the dispatcher routes, weighted by critical paths. Without
// static guidance (or when the dispatcher yields nothing, or no routed
// function is on a critical path) every ABI function is a candidate,
// unranked.
func (e *engine) buildCandidates(g *bytecode.CFG, parsed abi.ABI, abiJSON []byte) ([]*candidate, bool) {
	fallback := fallbackCandidate(parsed)
	if e.cfg.Ablation != AblationNoStatic {
		if fns, err := bytecode.RecoverFunctions(g, abiJSON); err == nil {
			if cands := rankedCandidates(bytecode.CandidateOrder(fns), parsed, e.cfg.has("all-candidates")); len(cands) > 0 {
				if fallback != nil {
					// The dispatcher walk does not explore the fallback: assume it
					// writes (paper silent: no PUSH4 routes it; a candidate in both
					// profiles).
					fallback.rank, fallback.weight = rank(false, 2), 1
					if e.cfg.has("all-candidates") {
						fallback.weight = 2
					}
					cands = append(cands, fallback)
				}
				return cands, true
			}
		}
	}
	var cands []*candidate
	for _, name := range slices.Sorted(maps.Keys(parsed.Methods)) {
		m := parsed.Methods[name]
		if !supported(m) {
			continue
		}
		cands = append(cands, &candidate{method: &m, name: m.Sig, payable: m.IsPayable(), readOnly: m.IsConstant(), weight: 1})
	}
	if fallback != nil {
		fallback.weight = 1
		cands = append(cands, fallback)
	}
	return cands, false
}

// rankedCandidates turns the routed functions into candidates: all of them
// weighted by critical paths (allCandidates, extension all-candidates), else
// only those on a critical path, drawn alike.
func rankedCandidates(fns []bytecode.Function, parsed abi.ABI, allCandidates bool) []*candidate {
	var out []*candidate
	for _, fn := range fns {
		m, ok := methodBySelector(parsed, fn.Selector)
		if !ok || !supported(m) || !allCandidates && fn.CriticalPaths == 0 {
			continue
		}
		c := &candidate{method: &m, name: m.Sig, payable: fn.Payable, readOnly: fn.ReadOnly, weight: 1}
		c.rank = rank(fn.ReadOnly, fn.StorageScore)
		if !allCandidates {
			out = append(out, c)
			continue
		}
		if fn.CriticalPaths > 0 {
			c.weight += 2
		}
		if !fn.ReadOnly {
			c.weight++
		}
		out = append(out, c)
	}
	return out
}

// rank is a candidate's place in a sequence: state-changing functions
// before read-only ones, then SAEFUZZ's storage score (SSTORE 2 before
// SLOAD 1).
func rank(readOnly bool, storageScore int) int {
	r := storageScore
	if !readOnly {
		r += 10
	}
	return r
}

func methodBySelector(parsed abi.ABI, sel [4]byte) (abi.Method, bool) {
	for _, m := range parsed.Methods {
		if bytes.Equal(m.ID, sel[:]) {
			return m, true
		}
	}
	return abi.Method{}, false
}

func supported(m abi.Method) bool {
	for _, in := range m.Inputs {
		if !fuzz.Supported(in.Type) {
			return false
		}
	}
	return true
}

// fallbackCandidate is the fallback or receive function, when the ABI has one.
func fallbackCandidate(parsed abi.ABI) *candidate {
	hasFallback := parsed.HasFallback()
	hasReceive := parsed.HasReceive()
	if !hasFallback && !hasReceive {
		return nil
	}
	payable := hasReceive || (hasFallback && parsed.Fallback.IsPayable())
	return &candidate{name: "fallback", payable: payable}
}
