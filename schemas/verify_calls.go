package schemas

import _ "embed"

//go:embed verify_calls.md
var verifyCallsDoc string

// VerifyCall is one row of the `verify_calls` dataset: one historical
// transaction of an original contract replayed against a fresh deployment of
// its verified source, with the recorded and the replayed outcome (the
// reproducibility check of solbehave paper §IV-A(b)).
type VerifyCall struct {
	ContractID     string     `parquet:"contract_id"`
	TxIndex        int64      `parquet:"tx_index"`
	TxHash         string     `parquet:"tx_hash"`
	Selector       string     `parquet:"selector"`
	Function       string     `parquet:"function"`
	Sender         string     `parquet:"sender"`
	ValueWei       string     `parquet:"value_wei"`
	BlockNumber    int64      `parquet:"block_number"`
	RecordedStatus CallStatus `parquet:"recorded_status"`
	ReplayedStatus CallStatus `parquet:"replayed_status"`
	StatusMatch    bool       `parquet:"status_match"`
	RecordedGas    int64      `parquet:"recorded_gas"`
	ReplayedGas    int64      `parquet:"replayed_gas"`
	RevertReason   string     `parquet:"revert_reason"`
}

// CallStatus is the outcome of one call on a chain: success or revert when
// it ran, else why it could not (the other Status constants). Every status
// column of a call (verify, replay, sequence, counterexample, view rows)
// has this type.
type CallStatus string

// The outcomes of a call that ran.
const (
	StatusSuccess CallStatus = "success"
	StatusRevert  CallStatus = "revert"
)

// VerifyCalls is the verify_calls dataset: rows of VerifyCall.
var VerifyCalls = Define[VerifyCall](Dataset{
	Name:       "verify_calls",
	Partitions: []string{"contract"},
	Doc:        verifyCallsDoc,
})
