package schemas

import _ "embed"

//go:embed view_snapshots.md
var viewSnapshotsDoc string

// ViewSnapshot is one row of the `view_snapshots` dataset: one zero-argument
// view function read on the original and on one sample at the same point of
// a replay (solbehave paper §IV-F(b), a secondary observation).
type ViewSnapshot struct {
	ContractID        string     `parquet:"contract_id"`
	Model             string     `parquet:"model"`
	Sample            int64      `parquet:"sample"`
	Oracle            string     `parquet:"oracle"`
	GraphSetting      string     `parquet:"graph_setting"`
	Profile           string     `parquet:"profile"`
	Seq               int64      `parquet:"seq"`
	AfterCalls        int64      `parquet:"after_calls"`
	Function          string     `parquet:"function"`
	Selector          string     `parquet:"selector"`
	StatusRef         CallStatus `parquet:"status_ref"`
	StatusSample      CallStatus `parquet:"status_sample"`
	ValueRefSHA256    string     `parquet:"value_ref_sha256"`
	ValueSampleSHA256 string     `parquet:"value_sample_sha256"`
	ValueRef          string     `parquet:"value_ref"`
	ValueSample       string     `parquet:"value_sample"`
	Match             bool       `parquet:"match"`
}

// ViewSnapshots is the view_snapshots dataset: rows of ViewSnapshot.
var ViewSnapshots = Define[ViewSnapshot](Dataset{Name: "view_snapshots", Partitions: []string{"contract"}, Doc: viewSnapshotsDoc})
