package schemas

import _ "embed"

//go:embed contracts.md
var contractsDoc string

// Contract is one row of the `contracts` dataset: one corpus contract, what
// its verified source declares, how the original compiled, and whether it
// passed the benchmark's admission filters (solbehave paper §IV-A).
type Contract struct {
	ContractID           string `parquet:"contract_id"`
	Address              string `parquet:"address"`
	Name                 string `parquet:"name"`
	CompilerRequested    string `parquet:"compiler_requested"`
	CompilerUsed         string `parquet:"compiler_used"`
	Optimizer            bool   `parquet:"optimizer"`
	Runs                 int64  `parquet:"runs"`
	NFunctions           int64  `parquet:"n_functions"`
	NStateChangingABI    int64  `parquet:"n_state_changing_abi"`
	NNontrivialFunctions int64  `parquet:"n_nontrivial_functions"`
	SizeBucket           string `parquet:"size_bucket"`
	SourceSHA256         string `parquet:"source_sha256"`
	NTransactions        int64  `parquet:"n_transactions"`
	Kept                 bool   `parquet:"kept"`
	Reason               string `parquet:"reason"`
}

// SizeBucket is the Figure 2 bin of a contract with n non-trivial functions:
// "0", "1-5", "6-10", "11-20", "21-30" or "31+" (ASCII hyphens).
func SizeBucket(n int64) string {
	switch {
	case n <= 0:
		return "0"
	case n <= 5:
		return "1-5"
	case n <= 10:
		return "6-10"
	case n <= 20:
		return "11-20"
	case n <= 30:
		return "21-30"
	default:
		return "31+"
	}
}

// Contracts is the contracts dataset: rows of Contract.
var Contracts = Define[Contract](Dataset{
	Name:       "contracts",
	Partitions: []string{"contract"},
	Doc:        contractsDoc,
})
