package pipeline

import (
	"encoding/json"
	"path/filepath"

	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// UnitRows are the manifests as rows of the units dataset.
func UnitRows(ms []Manifest) []schemas.UnitRow {
	rows := make([]schemas.UnitRow, 0, len(ms))
	for _, m := range ms {
		params, _ := json.Marshal(m.Params)
		files, _ := json.Marshal(m.Files)
		rows = append(rows, schemas.UnitRow{Stage: m.Stage, Unit: m.Unit, ContractID: m.Contract, Model: m.Model, Version: m.Version,
			Fingerprint: m.Fingerprint, RunID: m.Run, Params: string(params), Failed: m.Failed, Files: string(files),
			WallMS: m.WallMS, CPUMS: m.CPUMS, SolcStarts: m.SolcStarts, SolcYouth: m.SolcYouth, Jobs: int64(m.Jobs)})
	}
	return rows
}

// WriteUnits writes the data folder's manifests as its units dataset (one
// part, replaced whole), so what each current unit cost is a query.
func WriteUnits(data string) error {
	ms, err := ReadManifests(data)
	if err != nil {
		return err
	}
	w := warehouse.New(filepath.Join(data, "warehouse"))
	return warehouse.Write(w.Path(schemas.Units.Name(), nil, "manifests"), UnitRows(ms))
}
