package schemas

import _ "embed"

//go:embed vuln_findings.md
var vulnFindingsDoc string

// VulnFinding is one row of the `vuln_findings` dataset: one vulnerability
// class an oracle reported for one run, with the sequence that triggered it
// and the trace evidence.
type VulnFinding struct {
	ContractID string `parquet:"contract_id"`
	Subject    string `parquet:"subject"`
	Model      string `parquet:"model"`
	Sample     int64  `parquet:"sample"`
	Ablation   string `parquet:"ablation"`
	Profile    string `parquet:"profile"`
	Target     string `parquet:"target"`
	Class      string `parquet:"class"`
	TxIndex    int64  `parquet:"tx_index"`
	Seed       string `parquet:"seed"`
	Evidence   string `parquet:"evidence"`
	Reproduces bool   `parquet:"reproduces"`
	Generation int64  `parquet:"generation"`
	Triggers   int64  `parquet:"triggers"`
}

// VulnFindings is the vuln_findings dataset: rows of VulnFinding.
var VulnFindings = Define[VulnFinding](Dataset{Name: "vuln_findings", Partitions: []string{"contract"}, Doc: vulnFindingsDoc})
