package schemas

import _ "embed"

//go:embed samples.md
var samplesDoc string

// Sample is one row of the `samples` dataset: one regenerated contract (k
// per contract and model) and whether it compiled (solbehave paper §IV-B).
type Sample struct {
	ContractID          string  `parquet:"contract_id"`
	Model               string  `parquet:"model"`
	Sample              int64   `parquet:"sample"`
	Generator           string  `parquet:"generator"`
	CompiledRaw         bool    `parquet:"compiled_raw"`
	RepairAttempted     bool    `parquet:"repair_attempted"`
	CompiledRepaired    bool    `parquet:"compiled_repaired"`
	Error               string  `parquet:"error"`
	CompilerUsed        string  `parquet:"compiler_used"`
	SourcePath          string  `parquet:"source_path"`
	SourceSHA256        string  `parquet:"source_sha256"`
	FilesPath           string  `parquet:"files_path"`
	Artifact            string  `parquet:"artifact"`
	CreationCodeSHA256  string  `parquet:"creation_code_sha256"`
	Mutations           string  `parquet:"mutations"`
	NMutated            int64   `parquet:"n_mutated"`
	FunctionsGenerated  int64   `parquet:"functions_generated"`
	FunctionsFailed     int64   `parquet:"functions_failed"`
	GenerationMS        int64   `parquet:"generation_ms"`
	RawError            string  `parquet:"raw_error"`
	RepairMS            int64   `parquet:"repair_ms"`
	CompileMS           int64   `parquet:"compile_ms"`
	RecompileMS         int64   `parquet:"recompile_ms"`
	CompileSolcStarts   int64   `parquet:"compile_solc_starts"`
	CompileSolcYouth    float64 `parquet:"compile_solc_youth"`
	RecompileSolcStarts int64   `parquet:"recompile_solc_starts"`
	RecompileSolcYouth  float64 `parquet:"recompile_solc_youth"`
	Ablation            bool    `parquet:"ablation"`
}

// Samples is the samples dataset: rows of Sample.
var Samples = Define[Sample](Dataset{Name: "samples", Partitions: []string{"contract"},
	Volatile: []string{"generation_ms", "repair_ms", "compile_ms", "recompile_ms",
		"compile_solc_starts", "compile_solc_youth", "recompile_solc_starts", "recompile_solc_youth"}, Pointers: []string{"artifact"}, Doc: samplesDoc})
