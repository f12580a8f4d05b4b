package schemas

import _ "embed"

//go:embed reproducibility.md
var reproducibilityDoc string

// ReproducibilityRow is one row of the `reproducibility` dataset: whether an
// original, deployed fresh from its verified source, reproduces its own
// history (solbehave paper §IV-A(b)).
type ReproducibilityRow struct {
	ContractID            string  `parquet:"contract_id"`
	Address               string  `parquet:"address"`
	Name                  string  `parquet:"name"`
	CompilerRequested     string  `parquet:"compiler_requested"`
	CompilerUsed          string  `parquet:"compiler_used"`
	SourceFormat          string  `parquet:"source_format"`
	ConstructorArgsSource string  `parquet:"constructor_args_source"`
	AtRecordedAddress     bool    `parquet:"at_recorded_address"`
	Replayed              int64   `parquet:"replayed"`
	Reproduced            int64   `parquet:"reproduced"`
	ReproducedFraction    float64 `parquet:"reproduced_fraction"`
	FirstDivergingTx      int64   `parquet:"first_diverging_tx"`
	Kept                  bool    `parquet:"kept"`
	ReasonClass           string  `parquet:"reason_class"`
	Reason                string  `parquet:"reason"`
	Artifact              string  `parquet:"artifact"`
}

// ReproducibilityRow is the reproducibility dataset: rows of ReproducibilityRow.
var Reproducibility = Define[ReproducibilityRow](Dataset{Name: "reproducibility", Partitions: []string{"contract"},
	Pointers: []string{"artifact"}, Doc: reproducibilityDoc})
