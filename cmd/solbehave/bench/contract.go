package bench

import (
	"fmt"
	"slices"
	"time"

	"github.com/solbehave/solbehave/internal/chain"
)

// Engines the replay is timed on.
const (
	engineBare     = "bare"          // core.ApplyMessage, nothing recorded: the floor
	engineOurs     = "ours"          // internal/chain via deploy.Replay, every Result kept
	engineO2       = "ours_o2engine" // the O2 comparison engine (digests of logs, storage, return data)
	engineCoverage = "ours_coverage" // ours with instruction and branch coverage
	engineHardhat  = "hardhat"       // Hardhat 2's in-process EDR network
	engineMainnet  = "mainnet"       // the recorded statuses (not an engine: the reference)
)

// goEngines are ours and its variants, which the floor and Hardhat are set against.
var goEngines = []string{engineOurs, engineO2, engineCoverage}

// contractRun is every raw measurement of one contract.
type contractRun struct {
	ID, Name, Compiler     string
	Hardfork, LastHardfork string // Hardhat's rules for the run; mainnet's at the last transaction
	Txs                    int
	Skip                   string // why the contract was not replayed

	Times    map[string][]timing // engine -> replay time per run
	Statuses map[string][]string // engine -> status per transaction (first run)
	Unstable []string            // engines whose statuses changed between runs
	Recorded []string            // mainnet's statuses
	Hashes   []string            // of the replayed transactions
	Blocks   []chain.Block

	OursResults    []*chain.Result // first run of ours: gas and reasons for the findings
	HardhatGas     []uint64
	HardhatReasons []string
	HardhatErr     string
	HardhatStartup time.Duration
	HardhatRSS     int64

	CompileFirst time.Duration   // first compile of the original (worker start when the version is new)
	CompileWarm  []time.Duration // persistent worker, one per spawned compile
	CompileSpawn []time.Duration // one Node process each
	CompileErr   string

	SampleCompile time.Duration // generating and compiling the k mutant samples
	// SampleCompileEstimated: fewer than k were compiled; SampleCompile is k times their mean.
	SampleCompileEstimated bool
	SamplesFailed          int // mutants that did not compile
	SampleErr              string

	O2Stage       []time.Duration // the o2 stage over the contract, per run
	O2Err         string
	O3Stage       []time.Duration // dcr + sequences + o3 over the contract, per run
	SeqStage      []time.Duration // the sequences stage alone (Algorithm 1 on the original), per run
	SeqCalls      int             // calls Algorithm 1 executed (sequence_calls rows), first run
	O3Err         string
	O1Calls       []int
	O1Time        []time.Duration
	O1Functions   int
	O1Err         string
	O1Divergences int

	Mem  memPoint      // after this contract
	Wall time.Duration // since the bench started, after this contract
}

// record keeps one run of an engine; the first run's statuses are the ones
// compared, and later runs must repeat them.
func (cr *contractRun) record(engine string, statuses []string, elapsed timing) {
	if cr.Times == nil {
		cr.Times = map[string][]timing{}
	}
	if cr.Statuses == nil {
		cr.Statuses = map[string][]string{}
	}
	cr.Times[engine] = append(cr.Times[engine], elapsed)
	prev, seen := cr.Statuses[engine]
	switch {
	case !seen:
		cr.Statuses[engine] = statuses
	case !slices.Equal(prev, statuses) && !slices.Contains(cr.Unstable, engine):
		cr.Unstable = append(cr.Unstable, engine)
	}
}

// replayed says whether the engine replayed the contract in every run.
func (cr *contractRun) replayed(engine string, runs int) bool {
	return cr.Skip == "" && len(cr.Times[engine]) == runs && len(cr.Statuses[engine]) == cr.Txs
}

// rates are the engine's transactions per second of wall time, run by run.
func (cr *contractRun) rates(engine string) []float64 {
	out := make([]float64, len(cr.Times[engine]))
	for i, t := range cr.Times[engine] {
		out[i] = rate(cr.Txs, t.Wall)
	}
	return out
}

// mismatches lists the transactions where engines a and b disagree on status.
func (cr *contractRun) mismatches(a, b string) []int {
	sa, sb := cr.statuses(a), cr.statuses(b)
	if len(sa) != cr.Txs || len(sb) != cr.Txs {
		return nil
	}
	var out []int
	for i := range sa {
		if sa[i] != sb[i] {
			out = append(out, i)
		}
	}
	return out
}

func (cr *contractRun) statuses(engine string) []string {
	if engine == engineMainnet {
		return cr.Recorded
	}
	return cr.Statuses[engine]
}

func (cr *contractRun) summary() string {
	if cr.Skip != "" {
		return cr.ID + ": skipped: " + cr.Skip
	}
	s := fmt.Sprintf("%s: %d txs, bare %.0f tx/s, ours %.0f tx/s", cr.ID, cr.Txs,
		median(cr.rates(engineBare)), median(cr.rates(engineOurs)))
	if hh := cr.rates(engineHardhat); len(hh) > 0 {
		s += fmt.Sprintf(", hardhat %.0f tx/s (ours %.1fx), %d status differences", median(hh),
			median(ratios(cr.rates(engineOurs), hh)), len(cr.mismatches(engineOurs, engineHardhat)))
	} else if cr.HardhatErr != "" {
		s += ", hardhat failed: " + firstLine(cr.HardhatErr)
	}
	return s
}

// rulesAt is mainnet's hardfork at replayed transaction i.
func (cr *contractRun) rulesAt(i int) string {
	if i < len(cr.Blocks) {
		return hardforkAt(cr.Blocks[i])
	}
	return ""
}

// failureText says why a harness call failed; "" when it succeeded.
func failureText(res *chain.Result) string {
	switch {
	case res.Success:
		return ""
	case res.RevertReason != "":
		return res.RevertReason
	case res.Err != nil:
		return res.Err.Error()
	default:
		return "failed"
	}
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}
