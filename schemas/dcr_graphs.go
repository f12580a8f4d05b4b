package schemas

import _ "embed"

//go:embed dcr_graphs.md
var dcrGraphsDoc string

// DCRGraph is one row of the `dcr_graphs` dataset: the DCR graph one
// extractor produced for one contract, or why there is none (solbehave
// paper §IV-E1).
type DCRGraph struct {
	ContractID  string `parquet:"contract_id"`
	Extractor   string `parquet:"extractor"`
	Status      string `parquet:"status"`
	Events      int64  `parquet:"events"`
	Relations   int64  `parquet:"relations"`
	Path        string `parquet:"path"`
	GraphSHA256 string `parquet:"graph_sha256"`
	Replies     int64  `parquet:"replies"`
	Problems    string `parquet:"problems"`
}

// DCRGraphs is the dcr_graphs dataset: rows of DCRGraph.
var DCRGraphs = Define[DCRGraph](Dataset{Name: "dcr_graphs", Partitions: []string{"contract"}, Doc: dcrGraphsDoc})
