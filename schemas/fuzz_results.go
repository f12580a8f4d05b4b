package schemas

import _ "embed"

//go:embed fuzz_results.md
var fuzzResultsDoc string

// FuzzResult is one row of the `fuzz_results` dataset: one fuzzable function
// of an original fuzzed differentially against one compiling sample
// (solbehave paper §IV-C, oracle O1).
type FuzzResult struct {
	ContractID          string `parquet:"contract_id"`
	Model               string `parquet:"model"`
	Sample              int64  `parquet:"sample"`
	Function            string `parquet:"function"`
	Signature           string `parquet:"signature"`
	Selector            string `parquet:"selector"`
	Payable             bool   `parquet:"payable"`
	Equivalent          bool   `parquet:"equivalent"`
	Calls               int64  `parquet:"calls"`
	ElapsedMS           int64  `parquet:"elapsed_ms"`
	CoverageRef         int64  `parquet:"coverage_ref"`
	CoverageSample      int64  `parquet:"coverage_sample"`
	BranchesRef         int64  `parquet:"branches_ref"`
	BranchesSample      int64  `parquet:"branches_sample"`
	Corpus              int64  `parquet:"corpus"`
	StopReason          string `parquet:"stop_reason"`
	CounterexampleSteps int64  `parquet:"counterexample_steps"`
	FoundSteps          int64  `parquet:"found_steps"`
	ShrinkRuns          int64  `parquet:"shrink_runs"`
	Seed                int64  `parquet:"seed"`
	Error               string `parquet:"error"`
}

// Stop reasons of an O1 campaign besides the fuzzer's own (budget,
// gas_budget, counterexample).
const (
	// StopUndeployed: the sample compiled but could not be deployed, so
	// every fuzzable function counts as non-equivalent without a call.
	StopUndeployed = "undeployed"
	// StopSameCode: the sample's deployment equals the original's but for
	// the metadata tails, so every fuzzable function is equivalent without
	// a call.
	StopSameCode = "same_code"
	// StopMissing: the sample has no function with the original's
	// selector (deleted, renamed, parameters changed) or it returns other
	// types, so the function is non-equivalent without a call.
	StopMissing = "missing"
)

// FuzzResults is the fuzz_results dataset: rows of FuzzResult.
var FuzzResults = Define[FuzzResult](Dataset{Name: "fuzz_results", Partitions: []string{"contract"},
	Volatile: []string{"elapsed_ms"}, Doc: fuzzResultsDoc})
