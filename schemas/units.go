package schemas

import _ "embed"

//go:embed units.md
var unitsDoc string

// UnitRow is one row of the `units` dataset: a unit's manifest, as a release
// ships it (a data folder keeps them as JSON under state/).
type UnitRow struct {
	Stage       string  `parquet:"stage"`
	Unit        string  `parquet:"unit"`
	ContractID  string  `parquet:"contract_id"`
	Model       string  `parquet:"model"`
	Version     string  `parquet:"version"`
	Fingerprint string  `parquet:"fingerprint"`
	RunID       string  `parquet:"run_id"`
	Params      string  `parquet:"params"`
	Failed      bool    `parquet:"failed"`
	Files       string  `parquet:"files"`
	WallMS      int64   `parquet:"wall_ms"`
	CPUMS       int64   `parquet:"cpu_ms"`
	SolcStarts  float64 `parquet:"solc_starts"`
	SolcYouth   float64 `parquet:"solc_youth"`
	Jobs        int64   `parquet:"jobs"`
}

// Units is the units dataset: rows of UnitRow.
var Units = Define[UnitRow](Dataset{Name: "units", RunRecord: true, Volatile: []string{"run_id", "wall_ms", "cpu_ms", "solc_starts", "solc_youth", "jobs"}, Doc: unitsDoc})
