package schemas

import _ "embed"

//go:embed replay_calls.md
var replayCallsDoc string

// ReplayCall is one row of the `replay_calls` dataset: one call replayed on
// the original and on one sample, both outcomes side by side, on the
// comparison axes of solbehave paper §IV-F. The replay oracles share it: O2
// (historical transactions), O3 (DCR-guided sequences), O4 (negative replay).
type ReplayCall struct {
	ContractID                string     `parquet:"contract_id"`
	Model                     string     `parquet:"model"`
	Sample                    int64      `parquet:"sample"`
	Oracle                    string     `parquet:"oracle"`
	GraphSetting              string     `parquet:"graph_setting"`
	Profile                   string     `parquet:"profile"`
	Extractor                 string     `parquet:"extractor"`
	Seq                       int64      `parquet:"seq"`
	Step                      int64      `parquet:"step"`
	TxHash                    string     `parquet:"tx_hash"`
	Selector                  string     `parquet:"selector"`
	Function                  string     `parquet:"function"`
	Sender                    string     `parquet:"sender"`
	ValueWei                  string     `parquet:"value_wei"`
	BlockNumber               int64      `parquet:"block_number"`
	Probe                     bool       `parquet:"probe"`
	StatusRef                 CallStatus `parquet:"status_ref"`
	StatusSample              CallStatus `parquet:"status_sample"`
	StatusMatch               bool       `parquet:"status_match"`
	GasRef                    int64      `parquet:"gas_ref"`
	GasSample                 int64      `parquet:"gas_sample"`
	GasFlag                   bool       `parquet:"gas_flag"`
	NEventsRef                int64      `parquet:"n_events_ref"`
	NEventsSample             int64      `parquet:"n_events_sample"`
	TopicsRefSHA256           string     `parquet:"topics_ref_sha256"`
	TopicsSampleSHA256        string     `parquet:"topics_sample_sha256"`
	ReturnRefSHA256           string     `parquet:"return_ref_sha256"`
	ReturnSampleSHA256        string     `parquet:"return_sample_sha256"`
	StorageWritesRefSHA256    string     `parquet:"storage_writes_ref_sha256"`
	StorageWritesSampleSHA256 string     `parquet:"storage_writes_sample_sha256"`
	RevertReasonRef           string     `parquet:"revert_reason_ref"`
	RevertReasonSample        string     `parquet:"revert_reason_sample"`
	GasLimited                bool       `parquet:"gas_limited"`
}

// Statuses a replayed call can have besides StatusSuccess and StatusRevert.
const (
	// StatusError: the harness could not run the call (a panic,
	// a message no block could include).
	StatusError CallStatus = "error"
	// StatusUndeployed: the sample compiled but could not be deployed, so it
	// could not answer the call.
	StatusUndeployed CallStatus = "undeployed"
)

// Oracle names of the replay oracles.
const (
	OracleO2 = "O2" // historical transaction replay
	OracleO3 = "O3" // DCR-guided synthetic replay
	OracleO4 = "O4" // negative replay of the calls O3 pruned
)

// ReplayCalls is the replay_calls dataset: rows of ReplayCall.
var ReplayCalls = Define[ReplayCall](Dataset{Name: "replay_calls", Partitions: []string{"contract"}, Doc: replayCallsDoc})
