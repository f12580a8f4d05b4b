package schemas

import _ "embed"

//go:embed vuln_runs.md
var vulnRunsDoc string

// VulnRun is one row of the `vuln_runs` dataset: one run of the SAEFUZZ-style
// vulnerability detector on one contract (a labelled benchmark file, an
// original or a sample) under one ablation.
type VulnRun struct {
	ContractID           string  `parquet:"contract_id"`
	Subject              string  `parquet:"subject"`
	Model                string  `parquet:"model"`
	Sample               int64   `parquet:"sample"`
	Ablation             string  `parquet:"ablation"`
	Profile              string  `parquet:"profile"`
	File                 string  `parquet:"file"`
	Target               string  `parquet:"target"`
	CompilerRequested    string  `parquet:"compiler_requested"`
	CompilerUsed         string  `parquet:"compiler_used"`
	CompilerSubstitution string  `parquet:"compiler_substitution"`
	Deployment           string  `parquet:"deployment"`
	Status               string  `parquet:"status"`
	Error                string  `parquet:"error"`
	Candidates           int64   `parquet:"candidates"`
	StaticGuided         bool    `parquet:"static_guided"`
	Instructions         int64   `parquet:"instructions"`
	InstructionsCovered  int64   `parquet:"instructions_covered"`
	InstructionCoverage  float64 `parquet:"instruction_coverage"`
	Branches             int64   `parquet:"branches"`
	BranchesCovered      int64   `parquet:"branches_covered"`
	BranchCoverage       float64 `parquet:"branch_coverage"`
	TestCases            int64   `parquet:"test_cases"`
	ValidTestCases       int64   `parquet:"valid_test_cases"`
	ValidRatio           float64 `parquet:"valid_ratio"`
	Seeds                int64   `parquet:"seeds"`
	Generations          int64   `parquet:"generations"`
	Findings             int64   `parquet:"findings"`
	Classes              string  `parquet:"classes"`
	ElapsedMS            int64   `parquet:"elapsed_ms"`
}

// VulnRuns is the vuln_runs dataset: rows of VulnRun.
var VulnRuns = Define[VulnRun](Dataset{Name: "vuln_runs", Partitions: []string{"contract"},
	Volatile: []string{"elapsed_ms"}, Doc: vulnRunsDoc})
