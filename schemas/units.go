package schemas

import _ "embed"

//go:embed units.md
var unitsDoc string

// UnitRow is one row of the `units` dataset: a unit's manifest, as a release
// ships it (a data folder keeps them as JSON under state/).
type UnitRow struct {
	Stage       string `parquet:"stage"`
	Unit        string `parquet:"unit"`
	ContractID  string `parquet:"contract_id"`
	Version     string `parquet:"version"`
	Fingerprint string `parquet:"fingerprint"`
	RunID       string `parquet:"run_id"`
	Params      string `parquet:"params"`
	Failed      bool   `parquet:"failed"`
	Files       string `parquet:"files"`
}

func init() {
	Register(Dataset{Name: "units", Row: UnitRow{}, RunRecord: true, Volatile: []string{"run_id"}, Doc: unitsDoc})
}
