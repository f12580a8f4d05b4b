package schemas

import _ "embed"

//go:embed errors.md
var errorsDoc string

// ErrorRow is one row of the `errors` dataset: a unit of some stage that
// failed, with the class of its failure. The run records it and goes on.
type ErrorRow struct {
	Stage      string `parquet:"stage"`
	Unit       string `parquet:"unit"`
	ContractID string `parquet:"contract_id"`
	Class      string `parquet:"class"`
	Message    string `parquet:"message"`
	Retriable  bool   `parquet:"retriable"`
}

// Errors is the errors dataset: rows of ErrorRow.
var Errors = Define[ErrorRow](Dataset{Name: "errors", Partitions: []string{"contract"}, Doc: errorsDoc})
