package schemas

import _ "embed"

//go:embed vuln_sites.md
var vulnSitesDoc string

// VulnSite is one row of the `vuln_sites` dataset: one distinct place an
// oracle fired in a labelled benchmark file's run, mapped to source lines.
type VulnSite struct {
	ContractID    string `parquet:"contract_id"`
	Ablation      string `parquet:"ablation"`
	Profile       string `parquet:"profile"`
	Target        string `parquet:"target"`
	Class         string `parquet:"class"`
	Function      string `parquet:"function"`
	PCs           string `parquet:"pcs"`
	Lines         string `parquet:"lines"`
	FunctionFirst int64  `parquet:"function_first"`
	FunctionLast  int64  `parquet:"function_last"`
}

// VulnSites is the vuln_sites dataset: rows of VulnSite.
var VulnSites = Define[VulnSite](Dataset{Name: "vuln_sites", Partitions: []string{"contract"}, Doc: vulnSitesDoc})

// VulnBug is one row of the `vuln_bug_labels` dataset: one labelled
// (injected) bug of a benchmark file, with its lines and whether it can be
// exploited dynamically.
type VulnBug struct {
	ContractID  string `parquet:"contract_id"`
	File        string `parquet:"file"`
	Bug         int64  `parquet:"bug"`
	Class       string `parquet:"class"`
	DASP        string `parquet:"dasp"`
	Lines       string `parquet:"lines"`
	Exploitable bool   `parquet:"exploitable"`
	Reason      string `parquet:"reason"`
}

// VulnBugLabels is the vuln_bug_labels dataset: rows of VulnBug.
var VulnBugLabels = Define[VulnBug](Dataset{Name: "vuln_bug_labels", Partitions: []string{"contract"}, Doc: vulnBugLabelsDoc})

//go:embed vuln_bug_labels.md
var vulnBugLabelsDoc string
