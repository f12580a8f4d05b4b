package schemas

import _ "embed"

//go:embed functions.md
var functionsDoc string

// Function is one row of the `functions` dataset: a function of a corpus
// contract (its own or inherited), from its AST and ABI.
type Function struct {
	ContractID  string `parquet:"contract_id"`
	DefinedIn   string `parquet:"defined_in"`
	Name        string `parquet:"name"`
	Kind        string `parquet:"kind"`
	Selector    string `parquet:"selector"`
	Signature   string `parquet:"signature"`
	Mutability  string `parquet:"mutability"`
	Visibility  string `parquet:"visibility"`
	Modifiers   string `parquet:"modifiers"`
	Nontrivial  bool   `parquet:"nontrivial"`
	SourceFile  string `parquet:"source_file"`
	SourceStart int64  `parquet:"source_start"`
	SourceLen   int64  `parquet:"source_length"`
	HasBody     bool   `parquet:"has_body"`
}

// Functions is the functions dataset: rows of Function.
var Functions = Define[Function](Dataset{Name: "functions", Partitions: []string{"contract"}, Doc: functionsDoc})
