package fuzz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/schemas"
)

// The paper's budget (solbehave §IV-C, following SolBench): 10,000 calls,
// sequences of 20, 120 s per function. A verdict may depend on the inputs
// and the seed only, so the 120 s become a gas budget: the gas both
// deployments' calls may burn, about 120 s of fuzzing calls that run out of
// their 8M gas on a loaded two-core machine (a campaign of ordinary calls
// uses a tenth of it). The clock only guards the machine: a campaign past
// DefaultTimeout fails (walltime.Error); it never ends as a result.
const (
	DefaultCalls     = 10_000
	DefaultSeqLen    = 20
	DefaultGasBudget = 10_000_000_000
	DefaultTimeout   = 10 * time.Minute
	// DefaultGas is each call's gas limit: Echidna's per-transaction limit
	// (testMaxGas), so a call whose arguments drive an unbounded loop runs
	// out of gas at 8M rather than burning a whole 30M block each time.
	DefaultGas = 8_000_030
	// DefaultShrinkRuns bounds the replays spent shrinking one counterexample.
	DefaultShrinkRuns = 2_000
)

// Why a campaign stopped.
const (
	StopBudget         = "budget"         // every call of the budget ran, no disagreement
	StopGasBudget      = "gas_budget"     // the calls burnt the gas budget first, no disagreement
	StopCounterexample = "counterexample" // the deployments disagreed, and the shrunk sequence replays the disagreement
)

// Target is one deployment: the state right after its creation (never run
// on: the fuzzer forks it) and the contract's address.
type Target struct {
	Chain   *chain.Harness
	Address common.Address
}

// Config is one campaign's budget and context.
type Config struct {
	Calls   int           // call pairs; 0: DefaultCalls
	SeqLen  int           // calls between resets to the fresh deployment; 0: DefaultSeqLen
	Timeout time.Duration // wall clock for the campaign: past it Differential fails (walltime.Error); 0: DefaultTimeout
	Gas     uint64        // gas limit of every call; 0: DefaultGas
	// GasBudget bounds the gas the calls use on both deployments together,
	// fuzzing and shrinking each; 0: DefaultGasBudget.
	GasBudget  uint64
	ShrinkRuns int // 0: DefaultShrinkRuns
	Seed       uint64
	Sender     common.Address // every call's sender (the deployer, so owner-only code runs)
	// Block is the deployment's block; each sequence runs in one block at or
	// after it (see blockFor).
	Block      chain.Block
	Dictionary *Dictionary // nil: empty
	// Unguided turns coverage feedback off (every input is fresh): for
	// measuring what the guidance buys, not for results.
	Unguided bool
	// NoMemo runs every call, even one a side is known to answer alike
	// (see callMemo): for measuring what the memo saves; reports are the
	// same either way.
	NoMemo bool
}

func (c Config) withDefaults() Config {
	if c.Calls <= 0 {
		c.Calls = DefaultCalls
	}
	if c.SeqLen <= 0 {
		c.SeqLen = DefaultSeqLen
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.ShrinkRuns <= 0 {
		c.ShrinkRuns = DefaultShrinkRuns
	}
	if c.Gas == 0 {
		c.Gas = DefaultGas
	}
	if c.GasBudget == 0 {
		c.GasBudget = DefaultGasBudget
	}
	return c
}

// Call is one fuzzed call: arguments, msg.value, and the block it runs in.
type Call struct {
	Args  Tuple
	Value uint256.Int
	Block chain.Block
}

// Outcome is what one deployment did with a call.
type Outcome struct {
	Success      bool
	Fault        bool // the harness could not run the call (a panic, a message no block could include)
	ReturnData   []byte
	RevertReason string
	Err          string // the VM error or the harness fault; "" on success
	GasUsed      uint64
}

// Status is the outcome in the replay oracles' terms: "success", "revert"
// (any failed execution: revert, invalid opcode, out of gas) or "error"
// (a harness fault).
func (o Outcome) Status() schemas.CallStatus {
	switch {
	case o.Success:
		return schemas.StatusSuccess
	case o.Fault:
		return schemas.StatusError
	}
	return schemas.StatusRevert
}

// Step is a call and both outcomes.
type Step struct {
	Call
	Ref, Sample Outcome
}

// Diverges reports whether the two deployments disagree on the step: on
// status, or on return data when both succeeded.
func (s Step) Diverges() bool {
	if s.Ref.Success != s.Sample.Success || s.Ref.Fault != s.Sample.Fault {
		return true
	}
	return s.Ref.Success && !bytes.Equal(s.Ref.ReturnData, s.Sample.ReturnData)
}

// Counterexample is a shrunk disagreement: a sequence of calls from the
// fresh deployments whose last step diverges (and no earlier one does), as
// a replay from the fresh deployments ran it.
type Counterexample struct {
	Steps      []Step
	Found      int // length of the sequence as the fuzzer found it
	ShrinkRuns int // replays the shrinking took
}

// CoverageStats is what one deployment reached over a campaign, in every
// bytecode it ran (its own and any library's).
type CoverageStats struct {
	Instructions int // distinct program counters
	Branches     int // distinct JUMPI outcomes (taken or not)
}

// Report is a finished campaign on one function.
type Report struct {
	Function       string // signature, e.g. withdraw(uint256)
	Equivalent     bool   // no disagreement within the budget
	Calls          int    // call pairs run (shrinking not counted)
	GasUsed        uint64 // by those calls, on both deployments
	Elapsed        time.Duration
	CoverageRef    CoverageStats
	CoverageSample CoverageStats
	Corpus         int // inputs kept for reaching new coverage
	StopReason     string
	Counterexample *Counterexample // nil when equivalent
	// Unconfirmed counts disagreements seen while fuzzing that a replay from
	// the fresh deployments did not reproduce; fuzzing went on past them.
	// Non-zero means something other than the inputs decided an outcome.
	Unconfirmed int
	// Memoised counts the calls (on either deployment) answered from the
	// memo instead of run: a cost figure, the rest of the report is the
	// same without it.
	Memoised int
}

// Differential fuzzes function m on two deployments of the same contract
// (the original and a sample) with identical calls, and reports the first
// disagreement that a replay from the fresh deployments reproduces, shrunk,
// or equivalence over the whole call budget. m's inputs must be Primitive.
// The error is for misuse, cancellation and the wall-clock limit
// (walltime.Error); a deployment that misbehaves is a result.
func Differential(ctx context.Context, ref, sample Target, m abi.Method, cfg Config) (*Report, error) {
	if !Fuzzable(m) {
		return nil, fmt.Errorf("fuzz: %s is not fuzzable (state-changing with primitive inputs)", m.Sig)
	}
	if ref.Chain == nil || sample.Chain == nil {
		return nil, errors.New("fuzz: a target has no chain")
	}
	c := newCampaign(ref, sample, m, cfg.withDefaults())
	if err := c.run(ctx); err != nil {
		return nil, err
	}
	return c.report(), nil
}
