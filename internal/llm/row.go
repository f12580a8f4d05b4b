package llm

import (
	"encoding/json"
	"errors"

	"github.com/solbehave/solbehave/schemas"
)

// PromptSHA256 digests a request's messages (the prompt as sent).
func PromptSHA256(msgs []Message) string {
	b, _ := json.Marshal(msgs)
	return sha256Hex(b)
}

// CallRow is the `llm_calls` row of one request: model is the generator name
// as the datasets spell it (e.g. openai:qwen3), sample -1 and function ""
// where the call is not about one sample or function.
func CallRow(contractID, model string, sample int64, function string, req Request, resp *Response, err error) schemas.LLMCall {
	row := schemas.LLMCall{ContractID: contractID, Model: model, Sample: sample, Function: function,
		Purpose: req.Purpose, PromptSHA256: PromptSHA256(req.Messages)}
	if resp != nil {
		row.TokensIn, row.TokensOut, row.Warning = resp.TokensIn, resp.TokensOut, resp.Warning
		row.LatencyMS, row.FinishReason, row.Cached = resp.LatencyMS, resp.FinishReason, resp.Cached
		row.Attempts = int64(resp.Attempts)
	}
	if err != nil {
		row.Error = err.Error()
		var e *Error
		if errors.As(err, &e) {
			row.Attempts = int64(e.Attempts)
		}
	}
	return row
}

// SumTokens totals the calls' usage figures: a call that reported none adds
// nothing, and a figure recorded as unknown (the call's warning) makes its
// total unknown (nil), never a sum that wraps or undercounts.
func SumTokens(calls []schemas.LLMCall) (in, out *int64) {
	var sumIn, sumOut int64
	for _, c := range calls {
		if c.Warning != "" {
			return nil, nil
		}
		sumIn += value(c.TokensIn)
		sumOut += value(c.TokensOut)
	}
	return &sumIn, &sumOut
}

func value(n *int64) int64 {
	if n == nil {
		return 0
	}
	return *n
}
