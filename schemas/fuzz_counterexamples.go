package schemas

import _ "embed"

//go:embed fuzz_counterexamples.md
var fuzzCounterexamplesDoc string

// FuzzCounterexample is one row of the `fuzz_counterexamples` dataset: one
// call of the shrunk sequence with which O1 showed a function non-equivalent,
// with both deployments' outcomes (solbehave paper §IV-C).
type FuzzCounterexample struct {
	ContractID         string     `parquet:"contract_id"`
	Model              string     `parquet:"model"`
	Sample             int64      `parquet:"sample"`
	Function           string     `parquet:"function"`
	Selector           string     `parquet:"selector"`
	Step               int64      `parquet:"step"`
	Steps              int64      `parquet:"steps"`
	Args               string     `parquet:"args"`
	CallData           string     `parquet:"call_data"`
	Sender             string     `parquet:"sender"`
	ValueWei           string     `parquet:"value_wei"`
	BlockNumber        int64      `parquet:"block_number"`
	BlockTime          int64      `parquet:"block_time"`
	StatusRef          CallStatus `parquet:"status_ref"`
	StatusSample       CallStatus `parquet:"status_sample"`
	ReturnRef          string     `parquet:"return_ref"`
	ReturnSample       string     `parquet:"return_sample"`
	RevertReasonRef    string     `parquet:"revert_reason_ref"`
	RevertReasonSample string     `parquet:"revert_reason_sample"`
	Diverges           bool       `parquet:"diverges"`
}

// FuzzCounterexamples is the fuzz_counterexamples dataset: rows of FuzzCounterexample.
var FuzzCounterexamples = Define[FuzzCounterexample](Dataset{Name: "fuzz_counterexamples", Partitions: []string{"contract"},
	Doc: fuzzCounterexamplesDoc})
