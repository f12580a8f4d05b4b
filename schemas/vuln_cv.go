package schemas

import _ "embed"

//go:embed vuln_cv.md
var vulnCVDoc string

// VulnCVRow is one row of the `vuln_cv` dataset: one SmartBugs Curated file ×
// one named parameter setting of the detector × one class, with the file's
// cross-validation fold, its label for the class and whether the run under
// that setting reported it. `vuln_eval_cv` chooses a setting per fold on the
// other folds and scores it on the fold.
type VulnCVRow struct {
	ContractID string `parquet:"contract_id"`
	Category   string `parquet:"category"`
	Fold       int64  `parquet:"fold"`
	Setting    string `parquet:"setting"`
	Profile    string `parquet:"profile"`
	Params     string `parquet:"params"`
	Class      string `parquet:"class"`
	Labelled   bool   `parquet:"labelled"`
	Judged     bool   `parquet:"judged"`
	Detected   bool   `parquet:"detected"`
	Status     string `parquet:"status"`
}

// VulnCVRow is the vuln_cv dataset: rows of VulnCVRow.
var VulnCV = Define[VulnCVRow](Dataset{Name: "vuln_cv", Partitions: []string{"contract"}, Doc: vulnCVDoc})
