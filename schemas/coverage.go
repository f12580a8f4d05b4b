package schemas

import _ "embed"

//go:embed coverage.md
var coverageDoc string

// FunctionCoverage is one row of the `coverage` dataset: how often an oracle
// called one state-changing function of an original, and how often the call
// succeeded there (solbehave paper §V-E, Table IV).
type FunctionCoverage struct {
	Oracle       string `parquet:"oracle"`
	GraphSetting string `parquet:"graph_setting"`
	Profile      string `parquet:"profile"`
	ContractID   string `parquet:"contract_id"`
	Model        string `parquet:"model"`
	Function     string `parquet:"function"`
	Selector     string `parquet:"selector"`
	Calls        int64  `parquet:"calls"`
	Successes    int64  `parquet:"successes"`
}

// Coverage is the coverage dataset: rows of FunctionCoverage.
var Coverage = Define[FunctionCoverage](Dataset{Name: "coverage", Partitions: []string{"contract"}, Doc: coverageDoc})
