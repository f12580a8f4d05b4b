package schemas

import _ "embed"

//go:embed sequence_calls.md
var sequenceCallsDoc string

// SequenceCall is one row of the `sequence_calls` dataset: one call that
// Algorithm 1 (solbehave paper §IV-E2) tried on the original while building
// its validated sequences, kept (the original accepted it) or not. The kept
// rows, in order, are the sequences O3 replays; the others, at their place,
// are the negative probes O4 replays.
type SequenceCall struct {
	ContractID    string     `parquet:"contract_id"`
	Extractor     string     `parquet:"extractor"`
	Profile       string     `parquet:"profile"`
	Seq           int64      `parquet:"seq"`
	Step          int64      `parquet:"step"`
	Try           int64      `parquet:"try"`
	Position      int64      `parquet:"position"`
	Event         string     `parquet:"event"`
	Function      string     `parquet:"function"`
	Selector      string     `parquet:"selector"`
	Branch        string     `parquet:"branch"`
	Role          string     `parquet:"role"`
	Priority      string     `parquet:"priority"`
	ArgsSource    string     `parquet:"args_source"`
	Args          string     `parquet:"args"`
	Sender        string     `parquet:"sender"`
	ValueWei      string     `parquet:"value_wei"`
	Data          string     `parquet:"data"`
	BlockNumber   int64      `parquet:"block_number"`
	BlockTime     int64      `parquet:"block_time"`
	GasLimit      int64      `parquet:"gas_limit"`
	Status        CallStatus `parquet:"status"`
	Kept          bool       `parquet:"kept"`
	RevertReason  string     `parquet:"revert_reason"`
	GasUsed       int64      `parquet:"gas_used"`
	Candidates    int64      `parquet:"candidates"`
	MarkingBefore string     `parquet:"marking_before"`
	MarkingAfter  string     `parquet:"marking_after"`
	Pending       string     `parquet:"pending"`
	GuardErrors   int64      `parquet:"guard_errors"`
	SequenceEnd   string     `parquet:"sequence_end"`
}

// Statuses of a sequence call that never reached the chain.
const (
	// StatusUnencodable: the event's arguments do not encode for its function.
	StatusUnencodable CallStatus = "unencodable"
	// StatusUnknownFunction: the event names a function the ABI lacks.
	StatusUnknownFunction CallStatus = "unknown_function"
)

// SequenceCalls is the sequence_calls dataset: rows of SequenceCall.
var SequenceCalls = Define[SequenceCall](Dataset{Name: "sequence_calls", Partitions: []string{"contract"}, Doc: sequenceCallsDoc})
