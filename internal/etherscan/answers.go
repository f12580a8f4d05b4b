package etherscan

import (
	"encoding/json"
	"io"
	"net/http"
)

// answerTransport puts an error answer's result into its message
// ({"status":"0","message":"NOTOK","result":"Invalid API Key"} becomes
// message "NOTOK: Invalid API Key"): the client library reports only the
// message, and the result is what tells a wrong key from a rate limit.
type answerTransport struct{ next http.RoundTripper }

func (t answerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := t.next.RoundTrip(req)
	if err != nil || res.StatusCode != http.StatusOK {
		return res, err
	}
	body, err := io.ReadAll(res.Body) // bounded by egress.Limit below this transport
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	return respond(req, res.StatusCode, withResultInMessage(body)), nil
}

// withResultInMessage rewrites a status-0 envelope whose result is a string;
// any other body is returned as it is.
func withResultInMessage(body []byte) []byte {
	var env struct {
		Status  string          `json:"status"`
		Message string          `json:"message"`
		Result  json.RawMessage `json:"result"`
	}
	if json.Unmarshal(body, &env) != nil || env.Status != "0" {
		return body
	}
	var result string
	if json.Unmarshal(env.Result, &result) != nil || result == "" {
		return body
	}
	out, err := json.Marshal(struct {
		Status  string `json:"status"`
		Message string `json:"message"`
		Result  string `json:"result"`
	}{"0", env.Message + ": " + result, result})
	if err != nil {
		return body
	}
	return out
}
