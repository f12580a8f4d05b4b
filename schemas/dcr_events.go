package schemas

import _ "embed"

//go:embed dcr_events.md
var dcrEventsDoc string

// DCREvent is one row of the `dcr_events` dataset: one event of an
// extracted DCR graph, with its proposed call and where that came from.
type DCREvent struct {
	ContractID  string `parquet:"contract_id"`
	Extractor   string `parquet:"extractor"`
	EventID     string `parquet:"event_id"`
	EventKey    string `parquet:"event_key"`
	Function    string `parquet:"function"`
	Branch      string `parquet:"branch"`
	Role        string `parquet:"role"`
	Once        bool   `parquet:"once"`
	Included    bool   `parquet:"included"`
	Pending     bool   `parquet:"pending"`
	Args        string `parquet:"args"`
	ArgSources  string `parquet:"arg_sources"`
	Value       string `parquet:"value"`
	ValueSource string `parquet:"value_source"`
}

// DCREvents is the dcr_events dataset: rows of DCREvent.
var DCREvents = Define[DCREvent](Dataset{Name: "dcr_events", Partitions: []string{"contract"}, Doc: dcrEventsDoc})
