package schemas

import _ "embed"

//go:embed dcr_annotations.md
var dcrAnnotationsDoc string

// DCRAnnotation is one row of the `dcr_annotations` dataset: one human
// judgement of a DCR relation of a contract (the ground truth of Table III).
type DCRAnnotation struct {
	ContractID string `parquet:"contract_id"`
	Annotator  string `parquet:"annotator"`
	Type       string `parquet:"type"`
	SourceKey  string `parquet:"source_key"`
	TargetKey  string `parquet:"target_key"`
	Verdict    string `parquet:"verdict"`
	Phase      string `parquet:"phase"`
	Note       string `parquet:"note"`
	File       string `parquet:"file"`
}

// DCRAnnotations is the dcr_annotations dataset: rows of DCRAnnotation.
var DCRAnnotations = Define[DCRAnnotation](Dataset{Name: "dcr_annotations", Partitions: []string{"contract"}, Doc: dcrAnnotationsDoc})
