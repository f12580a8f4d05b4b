package schemas

import _ "embed"

//go:embed llm_calls.md
var llmCallsDoc string

// LLMCall is one row of the `llm_calls` dataset: one request to a language
// model (regeneration, repair, NatSpec, DCR extraction) and its outcome.
type LLMCall struct {
	ContractID   string `parquet:"contract_id"`
	Model        string `parquet:"model"`
	Sample       int64  `parquet:"sample"`
	Function     string `parquet:"function"`
	Purpose      string `parquet:"purpose"`
	PromptSHA256 string `parquet:"prompt_sha256"`
	TokensIn     *int64 `parquet:"tokens_in,optional"`
	TokensOut    *int64 `parquet:"tokens_out,optional"`
	LatencyMS    int64  `parquet:"latency_ms"`
	FinishReason string `parquet:"finish_reason"`
	Cached       bool   `parquet:"cached"`
	Attempts     int64  `parquet:"attempts"`
	Error        string `parquet:"error"`
	Warning      string `parquet:"warning"`
}

// LLMCalls is the llm_calls dataset: rows of LLMCall.
var LLMCalls = Define[LLMCall](Dataset{Name: "llm_calls", Partitions: []string{"contract"},
	Volatile: []string{"latency_ms", "cached", "attempts"}, Doc: llmCallsDoc})
