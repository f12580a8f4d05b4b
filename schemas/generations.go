package schemas

import _ "embed"

//go:embed generations.md
var generationsDoc string

// Generation is one row of the `generations` dataset: one sample as a
// generator wrote it, before compilation (solbehave paper §IV-B). The
// compile stage turns each into a `samples` row.
type Generation struct {
	ContractID         string `parquet:"contract_id"`
	Model              string `parquet:"model"`
	Sample             int64  `parquet:"sample"`
	Generator          string `parquet:"generator"`
	Seed               int64  `parquet:"seed"`
	SourcePath         string `parquet:"source_path"`
	FilesPath          string `parquet:"files_path"`
	SourceSHA256       string `parquet:"source_sha256"`
	SkeletonSHA256     string `parquet:"skeleton_sha256"`
	Mutations          string `parquet:"mutations"`
	NMutated           int64  `parquet:"n_mutated"`
	FunctionsGenerated int64  `parquet:"functions_generated"`
	FunctionsFailed    int64  `parquet:"functions_failed"`
	LLMCalls           int64  `parquet:"llm_calls"`
	TokensIn           *int64 `parquet:"tokens_in,optional"`
	TokensOut          *int64 `parquet:"tokens_out,optional"`
	Error              string `parquet:"error"`
	Failure            string `parquet:"failure"`
	Ablation           bool   `parquet:"ablation"`
	GenerationMS       int64  `parquet:"generation_ms"`
}

// Generations is the generations dataset: rows of Generation.
var Generations = Define[Generation](Dataset{Name: "generations", Partitions: []string{"contract"},
	Volatile: []string{"generation_ms"}, Doc: generationsDoc})
