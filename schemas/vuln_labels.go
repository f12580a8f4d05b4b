package schemas

import _ "embed"

//go:embed vuln_labels.md
var vulnLabelsDoc string

// VulnLabel is one row of the `vuln_labels` dataset: whether a labelled
// benchmark file carries a label of one of the detector's five classes.
type VulnLabel struct {
	ContractID string `parquet:"contract_id"`
	File       string `parquet:"file"`
	Class      string `parquet:"class"`
	Labelled   bool   `parquet:"labelled"`
	Judged     bool   `parquet:"judged"`
	DASP       string `parquet:"dasp"`
	Lines      string `parquet:"lines"`
}

// VulnLabels is the vuln_labels dataset: rows of VulnLabel.
var VulnLabels = Define[VulnLabel](Dataset{Name: "vuln_labels", Partitions: []string{"contract"}, Doc: vulnLabelsDoc})
