package schemas

import _ "embed"

//go:embed skeletons.md
var skeletonsDoc string

// Skeleton is one row of the `skeletons` dataset: one function of a kept
// contract's regenerated contracts (the target and, by default, its bases),
// as its skeleton presents it (solbehave paper §IV-B), with the
// contract-level facts repeated on every row.
type Skeleton struct {
	ContractID      string `parquet:"contract_id"`
	Target          string `parquet:"target"`
	File            string `parquet:"file"`
	FunctionIndex   int64  `parquet:"function_index"`
	Function        string `parquet:"function"`
	DeclaredIn      string `parquet:"declared_in"`
	DeclaredFile    string `parquet:"declared_file"`
	Nontrivial      bool   `parquet:"nontrivial"`
	Signature       string `parquet:"signature"`
	Kind            string `parquet:"kind"`
	Visibility      string `parquet:"visibility"`
	StateMutability string `parquet:"state_mutability"`
	HasBody         bool   `parquet:"has_body"`
	NatSpecSource   string `parquet:"natspec_source"`
	Stub            string `parquet:"stub"`
	NFunctions      int64  `parquet:"n_functions"`
	NNontrivial     int64  `parquet:"n_nontrivial"`
	Regenerate      string `parquet:"regenerate"`
	Ablation        bool   `parquet:"ablation"`
	NatSpecModel    string `parquet:"natspec_model"`
	SkeletonPath    string `parquet:"skeleton_path"`
	SkeletonSHA256  string `parquet:"skeleton_sha256"`
	StubCompiled    bool   `parquet:"stub_compiled"`
	StubError       string `parquet:"stub_error"`
}

// Skeletons is the skeletons dataset: rows of Skeleton.
var Skeletons = Define[Skeleton](Dataset{Name: "skeletons", Partitions: []string{"contract"}, Doc: skeletonsDoc})
